import { escapeLike, intArray } from '../../db/sql.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  PAGE_SIZE,
  type CreateTicketInput,
  type ListTicketsQuery,
  type UpdateTicketInput,
} from '@atrium/shared';
import { requireAdmin, type ServiceContext } from '../../context.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import { Company } from '../companies/company.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import type { MediaStore } from '../../media/storage.js';
import { Contact } from '../contacts/contact.entity.js';
import { Message } from '../messages/message.entity.js';
import { Queue } from '../queues/queue.entity.js';
import { User } from '../users/user.entity.js';
import { findActionableTicket, findVisibleTicket, loadViewer, type Viewer } from './ticket-access.js';
import { agentVisibleClause, defaultListClause, queueFilterClause, type TicketClause } from './ticket-visibility.js';
import { Ticket, type TicketStatus } from './ticket.entity.js';
import { placementOf, presentTicket, presentTickets } from './ticket.presenter.js';
import { findActiveTicket } from './ticket-lookup.js';
import { applyHoldInput } from './holds.js';
import { closeTicket, placeTicket, startTicket, type TransitionDeps } from '../transitions/index.js';
import { byUser } from './actor.js';



const otherOpenTicket = async (em: EntityManager, ticket: Ticket) => {
  const user = ticket.userId ? await em.findOne(User, ticket.userId) : null;
  const queue = ticket.queueId ? await em.findOne(Queue, ticket.queueId) : null;
  return new AppError('ERR_OTHER_OPEN_TICKET', {
    ticketId: ticket.id,
    ticket: {
      id: ticket.id,
      uuid: ticket.uuid,
      status: ticket.status,
      userId: ticket.userId,
      user: user ? { id: user.id, name: user.name } : null,
      queue: queue ? { id: queue.id, name: queue.name } : null,
    },
  });
};

// ---------------------------------------------------------------- listing

const dayRange = (day: string) => [day, day] as const;

/**
 * GET /tickets: 40 per page by last activity. Visibility never widens with a filter: search and dates
 * narrow what the caller may see (spec 03 section 1 and its notes).
 */
export const listTickets = async (ctx: ServiceContext, query: ListTicketsQuery) => {
  const viewer = await loadViewer(ctx.em, ctx.actor);
  const companyId = requireTenant(ctx.em);
  // The company's time zone, only when a day is asked for.
  const timezone = async () => (await ctx.em.findOneOrFail(Company, companyId, { fields: ['timezone'] })).timezone;
  const where: string[] = ['t.company_id = ?'];
  const params: unknown[] = [companyId];
  const me = ctx.actor.userId;

  const add = (clause: TicketClause | null) => {
    if (!clause) return;
    where.push(clause.sql);
    params.push(...clause.params);
  };

  if (query.withUnreadMessages) {
    where.push(`(t.user_id = ? or t.status = 'pending')`, 't.unread_messages > 0');
    params.push(me);
    if (!viewer.isAdmin) add(agentVisibleClause(viewer));
  } else if (query.searchParam) {
    // A search drops the "mine or pending" clause but keeps what the caller may see; its match is added below.
    if (!viewer.isAdmin) add(agentVisibleClause(viewer));
  } else {
    add(defaultListClause(viewer, query.showAll));
  }
  add(queueFilterClause(viewer, query.queueIds));
  if (query.status) {
    where.push('t.status = ?');
    params.push(query.status);
  }
  if (query.users && query.users.length > 0) {
    where.push('t.user_id = any(?::int[])');
    params.push(intArray(query.users));
  }
  if (query.tags && query.tags.length > 0) {
    where.push(
      't.id in (select tt.ticket_id from ticket_tags tt where tt.tag_id = any(?::int[]) group by tt.ticket_id having count(distinct tt.tag_id) = ?)',
    );
    params.push(intArray(query.tags), new Set(query.tags).size);
  }
  if (query.date) {
    const [from] = dayRange(query.date);
    where.push(`(t.created_at at time zone ?)::date = ?::date`);
    params.push(await timezone(), from);
  }
  if (query.updatedAt) {
    where.push(`(t.updated_at at time zone ?)::date = ?::date`);
    params.push(await timezone(), query.updatedAt);
  }

  const size = PAGE_SIZE.tickets;
  const offset = (query.pageNumber - 1) * size;
  const sqlWhere = where.join(' and ');
  let rows: { id: number }[];
  let count: number | undefined;
  if (query.searchParam) {
    // Two branches, each ordered and limited on its own, so each gets its best plan (trigram index for a
    // rare term, the newest tickets first for a common one); the union is cut to the page. No total count:
    // a common word would mean reading every match.
    const pattern = `%${escapeLike(query.searchParam)}%`;
    const window = offset + size + 1;
    rows = await ctx.em.execute<{ id: number }[]>(
      `select id from (
         (select t.id, t.updated_at from tickets t where ${sqlWhere}
            and t.contact_id in (select c.id from contacts c where c.company_id = ? and (c.name ilike ? or c.number ilike ?))
            order by t.updated_at desc, t.id desc limit ?)
         union
         (select t.id, t.updated_at from tickets t where ${sqlWhere}
            and exists (select 1 from messages m where m.ticket_id = t.id and m.body ilike ?)
            order by t.updated_at desc, t.id desc limit ?)
       ) x order by updated_at desc, id desc limit ? offset ?`,
      [...params, companyId, pattern, pattern, window, ...params, pattern, window, size + 1, offset],
    );
  } else {
    const [page, counted] = await Promise.all([
      ctx.em.execute<{ id: number }[]>(
        `select t.id from tickets t where ${sqlWhere} order by t.updated_at desc, t.id desc limit ? offset ?`,
        [...params, size + 1, offset],
      ),
      ctx.em.execute<{ count: number }[]>(`select count(*)::int as count from tickets t where ${sqlWhere}`, params),
    ]);
    rows = page;
    count = Number(counted[0]?.count ?? 0);
  }
  const hasMore = rows.length > size;
  rows = rows.slice(0, size);
  const ids = rows.map((r) => r.id);
  return { tickets: await presentTickets(ctx.em, ids), ...(count !== undefined ? { count } : {}), hasMore };
};

// ---------------------------------------------------------------- reads

export const getTicket = async (ctx: ServiceContext, id: number) => presentTicket(ctx.em, await findVisibleTicket(ctx, id));

export const getTicketByUuid = async (ctx: ServiceContext, uuid: string) => {
  const ticket = /^[0-9a-f-]{36}$/i.test(uuid) ? await ctx.em.findOne(Ticket, { uuid }) : null;
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  return presentTicket(ctx.em, await findVisibleTicket(ctx, ticket.id));
};

// ---------------------------------------------------------------- create

/** The connection for a new ticket: the one asked for, else the user's, else the company's default. */
const connectionFor = async (em: EntityManager, requested: number | null | undefined, userId: number) => {
  if (requested) {
    const connection = await em.findOne(Whatsapp, requested);
    if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
    return connection;
  }
  const user = await em.findOneOrFail(User, userId);
  const own = user.whatsappId ? await em.findOne(Whatsapp, user.whatsappId) : null;
  const connection = own ?? (await em.findOne(Whatsapp, { isDefault: true }));
  if (!connection) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
  return connection;
};

const assertQueueUsable = async (em: EntityManager, viewer: Viewer, queueId: number | null | undefined) => {
  if (!queueId) return null;
  const queue = await em.findOne(Queue, queueId);
  if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND');
  if (!viewer.isAdmin && !viewer.queueIds.includes(queueId)) throw new AppError('ERR_NO_PERMISSION');
  return queue;
};

/** POST /tickets: an agent starts a conversation; it is created open and assigned. */
export const createTicket = async (ctx: ServiceContext, input: CreateTicketInput) => {
  const viewer = await loadViewer(ctx.em, ctx.actor);
  if (!viewer.isAdmin && !input.queueId) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'queueId', message: 'required' }] });
  }
  const contact = await ctx.em.findOne(Contact, input.contactId);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  await assertQueueUsable(ctx.em, viewer, input.queueId);
  const userId = input.userId ?? ctx.actor.userId;
  if (userId !== ctx.actor.userId && !(await ctx.em.findOne(User, userId))) throw new AppError('ERR_NO_USER_FOUND');
  const connection = await connectionFor(ctx.em, input.whatsappId, ctx.actor.userId);
  const active = await findActiveTicket(ctx.em, contact.id, connection.id);
  if (active) throw await otherOpenTicket(ctx.em, active);
  const status: TicketStatus = input.status === 'pending' ? 'pending' : 'open';
  let ticket: Ticket;
  try {
    ticket = await startTicket(ctx.em, byUser(ctx.actor.userId), {
      contactId: contact.id,
      whatsappId: connection.id,
      isGroup: contact.isGroup,
      queueId: input.queueId ?? null,
      userId: status === 'open' ? userId : null,
    });
  } catch (err) {
    // Another request opened one in the meantime.
    if ((err as { code?: string }).code === '23505') {
      const raced = await findActiveTicket(ctx.em.fork(), contact.id, connection.id);
      if (raced) throw await otherOpenTicket(ctx.em, raced);
    }
    throw err;
  }
  const presented = await presentTicket(ctx.em, ticket);
  ctx.events.emit('ticket.changed', { companyId: ticket.companyId, ticket: presented });
  return presented;
};

// ---------------------------------------------------------------- update (transitions)

export type { TransitionDeps };

/**
 * PUT /tickets/{id}: reads what the agent asked for (accept, return, close, reopen, transfer; spec 01
 * section 4, spec 03 section 3) and hands it to the transitions. Always marks the ticket read.
 */
export const updateTicket = async (ctx: ServiceContext, deps: TransitionDeps, id: number, input: UpdateTicketInput) => {
  const em = ctx.em;
  const viewer = await loadViewer(em, ctx.actor);
  const ticket = await findActionableTicket(ctx, id, viewer);
  const previous = placementOf(ticket);
  const wasClosed = ticket.status === 'closed';
  const actor = byUser(ctx.actor.userId);

  // Targets, validated in this company.
  const targetWhatsappId = input.whatsappId !== undefined && input.whatsappId !== null ? input.whatsappId : ticket.whatsappId;
  if (input.whatsappId && !(await em.findOne(Whatsapp, input.whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND');
  const queueChanged = input.queueId !== undefined && input.queueId !== ticket.queueId;
  if (queueChanged && input.queueId && !(await em.findOne(Queue, input.queueId))) throw new AppError('ERR_NO_QUEUE_FOUND');

  // Outside 'closed', a ticket is open exactly when someone is on it (spec 01 section 4).
  let status: TicketStatus = input.status ?? ticket.status;
  let nextUser = input.userId !== undefined ? input.userId : ticket.userId;
  if (status !== 'closed') {
    if (input.status === 'pending' && input.userId === undefined) nextUser = null; // return
    if (status === 'open' && nextUser === null) {
      if (input.status === 'open') nextUser = ctx.actor.userId; // accept without naming a user: the caller
      else status = 'pending'; // transfer to a queue alone: back to the waiting line
    }
    if (status === 'pending' && nextUser !== null && !(wasClosed && input.status === 'pending')) status = 'open';
  }
  if (nextUser !== ticket.userId && nextUser && !(await em.findOne(User, nextUser))) throw new AppError('ERR_NO_USER_FOUND');

  const reopening = wasClosed && status !== 'closed';
  if (reopening || targetWhatsappId !== ticket.whatsappId) {
    const active = await findActiveTicket(em, ticket.contactId, targetWhatsappId);
    if (active && active.id !== ticket.id) throw await otherOpenTicket(em, active);
  }

  if (status === 'closed') {
    if (!wasClosed) await closeTicket(deps, em, ticket, actor, { userId: nextUser });
  } else {
    await placeTicket(deps, em, ticket, actor, {
      status,
      // Reopening assigns it to whoever reopens it (or the user named), or leaves it waiting.
      userId: reopening ? (status === 'open' ? (input.userId ?? ctx.actor.userId) : null) : nextUser,
      queueId: queueChanged ? (input.queueId ?? null) : ticket.queueId,
      whatsappId: targetWhatsappId,
    });
  }

  await applyHoldInput(em, ticket, actor, input);
  ticket.unreadMessages = 0;
  ticket.updatedAt = new Date();
  await em.flush();
  const presented = await presentTicket(em, ticket);
  ctx.events.emit('ticket.changed', { companyId: ticket.companyId, ticket: presented, previous, actor });
  return presented;
};

// ---------------------------------------------------------------- delete

/** DELETE /tickets/{id} (admins): the database removes its messages and notes; their media files go too. */
export const deleteTicket = async (ctx: ServiceContext, deps: { media: MediaStore }, id: number) => {
  requireAdmin(ctx.actor);
  const ticket = await ctx.em.findOne(Ticket, id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  const previous = placementOf(ticket);
  const media = await ctx.em.find(Message, { ticketId: id, mediaUrl: { $ne: null } }, { fields: ['id', 'mediaUrl'] });
  await ctx.em.remove(ticket).flush();
  ctx.events.emit('ticket.deleted', { companyId: ticket.companyId, ticketId: id, previous });
  await Promise.all(media.map((m) => deps.media.remove(ticket.companyId, m.mediaUrl!).catch(() => undefined)));
};


