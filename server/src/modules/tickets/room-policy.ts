import type { EntityManager } from '@mikro-orm/postgresql';
import { rooms } from '@atrium/shared';
import { forCompany } from '../../db/tenant.js';
import type { RoomPolicy } from '../../realtime/server.js';
import { canViewTicket, loadViewer } from './ticket-access.js';
import { Ticket, TICKET_STATUSES } from './ticket.entity.js';

/**
 * Which ticket rooms a socket may join: admins the company's, agents their queues' pending lists (and
 * the queue-less one with allTicket; their own tickets reach them in their user room), and a ticket's
 * room only for who may see that ticket.
 */
export const ticketRoomPolicy = (systemEm: () => EntityManager): RoomPolicy => ({
  async notificationRooms(actor) {
    const viewer = await loadViewer(forCompany(systemEm(), actor.companyId), actor);
    if (viewer.isAdmin) return [rooms.notification(actor.companyId)];
    const queues = viewer.queueIds.map((q) => rooms.queueNotification(actor.companyId, q));
    return viewer.allTicket ? [...queues, rooms.queueNotification(actor.companyId, null)] : queues;
  },
  async ticketRooms(actor, status) {
    if (!(TICKET_STATUSES as readonly string[]).includes(status)) return [];
    const viewer = await loadViewer(forCompany(systemEm(), actor.companyId), actor);
    if (viewer.isAdmin) return [rooms.status(actor.companyId, status)];
    if (status !== 'pending') return [];
    const queues = viewer.queueIds.map((q) => rooms.queueStatus(actor.companyId, q, status));
    return viewer.allTicket ? [...queues, rooms.queueStatus(actor.companyId, null, status)] : queues;
  },
  async ticketRoom(actor, ticketId) {
    const id = Number(ticketId);
    if (!Number.isInteger(id) || id <= 0) return null;
    const em = forCompany(systemEm(), actor.companyId);
    const ticket = await em.findOne(Ticket, id);
    if (!ticket) return null;
    return canViewTicket(await loadViewer(em, actor), ticket) ? rooms.ticket(actor.companyId, id) : null;
  },
});
