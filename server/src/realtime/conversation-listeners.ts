import { rooms, type AppMessageEventPayload, type TicketEventPayload } from '@atrium/shared';
import type { EventBus } from '../events/bus.js';
import { ticketAudience } from './ticket-rooms.js';
import type { Realtime } from './server.js';

/** Tickets, messages, contacts and connections on the wire (spec 01 section 7, spec 03 sections 3, 7, 14). */
export const registerConversationListeners = (events: EventBus, realtime: Realtime): void => {
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
  events.on('message.created', ({ companyId, message, ticket, contact }) => {
    realtime.toRooms(ticketAudience(ticket), companyId, 'appMessage', { action: 'create', message, ticket, contact } satisfies AppMessageEventPayload<Date>);
    // The lists re-sort by the ticket's new last message.
    realtime.toRooms(ticketAudience(ticket), companyId, 'ticket', { action: 'update', ticket } satisfies TicketEventPayload<Date>);
  });
  events.on('message.updated', ({ companyId, message, placement }) =>
    realtime.toRooms(ticketAudience(placement), companyId, 'appMessage', { action: 'update', message } satisfies AppMessageEventPayload<Date>),
  );
  events.on('contact.changed', ({ companyId, action, contact }) => realtime.toCompany(companyId, 'contact', { action, contact }));
  events.on('contact.deleted', ({ companyId, contactId }) => realtime.toCompany(companyId, 'contact', { action: 'delete', contactId }));
  // A connection's QR code only to admins: scanning it links a phone to the company's connection.
  const withoutQr = <T extends { qrcode: string }>(view: T): T => ({ ...view, qrcode: '' });
  const toAdminsWithQr = (companyId: number, resource: 'whatsapp' | 'whatsappSession', payload: (qr: boolean) => object) => {
    const admins = rooms.admins(companyId);
    realtime.toRooms([admins], companyId, resource, payload(true));
    realtime.toRooms([rooms.company(companyId)], companyId, resource, payload(false), [admins]);
  };
  events.on('connection.changed', ({ companyId, action, whatsapp }) =>
    toAdminsWithQr(companyId, 'whatsapp', (qr) => ({ action, whatsapp: qr ? whatsapp : withoutQr(whatsapp) })),
  );
  events.on('connection.deleted', ({ companyId, whatsappId }) =>
    realtime.toCompany(companyId, 'whatsapp', { action: 'delete', whatsappId }),
  );
  events.on('connection.session', ({ companyId, session }) =>
    toAdminsWithQr(companyId, 'whatsappSession', (qr) => ({ action: 'update', session: qr ? session : withoutQr(session) })),
  );
  // A shared (geral, active) quick message goes to the company; a private one only to its owner's sockets.
  events.on('quickmessage.changed', ({ companyId, action, record, wasShared }) => {
    if (record.geral && record.status) return realtime.toCompany(companyId, 'quickmessage', { action, record });
    if (wasShared) realtime.toCompany(companyId, 'quickmessage', { action: 'delete', id: record.id });
    if (record.userId) realtime.toUser(record.userId, companyId, 'quickmessage', { action, record });
  });
  events.on('quickmessage.deleted', ({ companyId, id, userId, wasShared }) => {
    if (wasShared) realtime.toCompany(companyId, 'quickmessage', { action: 'delete', id });
    else if (userId) realtime.toUser(userId, companyId, 'quickmessage', { action: 'delete', id });
  });
  events.on('queue.changed', ({ companyId, action, queue }) => realtime.toCompany(companyId, 'queue', { action, queue }));
  events.on('queue.deleted', ({ companyId, queueId }) => realtime.toCompany(companyId, 'queue', { action: 'delete', queueId }));
};
