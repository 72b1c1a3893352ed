import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor, ServiceContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { UserQueue } from '../queues/queue.entity.js';
import { User } from '../users/user.entity.js';
import { Ticket } from './ticket.entity.js';

/** Who is looking at tickets, with what the visibility rules need (spec 01 section 6, spec 03 section 1). */
export interface Viewer {
  actor: Actor;
  isAdmin: boolean;
  queueIds: number[];
  allTicket: boolean;
}

export const loadViewer = async (em: EntityManager, actor: Actor): Promise<Viewer> => {
  const user = await em.findOneOrFail(User, actor.userId);
  const links = await em.find(UserQueue, { userId: actor.userId });
  return {
    actor,
    isAdmin: actor.profile === 'admin' || actor.isSuper,
    queueIds: links.map((l) => l.queueId),
    allTicket: user.allTicket === 'enabled',
  };
};

/**
 * Admins see every ticket of their company; an agent sees the tickets assigned to them, those of their
 * queues, and queue-less ones only with allTicket enabled.
 */
export const canViewTicket = (viewer: Viewer, ticket: Pick<Ticket, 'userId' | 'queueId'>): boolean => {
  if (viewer.isAdmin) return true;
  if (ticket.userId === viewer.actor.userId) return true;
  if (ticket.queueId === null) return viewer.allTicket;
  return viewer.queueIds.includes(ticket.queueId);
};

/** The ticket if it exists in the caller's company (404 otherwise) and the caller may see it (403 otherwise). */
export const findVisibleTicket = async (ctx: ServiceContext, id: number, viewer?: Viewer): Promise<Ticket> => {
  const ticket = await ctx.em.findOne(Ticket, id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  if (!canViewTicket(viewer ?? (await loadViewer(ctx.em, ctx.actor)), ticket)) throw new AppError('ERR_NO_PERMISSION');
  return ticket;
};
