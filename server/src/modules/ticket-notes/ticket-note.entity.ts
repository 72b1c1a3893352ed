import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { User } from '../users/user.entity.js';

/** An agent's private note on a ticket and its contact. */
export class TicketNote {
  [OptionalProps]?: 'userId' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  ticketId!: number;
  contactId!: number;
  userId: number | null = null;
  note!: string;
  createdAt = new Date();
  updatedAt = new Date();
}

export const TicketNoteSchema = new EntitySchema<TicketNote>({
  class: TicketNote,
  tableName: 'ticket_notes',
  filters: tenantFilter,
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    ticketId: { kind: 'm:1', entity: () => Ticket, mapToPk: true, fieldName: 'ticket_id', deleteRule: 'cascade', index: true },
    contactId: { kind: 'm:1', entity: () => Contact, mapToPk: true, fieldName: 'contact_id', deleteRule: 'cascade', index: true },
    userId: { kind: 'm:1', entity: () => User, mapToPk: true, nullable: true, fieldName: 'user_id', deleteRule: 'set null' },
    note: { type: 'text' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
