import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PAGE_SIZE, type CreateUserInput, type Language, type ListQuery, type UpdateUserInput } from '@atrium/shared';
import { emForCompany, pageOf, requireAdmin, type ServiceContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { forCompany, forSystem } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { hashPassword } from '../auth/passwords.js';
import { revokeSessions } from '../auth/auth.service.js';
import { assertPlanAllows } from '../plans/plans.service.js';
import { User } from './user.entity.js';
import { presentUser } from './user.presenter.js';

const escapeLike = (text: string) => text.replace(/[%_\\]/g, '\\$&');

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

const sameIds = (a: number[], b: number[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

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
  const page = pageOf(users.map((u) => presentUser(u)), count, query.pageNumber, PAGE_SIZE.users);
  return { users: page.rows, count: page.count, hasMore: page.hasMore };
};

/** Every user of a company (the caller's, or any for a super user). */
export const listAllUsers = async (ctx: ServiceContext, companyId = ctx.actor.companyId) =>
  (await emForCompany(ctx, companyId).find(User, { companyId }, { orderBy: { name: 'asc', id: 'asc' } })).map((u) =>
    presentUser(u),
  );

export const getUser = async (ctx: ServiceContext, id: number) => presentUser((await findTarget(ctx, id)).user);

export const createUser = async (ctx: ServiceContext, input: CreateUserInput) => {
  requireAdmin(ctx.actor);
  const companyId = input.companyId ?? ctx.actor.companyId;
  const em = emForCompany(ctx, companyId);
  if (input.super && !ctx.actor.isSuper) throw new AppError('ERR_NO_SUPER');
  await assertEmailFree(ctx, input.email);
  const passwordHash = await hashPassword(input.password);
  const user = await em.transactional(async (tx) => {
    // The company row is locked so that concurrent creations count one after another against the plan.
    const company = await tx.findOne(Company, companyId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
    await assertPlanAllows(tx, companyId, 'users', await tx.count(User, { companyId }));
    return tx.create(User, {
      name: input.name,
      email: input.email,
      passwordHash,
      profile: input.profile,
      super: input.super ?? false,
      companyId,
      allTicket: input.allTicket,
      whatsappId: input.whatsappId ?? null,
    });
  }).catch(emailRace);
  const shown = presentUser(user);
  ctx.events.emit('user.saved', { companyId, action: 'create', user: shown });
  return shown;
};

export const updateUser = async (ctx: ServiceContext, id: number, input: UpdateUserInput) => {
  const { actor } = ctx;
  const isAdmin = actor.profile === 'admin' || actor.isSuper;
  if (!isAdmin && id !== actor.userId) throw new AppError('ERR_NO_PERMISSION');
  const { em, user } = await findTarget(ctx, id);
  if (user.super && !actor.isSuper) throw new AppError('ERR_NO_SUPER');
  if (input.super !== undefined && input.super !== user.super && !actor.isSuper) throw new AppError('ERR_NO_SUPER');
  // An agent may edit their own name, email and password; what they may see is an admin's decision.
  // The user form sends every field, unchanged ones included, so only real changes are refused.
  if (!isAdmin) {
    // Users have no queues until the queues module links them; then this is the user's current set.
    const currentQueueIds: number[] = [];
    const changes =
      (input.profile !== undefined && input.profile !== user.profile) ||
      (input.allTicket !== undefined && input.allTicket !== user.allTicket) ||
      (input.whatsappId !== undefined && input.whatsappId !== user.whatsappId) ||
      (input.queueIds !== undefined && !sameIds(input.queueIds, currentQueueIds));
    if (changes) throw new AppError('ERR_NO_PERMISSION');
  }
  if (input.email && input.email !== user.email) await assertEmailFree(ctx, input.email, id);
  const { password, queueIds: _queueIds, ...fields } = input;
  em.assign(user, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
  if (password) user.passwordHash = await hashPassword(password);
  await em.flush().catch(emailRace);
  // A new password ends every other session of that user.
  if (password) await revokeSessions(em, user.id, user.id === actor.userId ? actor.sessionId : undefined);
  const shown = presentUser(user);
  ctx.events.emit('user.saved', { companyId: user.companyId, action: 'update', user: shown });
  return shown;
};

export const deleteUser = async (ctx: ServiceContext, id: number) => {
  requireAdmin(ctx.actor);
  if (id === ctx.actor.userId) throw new AppError('ERR_CANNOT_DELETE_SELF');
  const { em, user } = await findTarget(ctx, id);
  if (user.super && !ctx.actor.isSuper) throw new AppError('ERR_NO_SUPER');
  await em.remove(user).flush();
  ctx.events.emit('user.deleted', { companyId: user.companyId, userId: id });
};

export const setLanguage = async (ctx: ServiceContext, language: Language) => {
  const user = await findUser(ctx.em, ctx.actor.userId);
  user.language = language;
  await ctx.em.flush();
  return presentUser(user);
};
