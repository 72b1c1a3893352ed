import { rooms } from '@atrium/shared';
import type { TicketPlacement } from '../events/bus.js';

/**
 * Who hears about a ticket: admins of its status list and of notifications, agents of its queue (or
 * of queue-less tickets), its assignee, and whoever has it open. Every room carries the company.
 */
export const ticketAudience = (t: TicketPlacement): string[] => {
  const c = t.companyId;
  const audience = [
    rooms.status(c, t.status),
    rooms.notification(c),
    rooms.queueStatus(c, t.queueId, t.status),
    rooms.queueNotification(c, t.queueId),
    rooms.ticket(c, t.id),
  ];
  if (t.userId) audience.push(rooms.user(t.userId));
  return audience;
};
