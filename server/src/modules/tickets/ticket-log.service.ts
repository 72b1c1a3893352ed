import type { TicketLogListView, TicketLogView } from '@atrium/shared';
import type { ServiceContext } from '../../context.js';
import { Queue } from '../queues/queue.entity.js';
import { User } from '../users/user.entity.js';
import { findVisibleTicket } from './ticket-access.js';
import { TicketLog } from './ticket-log.entity.js';

/** A long-lived ticket keeps its newest lines; the conversation never shows more than this. */
const MAX_LINES = 500;

/**
 * GET /tickets/{id}/log: the ticket's activity trail for whoever may see the ticket, with the names of the
 * users and queues it mentions as they are now (a deleted one keeps its id and loses its name).
 */
export const listTicketLog = async (ctx: ServiceContext, id: number): Promise<TicketLogListView<Date>> => {
  const ticket = await findVisibleTicket(ctx, id);
  const rows = (await ctx.em.find(TicketLog, { ticketId: ticket.id }, { orderBy: { id: 'desc' }, limit: MAX_LINES })).reverse();
  const userIds = new Set<number>();
  const queueIds = new Set<number>();
  for (const row of rows) {
    if (row.actorKind === 'user' && row.actorId !== null) userIds.add(row.actorId);
    if (row.fromUserId !== null) userIds.add(row.fromUserId);
    if (row.toUserId !== null) userIds.add(row.toUserId);
    if (row.fromQueueId !== null) queueIds.add(row.fromQueueId);
    if (row.toQueueId !== null) queueIds.add(row.toQueueId);
  }
  const users = new Map(
    userIds.size ? (await ctx.em.find(User, { id: { $in: [...userIds] } }, { fields: ['id', 'name'] })).map((u) => [u.id, u.name]) : [],
  );
  const queues = new Map(
    queueIds.size ? (await ctx.em.find(Queue, { id: { $in: [...queueIds] } }, { fields: ['id', 'name'] })).map((q) => [q.id, q.name]) : [],
  );
  const named = (names: Map<number, string>, id: number | null) => (id === null ? null : { id, name: names.get(id) ?? null });
  return {
    logs: rows.map(
      (row): TicketLogView<Date> => ({
        id: row.id,
        ticketId: row.ticketId,
        action: row.action,
        actor: { kind: row.actorKind, id: row.actorId, name: row.actorKind === 'user' ? (users.get(row.actorId ?? 0) ?? null) : null },
        fromQueue: named(queues, row.fromQueueId),
        toQueue: named(queues, row.toQueueId),
        fromUser: named(users, row.fromUserId),
        toUser: named(users, row.toUserId),
        createdAt: row.createdAt,
      }),
    ),
  };
};
