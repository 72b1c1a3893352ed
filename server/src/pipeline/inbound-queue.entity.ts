import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../db/tenant.js';
import { Company } from '../modules/companies/company.entity.js';
import { Whatsapp } from '../modules/connections/whatsapp.entity.js';

/**
 * Inbound messages as the channel handed them over, written before anything else happens to them. A
 * crash mid-pipeline leaves the row here and it is processed again at the next start; processing is
 * idempotent on (connection, message id), so a replay stores nothing twice.
 */
export class InboundQueueItem {
  [OptionalProps]?: 'attempts' | 'lastError' | 'receivedAt';
  id!: number;
  companyId!: number;
  whatsappId!: number;
  wid!: string;
  payload!: unknown;
  attempts = 0;
  lastError: string | null = null;
  receivedAt = new Date();
}

export const InboundQueueSchema = new EntitySchema<InboundQueueItem>({
  class: InboundQueueItem,
  tableName: 'inbound_queue',
  filters: tenantFilter,
  uniques: [{ properties: ['whatsappId', 'wid'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, fieldName: 'whatsapp_id', deleteRule: 'cascade' },
    wid: { type: 'string', length: 200 },
    payload: { type: 'json' },
    attempts: { type: 'integer', default: 0 },
    lastError: { type: 'string', length: 500, nullable: true },
    receivedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
  },
});
