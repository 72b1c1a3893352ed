import { randomUUID } from 'node:crypto';
import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';

/**
 * A customer (or a group). `number` is digits with country code; `lid` is WhatsApp's privacy identity
 * of the same person: both map to one contact, never two.
 */
export class Contact {
  [OptionalProps]?: 'number' | 'lid' | 'email' | 'profilePicUrl' | 'isGroup' | 'uuid' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  name!: string;
  number: string | null = null;
  lid: string | null = null;
  email = '';
  profilePicUrl = '';
  isGroup = false;
  uuid: string = randomUUID();
  createdAt = new Date();
  updatedAt = new Date();
}

export const ContactSchema = new EntitySchema<Contact>({
  class: Contact,
  tableName: 'contacts',
  filters: tenantFilter,
  indexes: [
    { properties: ['companyId', 'name'] },
    // Search by name or number (GET /contacts, GET /tickets searchParam): trigram indexes (pg_trgm).
    { name: 'contacts_name_trgm', expression: 'create index "contacts_name_trgm" on "contacts" using gin ("name" gin_trgm_ops)' },
    { name: 'contacts_number_trgm', expression: 'create index "contacts_number_trgm" on "contacts" using gin ("number" gin_trgm_ops)' },
  ],
  uniques: [
    // One contact per number and per WhatsApp LID in a company; concurrent first messages cannot make two.
    {
      name: 'contacts_company_number_unique',
      expression: 'create unique index "contacts_company_number_unique" on "contacts" ("company_id", "number") where "number" is not null',
    },
    {
      name: 'contacts_company_lid_unique',
      expression: 'create unique index "contacts_company_lid_unique" on "contacts" ("company_id", "lid") where "lid" is not null',
    },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    name: { type: 'string', length: 200 },
    number: { type: 'string', length: 50, nullable: true },
    lid: { type: 'string', length: 50, nullable: true },
    email: { type: 'string', length: 254, default: '' },
    profilePicUrl: { type: 'text', default: '' },
    isGroup: { type: 'boolean', default: false },
    uuid: { type: 'uuid', unique: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/** extraInfo: name/value pairs of a contact. */
export class ContactCustomField {
  id!: number;
  companyId!: number;
  contactId!: number;
  name!: string;
  value!: string;
}

export const ContactCustomFieldSchema = new EntitySchema<ContactCustomField>({
  class: ContactCustomField,
  tableName: 'contact_custom_fields',
  filters: tenantFilter,
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    contactId: { kind: 'm:1', entity: () => Contact, mapToPk: true, fieldName: 'contact_id', deleteRule: 'cascade', index: true },
    name: { type: 'string', length: 100 },
    value: { type: 'text' },
  },
});
