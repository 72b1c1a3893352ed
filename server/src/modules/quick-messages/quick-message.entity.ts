import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { User } from '../users/user.entity.js';

/** A shortcut reply; `geral` shares it with the whole company, otherwise it is its owner's. */
export class QuickMessage {
  [OptionalProps]?: 'userId' | 'geral' | 'status' | 'mediaPath' | 'mediaName' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  userId: number | null = null;
  shortcode!: string;
  message!: string;
  geral = false;
  status = true;
  mediaPath: string | null = null;
  mediaName: string | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const QuickMessageSchema = new EntitySchema<QuickMessage>({
  class: QuickMessage,
  tableName: 'quick_messages',
  filters: tenantFilter,
  indexes: [{ properties: ['companyId', 'shortcode'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    userId: { kind: 'm:1', entity: () => User, mapToPk: true, nullable: true, fieldName: 'user_id', deleteRule: 'set null' },
    shortcode: { type: 'string', length: 100 },
    message: { type: 'text' },
    geral: { type: 'boolean', default: false },
    status: { type: 'boolean', default: true },
    mediaPath: { type: 'string', length: 200, nullable: true },
    mediaName: { type: 'string', length: 300, nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
