import { escapeLike } from '../../db/sql.js';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PAGE_SIZE, type CreateUserInput, type Language, type ListQuery, type UpdateUserInput } from '@atrium/shared';
import { emForCompany, isAdmin, pageOf, requireAdmin, type ServiceContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { forCompany, forSystem } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { hashNewPassword, revokeSessions } from '../auth/index.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { assertPlanAllows } from '../plans/index.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { byUser, idleHold, placementOf, presentTickets } from '../tickets/index.js';
import { placeTicket, type TransitionDeps } from '../transitions/index.js';
import { User } from './user.entity.js';
import { presentUser } from './user.presenter.js';
import { assertCompanyQueues, queueIdsOfUser, queuesOfUser, queuesOfUsers, setUserQueues } from './user-queues.js';


const findUser = async (em: EntityManager, id: number): Promise<User> => {
  const user = await em.findOne(User, id);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  return user;
};

/**
 * The user `id` and a manager bound to their company: the caller's own company, or, for a super user,
 * whichever company the user belongs to (the one cross-company door, as in emForCompany).
 */
const findTarget = async (ctx: ServiceContext, id: number): Promise<{ em: EntityManager; user: User }> => {
  if (!ctx.actor.isSuper) return { em: ctx.em, user: await findUser(ctx.em, id) };
  const found = await findUser(forSystem(ctx.em), id);
  const em = found.companyId === ctx.actor.companyId ? ctx.em : forCompany(ctx.em, found.companyId);
  return { em, user: await findUser(em, id) };
};

/** The email index is the users table's only unique one: a race the check below lost is still a 409 with its code. */
const emailRace = (err: unknown): never => {
  if (err instanceof UniqueConstraintViolationException) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
  throw err;
};

const sameIds = (a: number[], b: number[]) => {
  const left = [...new Set(a)].sort((x, y) => x - y);
  const right = [...new Set(b)].sort((x, y) => x - y);
  return left.length === right.length && left.every((id, i) => id === right[i]);
};

/** A user's default connection must be one of their company's (the manager is bound to it). */
const assertConnection = async (em: EntityManager, whatsappId: number | null | undefined) => {
  if (whatsappId === null || whatsappId === undefined) return;
  if (!(await em.findOne(Whatsapp, whatsappId, { fields: ['id'] }))) throw new AppError('ERR_NO_WAPP_FOUND');
};

/** Users as the API shows them, each with their queues. */
const presentUsers = async (em: EntityManager, users: User[]) => {
  const queues = await queuesOfUsers(em, users.map((u) => u.id));
  return users.map((u) => presentUser(u, { queues: queues.get(u.id) ?? [] }));
};

const presentOne = async (em: EntityManager, user: User) => presentUser(user, { queues: await queuesOfUser(em, user.id) });

const assertEmailFree = async (ctx: ServiceContext, email: string, exceptId?: number) => {
  // Emails are unique on the whole platform (login is by email): look across companies.
  const other = await forSystem(ctx.em).findOne(User, { email });
  if (other && other.id !== exceptId) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
};

export const listUsers = async (ctx: ServiceContext, query: ListQuery) => {
  const term = `%${escapeLike(query.searchParam)}%`;
  const where = query.searchParam ? { $or: [{ name: { $ilike: term } }, { email: { $ilike: term } }] } : {};
  const [users, count] = await ctx.em.findAndCount(User, where, {
    // id breaks ties, so that users with the same name never repeat or vanish across pages.
    orderBy: { name: 'asc', id: 'asc' },
    limit: PAGE_SIZE.users,
    offset: (query.pageNumber - 1) * PAGE_SIZE.users,
  });
  const page = pageOf(await presentUsers(ctx.em, users), count, query.pageNumber, PAGE_SIZE.users);
  return { users: page.rows, count: page.count, hasMore: page.hasMore };
};

/** Every user of a company (the caller's, or any for a super user). */
export const listAllUsers = async (ctx: ServiceContext, companyId = ctx.actor.companyId) => {
  const em = emForCompany(ctx, companyId);
  return presentUsers(em, await em.find(User, { companyId }, { orderBy: { name: 'asc', id: 'asc' } }));
};

export const getUser = async (ctx: ServiceContext, id: number) => {
  const { em, user } = await findTarget(ctx, id);
  return presentOne(em, user);
};

export const createUser = async (ctx: ServiceContext, input: CreateUserInput) => {
  requireAdmin(ctx.actor);
  const companyId = input.companyId ?? ctx.actor.companyId;
  const em = emForCompany(ctx, companyId);
  if (input.super && !ctx.actor.isSuper) throw new AppError('ERR_NO_SUPER');
  await assertEmailFree(ctx, input.email);
  // Queues and connection must be the new user's company's.
  const queueIds = await assertCompanyQueues(em, input.queueIds);
  await assertConnection(em, input.whatsappId);
  const passwordHash = await hashNewPassword(input.password);
  const user = await em.transactional(async (tx) => {
    // The company row is locked so that concurrent creations count one after another against the plan.
    const company = await tx.findOne(Company, companyId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
    await assertPlanAllows(tx, companyId, 'users', await tx.count(User, { companyId }));
    const created = tx.create(User, {
      name: input.name,
      email: input.email,
      passwordHash,
      profile: input.profile,
      super: input.super ?? false,
      companyId,
      allTicket: input.allTicket,
      whatsappId: input.whatsappId ?? null,
    });
    await tx.flush();
    await setUserQueues(tx, created, queueIds);
    return created;
  }).catch(emailRace);
  const shown = await presentOne(em, user);
  ctx.events.emit('user.saved', { companyId, action: 'create', user: shown });
  return shown;
};

export const updateUser = async (ctx: ServiceContext, id: number, input: UpdateUserInput) => {
  const { actor } = ctx;
  const admin = isAdmin(actor);
  if (!admin && id !== actor.userId) throw new AppError('ERR_NO_PERMISSION');
  const { em, user } = await findTarget(ctx, id);
  if (user.super && !actor.isSuper) throw new AppError('ERR_NO_SUPER');
  if (input.super !== undefined && input.super !== user.super && !actor.isSuper) throw new AppError('ERR_NO_SUPER');
  // An agent may edit their own name, email and password; what they may see is an admin's decision.
  // The user form sends every field, unchanged ones included, so only real changes are refused.
  const currentQueueIds = await queueIdsOfUser(em, user.id);
  const queuesChange = input.queueIds !== undefined && !sameIds(input.queueIds, currentQueueIds);
  const connectionChanges = input.whatsappId !== undefined && input.whatsappId !== user.whatsappId;
  if (!admin) {
    const changes =
      (input.profile !== undefined && input.profile !== user.profile) ||
      (input.allTicket !== undefined && input.allTicket !== user.allTicket) ||
      connectionChanges ||
      queuesChange;
    if (changes) throw new AppError('ERR_NO_PERMISSION');
  }
  if (input.email && input.email !== user.email) await assertEmailFree(ctx, input.email, id);
  // Checked in the target user's company, so another company's queue or connection is unknown here.
  const queueIds = queuesChange ? await assertCompanyQueues(em, input.queueIds!) : null;
  if (connectionChanges) await assertConnection(em, input.whatsappId);
  const { password, queueIds: _queueIds, ...fields } = input;
  em.assign(user, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
  if (password) user.passwordHash = await hashNewPassword(password);
  await em
    .transactional(async (tx) => {
      await tx.flush();
      if (queueIds) await setUserQueues(tx, user, queueIds);
    })
    .catch(emailRace);
  // A new password ends every other session of that user.
  if (password) await revokeSessions(em, user.id, user.id === actor.userId ? actor.sessionId : undefined);
  const shown = await presentOne(em, user);
  ctx.events.emit('user.saved', { companyId: user.companyId, action: 'update', user: shown });
  return shown;
};

export const deleteUser = async (ctx: ServiceContext, deps: TransitionDeps, id: number) => {
  requireAdmin(ctx.actor);
  if (id === ctx.actor.userId) throw new AppError('ERR_CANNOT_DELETE_SELF');
  const { em, user } = await findTarget(ctx, id);
  if (user.super && !ctx.actor.isSuper) throw new AppError('ERR_NO_SUPER');
  // Their conversations in progress go back to the waiting line, for someone else to accept (a Return:
  // the attendance cycle waits again from now).
  const returned = await em.find(Ticket, { userId: id, status: { $in: ['open', 'pending'] } });
  const previous = new Map(returned.map((t) => [t.id, placementOf(t)]));
  await em.transactional(async (tx) => {
    for (const ticket of returned) {
      await placeTicket(deps, tx, ticket, byUser(ctx.actor.userId), {
        status: 'pending',
        userId: null,
        queueId: ticket.queueId,
        whatsappId: ticket.whatsappId,
      });
      await idleHold(tx, ticket, 'chatbot');
    }
    tx.remove(user);
    await tx.flush();
  });
  ctx.events.emit('user.deleted', { companyId: user.companyId, userId: id });
  for (const ticket of await presentTickets(em.fork(), returned.map((t) => t.id))) {
    ctx.events.emit('ticket.changed', { companyId: ticket.companyId, ticket, previous: previous.get(ticket.id), actor: byUser(ctx.actor.userId) });
  }
};

export const setLanguage = async (ctx: ServiceContext, language: Language) => {
  const user = await findUser(ctx.em, ctx.actor.userId);
  user.language = language;
  await ctx.em.flush();
  return presentOne(ctx.em, user);
};
