import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Ticket } from './ticket.entity.js';

/** The automation that can hold a conversation; a person holds it through the ticket's user (holds.ts). */
export const AUTOMATION_HOLDERS = ['chatbot', 'flow', 'integration', 'prompt'] as const;
export type AutomationHolder = (typeof AUTOMATION_HOLDERS)[number];

/**
 * Who of the automation holds a ticket's conversation, with that holder's own state (the chatbot's place in
 * the option tree, later a flow's node and variables) and memory (what lasts the conversation even while
 * the holder is idle: the chatbot's menu count). At most one row per ticket; no row means no automation
 * holds it. Read and written only through holds.ts.
 */
export class ConversationHold {
  [OptionalProps]?: 'holderId' | 'state' | 'memory' | 'active' | 'version' | 'updatedAt';
  ticketId!: number;
  companyId!: number;
  holder!: AutomationHolder;
  /** The integration, prompt or flow holding it (none for the chatbot). */
  holderId: number | null = null;
  /** The holder's working state, cleared when it goes idle. */
  state: Record<string, unknown> = {};
  /** What the holder keeps for the whole conversation. */
  memory: Record<string, unknown> = {};
  /** Working the conversation now (the chatbot: walking a queue's option tree). */
  active = true;
  /** Counts every change, so two writers (a resumed wait, a new message) cannot both advance it. */
  version = 0;
  updatedAt = new Date();
}

export const ConversationHoldSchema = new EntitySchema<ConversationHold>({
  class: ConversationHold,
  tableName: 'conversation_holds',
  filters: tenantFilter,
  properties: {
    ticketId: { kind: 'm:1', entity: () => Ticket, mapToPk: true, primary: true, fieldName: 'ticket_id', deleteRule: 'cascade' },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    holder: { type: 'string', length: 16 },
    holderId: { type: 'integer', nullable: true },
    state: { type: 'json', default: '{}' },
    memory: { type: 'json', default: '{}' },
    active: { type: 'boolean', default: true },
    version: { type: 'integer', default: 0, version: true },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
