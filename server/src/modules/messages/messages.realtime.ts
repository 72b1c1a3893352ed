import { type AppMessageEventPayload, type TicketEventPayload } from '@atrium/shared';
import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';
import { ticketAudience } from '../../realtime/ticket-rooms.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): messages created or updated, to whoever sees their ticket. */
export const registerMessagesRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('message.created', ({ companyId, message, ticket, contact }) => {
    realtime.toRooms(ticketAudience(ticket), companyId, 'appMessage', { action: 'create', message, ticket, contact } satisfies AppMessageEventPayload<Date>);
    // The lists re-sort by the ticket's new last message.
    realtime.toRooms(ticketAudience(ticket), companyId, 'ticket', { action: 'update', ticket } satisfies TicketEventPayload<Date>);
  });
  events.on('message.updated', ({ companyId, message, placement }) =>
    realtime.toRooms(ticketAudience(placement), companyId, 'appMessage', { action: 'update', message } satisfies AppMessageEventPayload<Date>),
  );
};
