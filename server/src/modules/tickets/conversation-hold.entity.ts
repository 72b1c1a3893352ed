import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Ticket } from './ticket.entity.js';

/** The automation that can hold a conversation; a person holds it through the ticket's user (holds.ts). */
export const AUTOMATION_HOLDERS = ['chatbot', 'flow', 'integration', 'prompt'] as const;
export type AutomationHolder = (typeof AUTOMATION_HOLDERS)[number];

/**
 * Who of the automation holds a ticket's conversation, with that holder's own state (the chatbot's place in
 * the option tree and menu count, later a flow's node and variables). At most one row per ticket; no row
 * means no automation holds it. Read and written only through holds.ts.
 */
export class ConversationHold {
  [OptionalProps]?: 'holderId' | 'state' | 'updatedAt';
  ticketId!: number;
  companyId!: number;
  holder!: AutomationHolder;
  /** The integration, prompt or flow holding it (none for the chatbot). */
  holderId: number | null = null;
  state: Record<string, unknown> = {};
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
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
