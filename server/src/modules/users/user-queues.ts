import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.js';
import { Queue, UserQueue } from '../queues/queue.entity.js';
import type { QueueSummary } from './user.presenter.js';

/** Each user's queues as the API shows them ({id, name, color}), in menu order, in two queries. */
export const queuesOfUsers = async (em: EntityManager, userIds: number[]): Promise<Map<number, QueueSummary[]>> => {
  const byUser = new Map<number, QueueSummary[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const links = await em.find(UserQueue, { userId: { $in: userIds } });
  if (links.length === 0) return byUser;
  const queues = await em.find(
    Queue,
    { id: { $in: [...new Set(links.map((l) => l.queueId))] } },
    { orderBy: { orderQueue: 'asc nulls last', name: 'asc', id: 'asc' } },
  );
  for (const queue of queues) {
    for (const link of links) {
      if (link.queueId === queue.id) byUser.get(link.userId)?.push({ id: queue.id, name: queue.name, color: queue.color });
    }
  }
  return byUser;
};

export const queuesOfUser = async (em: EntityManager, userId: number): Promise<QueueSummary[]> =>
  (await queuesOfUsers(em, [userId])).get(userId) ?? [];

export const queueIdsOfUser = async (em: EntityManager, userId: number): Promise<number[]> =>
  (await em.find(UserQueue, { userId })).map((l) => l.queueId);

/** The ids, without repeats, each a queue of the manager's company; ERR_NO_QUEUE_FOUND otherwise. */
export const assertCompanyQueues = async (em: EntityManager, queueIds: number[]): Promise<number[]> => {
  const unique = [...new Set(queueIds)];
  if (unique.length === 0) return unique;
  const found = await em.count(Queue, { id: { $in: unique } });
  if (found !== unique.length) throw new AppError('ERR_NO_QUEUE_FOUND');
  return unique;
};

/**
 * Replaces the user's queues with `queueIds` (already checked), by difference and in SQL: a link deleted in
 * SQL and created again through the unit of work would still be in the identity map and never be inserted.
 */
export const setUserQueues = async (em: EntityManager, user: { id: number; companyId: number }, queueIds: number[]) => {
  const current = await queueIdsOfUser(em, user.id);
  const removed = current.filter((id) => !queueIds.includes(id));
  const added = queueIds.filter((id) => !current.includes(id));
  if (removed.length > 0) await em.nativeDelete(UserQueue, { userId: user.id, queueId: { $in: removed } });
  if (added.length > 0) {
    await em.insertMany(
      UserQueue,
      added.map((queueId) => ({ userId: user.id, queueId, companyId: user.companyId })),
    );
  }
};
