import { type TicketEventPayload } from '@atrium/shared';
import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';
import { ticketAudience } from '../../realtime/ticket-rooms.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): tickets moved, removed or read, to the lists and conversations that show them. */
export const registerTicketsRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('ticket.changed', async ({ companyId, ticket, previous }) => {
    const now = ticketAudience(ticket);
    const moved = previous && (previous.status !== ticket.status || previous.queueId !== ticket.queueId || previous.userId !== ticket.userId);
    if (moved) {
      // Lists the ticket left drop it; lists it is in get the new version.
      const left = ticketAudience(previous).filter((room) => !now.includes(room));
      realtime.toRooms(left, companyId, 'ticket', { action: 'delete', ticketId: ticket.id } satisfies TicketEventPayload<Date>, now);
    }
    realtime.toRooms(now, companyId, 'ticket', { action: 'update', ticket } satisfies TicketEventPayload<Date>);
    // Who had the conversation open but may no longer see it hears nothing more of it.
    if (moved) await realtime.recheckTicketRoom(companyId, ticket.id);
  });
  events.on('ticket.deleted', async ({ companyId, ticketId, previous }) => {
    realtime.toRooms(ticketAudience(previous), companyId, 'ticket', { action: 'delete', ticketId } satisfies TicketEventPayload<Date>);
    // Sockets that had it open leave its room: nothing will be said there again.
    await realtime.recheckTicketRoom(companyId, ticketId);
  });
  events.on('ticket.read', ({ companyId, ticketId, placement }) =>
    realtime.toRooms(ticketAudience(placement), companyId, 'ticket', { action: 'updateUnread', ticketId } satisfies TicketEventPayload<Date>),
  );
};
