import type { ServiceContext } from '../../context.js';
import { Ticket } from './ticket.entity.js';
import { placementOf } from './ticket.presenter.js';

/** Opens the ticket's messages: unread to zero and the event the lists use to clear their badge. */
export const markTicketRead = async (ctx: ServiceContext, ticket: Ticket) => {
  if (ticket.unreadMessages === 0) return false;
  ticket.unreadMessages = 0;
  await ctx.em.nativeUpdate(Ticket, { id: ticket.id }, { unreadMessages: 0 });
  ctx.events.emit('ticket.read', { companyId: ticket.companyId, ticketId: ticket.id, placement: placementOf(ticket) });
  return true;
};
