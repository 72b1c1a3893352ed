import type { EntityManager } from '@mikro-orm/postgresql';
import { Ticket } from './ticket.entity.js';

/** The contact's open or pending ticket on a connection, if any (at most one: a partial unique index). */
export const findActiveTicket = (em: EntityManager, contactId: number, whatsappId: number | null) =>
  em.findOne(Ticket, { contactId, whatsappId, status: { $in: ['open', 'pending'] } });
