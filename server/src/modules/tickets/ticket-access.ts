import type { EntityManager } from '@mikro-orm/postgresql';
import { isAdmin, type Actor, type ServiceContext } from '../../context.js';
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
    isAdmin: isAdmin(actor),
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

/**
 * Whether the viewer may act on the conversation (reply, accept, return, transfer, close, delete or resend a
 * message). An open ticket is its agent's: a colleague of its queue may read it (to help, to pick it up
 * later) but not answer the customer over the agent's head or move the ticket away; an admin may. Waiting
 * and closed tickets are anyone's who may see them (accepting or reopening makes them the caller's).
 */
export const canActOnTicket = (viewer: Viewer, ticket: Pick<Ticket, 'userId' | 'queueId' | 'status'>): boolean =>
  canViewTicket(viewer, ticket) &&
  (viewer.isAdmin || ticket.status !== 'open' || ticket.userId === null || ticket.userId === viewer.actor.userId);

/** The ticket if it exists in the caller's company (404 otherwise) and the caller may see it (403 otherwise). */
export const findVisibleTicket = async (ctx: ServiceContext, id: number, viewer?: Viewer): Promise<Ticket> => {
  const ticket = await ctx.em.findOne(Ticket, id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  if (!canViewTicket(viewer ?? (await loadViewer(ctx.em, ctx.actor)), ticket)) throw new AppError('ERR_NO_PERMISSION');
  return ticket;
};

/**
 * The ticket the caller is about to act on: visible (as findVisibleTicket) and theirs to act on, else 403
 * ERR_TICKET_OTHER_AGENT (another agent handles it).
 */
export const findActionableTicket = async (ctx: ServiceContext, id: number, viewer?: Viewer): Promise<Ticket> => {
  const who = viewer ?? (await loadViewer(ctx.em, ctx.actor));
  const ticket = await findVisibleTicket(ctx, id, who);
  if (!canActOnTicket(who, ticket)) throw new AppError('ERR_TICKET_OTHER_AGENT');
  return ticket;
};
