import type { EntityManager } from '@mikro-orm/postgresql';
import { rooms } from '@atrium/shared';
import { forCompany } from '../../db/tenant.js';
import type { RoomPolicy } from '../../realtime/server.js';
import type { Actor } from '../../context.js';
import { canViewTicket, loadViewer, type Viewer } from './ticket-access.js';
import { Ticket, TICKET_STATUSES } from './ticket.entity.js';

/**
 * Which ticket rooms a socket may join: admins the company's, agents their queues' pending lists (and
 * the queue-less one with allTicket; their own tickets reach them in their user room), and a ticket's
 * room only for who may see that ticket.
 */
const notificationRoomsOf = (viewer: Viewer): string[] => {
  const { companyId } = viewer.actor;
  if (viewer.isAdmin) return [rooms.notification(companyId)];
  const queues = viewer.queueIds.map((q) => rooms.queueNotification(companyId, q));
  return viewer.allTicket ? [...queues, rooms.queueNotification(companyId, null)] : queues;
};

const ticketRoomsOf = (viewer: Viewer, status: string): string[] => {
  const { companyId } = viewer.actor;
  if (!(TICKET_STATUSES as readonly string[]).includes(status)) return [];
  if (viewer.isAdmin) return [rooms.status(companyId, status)];
  if (status !== 'pending') return [];
  const queues = viewer.queueIds.map((q) => rooms.queueStatus(companyId, q, status));
  return viewer.allTicket ? [...queues, rooms.queueStatus(companyId, null, status)] : queues;
};

export const ticketRoomPolicy = (systemEm: () => EntityManager): RoomPolicy => {
  const viewerOf = (actor: Actor) => loadViewer(forCompany(systemEm(), actor.companyId), actor);
  return {
    notificationRooms: async (actor) => notificationRoomsOf(await viewerOf(actor)),
    ticketRooms: async (actor, status) => ticketRoomsOf(await viewerOf(actor), status),
    async ticketRoom(actor, ticketId) {
      const id = Number(ticketId);
      if (!Number.isInteger(id) || id <= 0) return null;
      const em = forCompany(systemEm(), actor.companyId);
      const ticket = await em.findOne(Ticket, id);
      if (!ticket) return null;
      return canViewTicket(await loadViewer(em, actor), ticket) ? rooms.ticket(actor.companyId, id) : null;
    },
    async roomsStillAllowed(actor, held) {
      // One read of the user's rights and one of the held conversations, however many rooms the socket holds.
      const em = forCompany(systemEm(), actor.companyId);
      const viewer = await loadViewer(em, actor);
      const allowed = new Set([...notificationRoomsOf(viewer), ...TICKET_STATUSES.flatMap((status) => ticketRoomsOf(viewer, status))]);
      const ticketIds = held.flatMap((room) => {
        const id = ticketIdOfRoom(actor.companyId, room);
        return id === null ? [] : [id];
      });
      if (ticketIds.length > 0) {
        for (const ticket of await em.find(Ticket, { id: { $in: ticketIds } })) {
          if (canViewTicket(viewer, ticket)) allowed.add(rooms.ticket(actor.companyId, ticket.id));
        }
      }
      return held.filter((room) => allowed.has(room));
    },
  };
};

/** The ticket id of a company's conversation room, or null for any other room. */
const ticketIdOfRoom = (companyId: number, room: string): number | null => {
  const prefix = rooms.ticket(companyId, '');
  const id = room.startsWith(prefix) ? Number(room.slice(prefix.length)) : NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
};
