import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { User } from '../users/user.entity.js';

export class Tag {
  [OptionalProps]?: 'color' | 'kanban' | 'position' | 'userId' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  name!: string;
  color = '#A4CCCC';
  /** 1: the tag is a kanban lane. */
  kanban = 0;
  /** Where the lane stands on the board, as an admin dragged it; null: after the placed lanes, by id. */
  position: number | null = null;
  userId: number | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const TagSchema = new EntitySchema<Tag>({
  class: Tag,
  tableName: 'tags',
  filters: tenantFilter,
  uniques: [{ properties: ['companyId', 'name'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    name: { type: 'string', length: 100 },
    color: { type: 'string', length: 20, default: '#A4CCCC' },
    kanban: { type: 'integer', default: 0 },
    position: { type: 'integer', nullable: true },
    userId: { kind: 'm:1', entity: () => User, mapToPk: true, nullable: true, fieldName: 'user_id', deleteRule: 'set null' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

export class TicketTag {
  ticketId!: number;
  tagId!: number;
  companyId!: number;
}

export const TicketTagSchema = new EntitySchema<TicketTag>({
  class: TicketTag,
  tableName: 'ticket_tags',
  filters: tenantFilter,
  properties: {
    ticketId: { kind: 'm:1', entity: () => Ticket, mapToPk: true, primary: true, fieldName: 'ticket_id', deleteRule: 'cascade' },
    tagId: { kind: 'm:1', entity: () => Tag, mapToPk: true, primary: true, fieldName: 'tag_id', deleteRule: 'cascade', index: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
  },
});
