import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import type { TicketActor } from './actor.js';
import { Ticket } from './ticket.entity.js';

/** What a transition did to a ticket (modules/transitions). */
export const TICKET_LOG_ACTIONS = ['created', 'accepted', 'returned', 'transferred', 'reopened', 'queued', 'closed'] as const;
export type TicketLogAction = (typeof TICKET_LOG_ACTIONS)[number];

/**
 * The ticket's log: one row per transition, with who acted (a user, the chatbot, a flow, a campaign, an
 * API token...) and where the ticket went (queue and user before and after). Written by the transitions
 * only; read to tell the conversation's story ("Transferred by Ana to Suporte").
 */
export class TicketLog {
  [OptionalProps]?: 'actorId' | 'fromQueueId' | 'toQueueId' | 'fromUserId' | 'toUserId' | 'createdAt';
  id!: number;
  companyId!: number;
  ticketId!: number;
  action!: TicketLogAction;
  actorKind!: TicketActor['kind'];
  actorId: number | null = null;
  fromQueueId: number | null = null;
  toQueueId: number | null = null;
  fromUserId: number | null = null;
  toUserId: number | null = null;
  createdAt = new Date();
}

export const TicketLogSchema = new EntitySchema<TicketLog>({
  class: TicketLog,
  tableName: 'ticket_logs',
  filters: tenantFilter,
  indexes: [{ properties: ['ticketId', 'id'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    ticketId: { kind: 'm:1', entity: () => Ticket, mapToPk: true, fieldName: 'ticket_id', deleteRule: 'cascade' },
    action: { type: 'string', length: 16 },
    actorKind: { type: 'string', length: 16 },
    actorId: { type: 'integer', nullable: true },
    // Plain ids, not references: a queue or user deleted later leaves the story as it was.
    fromQueueId: { type: 'integer', nullable: true },
    toQueueId: { type: 'integer', nullable: true },
    fromUserId: { type: 'integer', nullable: true },
    toUserId: { type: 'integer', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
  },
});
