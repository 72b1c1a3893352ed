import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import type { CampaignShippingStatus, CampaignStatus } from '@atrium/shared';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { ContactList, ContactListItem } from '../contact-lists/contact-list.entity.js';
import { FileList } from '../files/file-list.entity.js';
import { Tag } from '../tags/tag.entity.js';

/** A mass send to a contact list (spec 02 "Campaign"). */
export class Campaign {
  [OptionalProps]?:
    | 'message1'
    | 'message2'
    | 'message3'
    | 'message4'
    | 'message5'
    | 'status'
    | 'scheduledAt'
    | 'startedAt'
    | 'completedAt'
    | 'whatsappId'
    | 'contactListId'
    | 'tagId'
    | 'snapshotListId'
    | 'fileListId'
    | 'mediaPath'
    | 'mediaName'
    | 'createdAt'
    | 'updatedAt';
  id!: number;
  companyId!: number;
  name!: string;
  message1 = '';
  message2 = '';
  message3 = '';
  message4 = '';
  message5 = '';
  status: CampaignStatus = 'INATIVA';
  scheduledAt: Date | null = null;
  /** When it first started sending. */
  startedAt: Date | null = null;
  completedAt: Date | null = null;
  whatsappId: number | null = null;
  contactListId: number | null = null;
  /** The tag whose tickets' contacts are added (the form's tagListId). */
  tagId: number | null = null;
  /** The list made from that tag (spec 04 section 1): this campaign's, deleted with it or with the next snapshot. */
  snapshotListId: number | null = null;
  fileListId: number | null = null;
  /** Stored file name in the company's media folder. */
  mediaPath: string | null = null;
  mediaName: string | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const CampaignSchema = new EntitySchema<Campaign>({
  class: Campaign,
  tableName: 'campaigns',
  filters: tenantFilter,
  indexes: [
    { properties: ['companyId', 'id'] },
    // The start sweep's question: scheduled campaigns whose time has come.
    { name: 'campaigns_due', expression: `create index "campaigns_due" on "campaigns" ("scheduled_at") where "status" = 'PROGRAMADA'` },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    name: { type: 'string', length: 100 },
    message1: { type: 'text', default: '' },
    message2: { type: 'text', default: '' },
    message3: { type: 'text', default: '' },
    message4: { type: 'text', default: '' },
    message5: { type: 'text', default: '' },
    status: { type: 'string', length: 20, default: 'INATIVA' },
    scheduledAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    startedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    completedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, nullable: true, fieldName: 'whatsapp_id', deleteRule: 'set null' },
    contactListId: { kind: 'm:1', entity: () => ContactList, mapToPk: true, nullable: true, fieldName: 'contact_list_id', deleteRule: 'set null' },
    tagId: { kind: 'm:1', entity: () => Tag, mapToPk: true, nullable: true, fieldName: 'tag_id', deleteRule: 'set null' },
    snapshotListId: { kind: 'm:1', entity: () => ContactList, mapToPk: true, nullable: true, fieldName: 'snapshot_list_id', deleteRule: 'set null' },
    fileListId: { kind: 'm:1', entity: () => FileList, mapToPk: true, nullable: true, fieldName: 'file_list_id', deleteRule: 'set null' },
    mediaPath: { type: 'string', length: 200, nullable: true },
    mediaName: { type: 'string', length: 300, nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/**
 * One contact of a started campaign (its "shipping" row): made once when the campaign starts, with the
 * variant picked, the text rendered and its message id, and sent once. `outboxId` is the outbox row of its
 * message once it is queued (a window of the campaign's rows is in the outbox at a time); its outcome (sent or failed with the reason, then delivered and read) is recorded here,
 * and a reply from the contact sets repliedAt. Unique per campaign and number: a number is sent once.
 */
export class CampaignShipping {
  [OptionalProps]?:
    | 'contactListItemId'
    | 'contactId'
    | 'whatsappId'
    | 'variant'
    | 'status'
    | 'error'
    | 'plannedAt'
    | 'seq'
    | 'outboxId'
    | 'wid'
    | 'sentAt'
    | 'deliveredAt'
    | 'readAt'
    | 'repliedAt'
    | 'createdAt'
    | 'updatedAt';
  id!: number;
  companyId!: number;
  campaignId!: number;
  contactListItemId: number | null = null;
  contactId: number | null = null;
  /** The connection it goes through (a reply on that connection counts). */
  whatsappId: number | null = null;
  number!: string;
  name!: string;
  variant = 0;
  message!: string;
  status: CampaignShippingStatus = 'pending';
  error: string | null = null;
  /** When it is expected to leave at the campaign's pace (the outbox's pacing decides the real time). */
  plannedAt: Date | null = null;
  /** Its place in the campaign's run: two campaigns on one connection take turns by it. */
  seq = 0;
  outboxId: number | null = null;
  wid: string | null = null;
  sentAt: Date | null = null;
  deliveredAt: Date | null = null;
  readAt: Date | null = null;
  repliedAt: Date | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const CampaignShippingSchema = new EntitySchema<CampaignShipping>({
  class: CampaignShipping,
  tableName: 'campaign_shipping',
  filters: tenantFilter,
  uniques: [{ properties: ['campaignId', 'number'] }],
  indexes: [
    { properties: ['campaignId', 'status', 'id'] },
    { properties: ['outboxId'] },
    // Deleting a list sets its items' rows to null: found by index, not by a scan per item.
    { properties: ['contactListItemId'] },
    // A reply's question: this contact's latest campaign message on this connection, not answered yet.
    {
      name: 'campaign_shipping_unreplied',
      expression: `create index "campaign_shipping_unreplied" on "campaign_shipping" ("contact_id", "whatsapp_id", "sent_at") where "status" = 'sent' and "replied_at" is null`,
    },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    campaignId: { kind: 'm:1', entity: () => Campaign, mapToPk: true, fieldName: 'campaign_id', deleteRule: 'cascade' },
    contactListItemId: {
      kind: 'm:1',
      entity: () => ContactListItem,
      mapToPk: true,
      nullable: true,
      fieldName: 'contact_list_item_id',
      deleteRule: 'set null',
    },
    contactId: { type: 'integer', nullable: true },
    whatsappId: { type: 'integer', nullable: true },
    number: { type: 'string', length: 50 },
    name: { type: 'string', length: 100 },
    variant: { type: 'smallint', default: 0 },
    message: { type: 'text' },
    status: { type: 'string', length: 10, default: 'pending' },
    error: { type: 'string', length: 100, nullable: true },
    plannedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    seq: { type: 'integer', default: 0 },
    outboxId: { type: 'integer', nullable: true },
    wid: { type: 'string', length: 100, nullable: true },
    sentAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    deliveredAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    readAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    repliedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/** A company's campaign setting (spec 04 section 2): the value is JSON text. */
export class CampaignSetting {
  [OptionalProps]?: 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  key!: string;
  value!: string;
  createdAt = new Date();
  updatedAt = new Date();
}

export const CampaignSettingSchema = new EntitySchema<CampaignSetting>({
  class: CampaignSetting,
  tableName: 'campaign_settings',
  filters: tenantFilter,
  uniques: [{ properties: ['companyId', 'key'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    key: { type: 'string', length: 40 },
    value: { type: 'text' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
