import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Queue } from '../queues/queue.entity.js';

/**
 * One entry of a queue's chatbot menu (spec 02 section 3). `option` is the key the customer types
 * (1-based position, renumbered on delete); `parentId` null means top level.
 */
export class QueueOption {
  [OptionalProps]?: 'message' | 'parentId' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  queueId!: number;
  parentId: number | null = null;
  title!: string;
  message = '';
  option!: string;
  createdAt = new Date();
  updatedAt = new Date();
}

export const QueueOptionSchema = new EntitySchema<QueueOption>({
  class: QueueOption,
  tableName: 'queue_options',
  filters: tenantFilter,
  indexes: [{ properties: ['queueId', 'parentId'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    queueId: { kind: 'm:1', entity: () => Queue, mapToPk: true, fieldName: 'queue_id', deleteRule: 'cascade' },
    parentId: { kind: 'm:1', entity: () => QueueOption, mapToPk: true, nullable: true, fieldName: 'parent_id', deleteRule: 'cascade' },
    title: { type: 'string', length: 200 },
    message: { type: 'text', default: '' },
    option: { type: 'string', length: 10 },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
