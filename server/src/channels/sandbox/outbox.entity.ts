import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../../modules/companies/company.entity.js';
import { Whatsapp } from '../../modules/connections/whatsapp.entity.js';

/** What the platform sent through a sandbox connection: the simulated phone's received messages. */
export class SandboxOutbox {
  [OptionalProps]?: 'mediaType' | 'mediaName' | 'quotedId' | 'deleted' | 'deliveries' | 'createdAt';
  id!: number;
  companyId!: number;
  whatsappId!: number;
  wid!: string;
  to!: string;
  body!: string;
  mediaType: string | null = null;
  mediaName: string | null = null;
  quotedId: string | null = null;
  deleted = false;
  /** How many times the network delivered this id: the phone shows one copy, a count above 1 is a duplicate send. */
  deliveries = 1;
  createdAt = new Date();
}

export const SandboxOutboxSchema = new EntitySchema<SandboxOutbox>({
  class: SandboxOutbox,
  tableName: 'sandbox_outbox',
  filters: tenantFilter,
  indexes: [{ properties: ['whatsappId', 'id'] }],
  // A message sent again with the same id is the same message, as on WhatsApp: the phone keeps one copy.
  uniques: [{ properties: ['whatsappId', 'wid'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, fieldName: 'whatsapp_id', deleteRule: 'cascade' },
    wid: { type: 'string', length: 100 },
    to: { type: 'string', length: 50 },
    body: { type: 'text' },
    mediaType: { type: 'string', length: 30, nullable: true },
    mediaName: { type: 'string', length: 300, nullable: true },
    quotedId: { type: 'string', length: 200, nullable: true },
    deleted: { type: 'boolean', default: false },
    deliveries: { type: 'integer', default: 1 },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
  },
});
