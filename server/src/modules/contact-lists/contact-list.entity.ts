import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import type { ContactListCheckState, ContactListImportState } from '@atrium/shared';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';

/** A list of people to send a campaign to (spec 02 "Contact list"). */
export class ContactList {
  [OptionalProps]?: 'campaignId' | 'checkState' | 'checkLeaseUntil' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  name!: string;
  /**
   * The campaign that made this list from a tag's contacts (spec 04 section 1): it is that campaign's and
   * goes with it (a plain id: the campaigns module sits above this one).
   */
  campaignId: number | null = null;
  /** The WhatsApp check of its numbers: 'checking' until none is left unchecked; 'noConnection' says why not. */
  checkState: ContactListCheckState = 'idle';
  /** One checker at a time: the one whose lease this is. */
  checkLeaseUntil: Date | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const ContactListSchema = new EntitySchema<ContactList>({
  class: ContactList,
  tableName: 'contact_lists',
  filters: tenantFilter,
  indexes: [{ properties: ['companyId', 'name'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    name: { type: 'string', length: 200 },
    campaignId: { type: 'integer', nullable: true },
    checkState: { type: 'string', length: 20, default: 'idle' },
    checkLeaseUntil: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/** One person of a list: a number is in a list once. */
export class ContactListItem {
  [OptionalProps]?: 'email' | 'isWhatsappValid' | 'checkedAt' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  contactListId!: number;
  name!: string;
  /** Digits only; the canonical WhatsApp digits once checked. */
  number!: string;
  email = '';
  isWhatsappValid = false;
  /** Null until the number was checked on WhatsApp. */
  checkedAt: Date | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const ContactListItemSchema = new EntitySchema<ContactListItem>({
  class: ContactListItem,
  tableName: 'contact_list_items',
  filters: tenantFilter,
  uniques: [{ properties: ['contactListId', 'number'] }],
  indexes: [
    { properties: ['contactListId', 'name'] },
    // The checker's question: this list's next unchecked numbers.
    { name: 'contact_list_items_unchecked', expression: `create index "contact_list_items_unchecked" on "contact_list_items" ("contact_list_id", "id") where "checked_at" is null` },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    contactListId: { kind: 'm:1', entity: () => ContactList, mapToPk: true, fieldName: 'contact_list_id', deleteRule: 'cascade' },
    name: { type: 'string', length: 100 },
    number: { type: 'string', length: 50 },
    email: { type: 'string', length: 254, default: '' },
    isWhatsappValid: { type: 'boolean', default: false },
    checkedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/** A row of a sheet that was not imported, and why (the downloadable report). */
export interface InvalidImportRow {
  row: number;
  name: string;
  number: string;
  email: string;
  reason: string;
}

/** One spreadsheet import into a list: a job reads it, with its progress here. */
export class ContactListImport {
  [OptionalProps]?: 'status' | 'total' | 'processed' | 'created' | 'duplicates' | 'invalid' | 'invalidRows' | 'error' | 'leaseUntil' | 'createdAt' | 'finishedAt';
  id!: number;
  companyId!: number;
  contactListId!: number;
  status: ContactListImportState = 'pending';
  /** The uploaded file in the company's media folder (removed once read). */
  storedName!: string;
  /** Its name on the user's computer. */
  fileName!: string;
  format!: 'xls' | 'xlsx';
  total = 0;
  processed = 0;
  created = 0;
  duplicates = 0;
  invalid = 0;
  invalidRows: InvalidImportRow[] = [];
  error: string | null = null;
  /** A running import whose lease ran out was cut off (a crash): the sweep runs it again. */
  leaseUntil: Date | null = null;
  createdAt = new Date();
  finishedAt: Date | null = null;
}

export const ContactListImportSchema = new EntitySchema<ContactListImport>({
  class: ContactListImport,
  tableName: 'contact_list_imports',
  filters: tenantFilter,
  indexes: [{ properties: ['contactListId', 'id'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    contactListId: { kind: 'm:1', entity: () => ContactList, mapToPk: true, fieldName: 'contact_list_id', deleteRule: 'cascade' },
    status: { type: 'string', length: 10, default: 'pending' },
    storedName: { type: 'string', length: 100 },
    fileName: { type: 'string', length: 300 },
    format: { type: 'string', length: 4 },
    total: { type: 'integer', default: 0 },
    processed: { type: 'integer', default: 0 },
    created: { type: 'integer', default: 0 },
    duplicates: { type: 'integer', default: 0 },
    invalid: { type: 'integer', default: 0 },
    invalidRows: { type: 'json', default: '[]' },
    error: { type: 'string', length: 100, nullable: true },
    leaseUntil: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    finishedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
  },
});

export type { ContactListCheckState, ContactListImportState };
