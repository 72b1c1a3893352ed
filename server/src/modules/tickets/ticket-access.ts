import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor, ServiceContext } from '../../context.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import { Ticket } from './ticket.entity.js';

/** Who is looking at tickets, with what the visibility rules need (spec 01 section 6, spec 03 section 1). */
export interface Viewer {
  actor: Actor;
  isAdmin: boolean;
  queueIds: number[];
  allTicket: boolean;
}

export const loadViewer = async (em: EntityManager, actor: Actor): Promise<Viewer> => {
  // One statement, no entities: every ticket list and ticket read starts here.
  const [row] = await em.execute<{ all_ticket: string; queue_ids: number[] }[]>(
    `select u.all_ticket, array(select uq.queue_id from user_queues uq where uq.user_id = u.id order by uq.queue_id) as queue_ids
       from users u where u.id = ? and u.company_id = ?`,
    [actor.userId, requireTenant(em)],
  );
  if (!row) throw new AppError('ERR_NO_USER_FOUND');
  return {
    actor,
    isAdmin: actor.profile === 'admin' || actor.isSuper,
    queueIds: row.queue_ids.map(Number),
    allTicket: row.all_ticket === 'enabled',
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
