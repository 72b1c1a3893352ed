import type { EntityManager } from '@mikro-orm/postgresql';
import { PAGE_SIZE, type CreateUserInput, type Language, type ListQuery, type UpdateUserInput } from '@atrium/shared';
import { emForCompany, pageOf, requireAdmin, type ServiceContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { forSystem } from '../../db/tenant.js';
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

const assertEmailFree = async (ctx: ServiceContext, email: string, exceptId?: number) => {
  // Emails are unique on the whole platform (login is by email): look across companies.
  const other = await forSystem(ctx.em).findOne(User, { email });
  if (other && other.id !== exceptId) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
};

export const listUsers = async (ctx: ServiceContext, query: ListQuery) => {
  const term = `%${escapeLike(query.searchParam)}%`;
  const where = query.searchParam ? { $or: [{ name: { $ilike: term } }, { email: { $ilike: term } }] } : {};
  const [users, count] = await ctx.em.findAndCount(User, where, {
    orderBy: { name: 'asc' },
    limit: PAGE_SIZE.users,
    offset: (query.pageNumber - 1) * PAGE_SIZE.users,
  });
  const page = pageOf(users.map((u) => presentUser(u)), count, query.pageNumber, PAGE_SIZE.users);
  return { users: page.rows, count: page.count, hasMore: page.hasMore };
};

/** Every user of a company (the caller's, or any for a super user). */
export const listAllUsers = async (ctx: ServiceContext, companyId = ctx.actor.companyId) =>
  (await emForCompany(ctx, companyId).find(User, { companyId }, { orderBy: { name: 'asc' } })).map((u) =>
    presentUser(u),
  );

export const getUser = async (ctx: ServiceContext, id: number) => presentUser(await findUser(ctx.em, id));

export const createUser = async (ctx: ServiceContext, input: CreateUserInput) => {
  requireAdmin(ctx.actor);
  const companyId = input.companyId ?? ctx.actor.companyId;
  const em = emForCompany(ctx, companyId);
  if (input.super && !ctx.actor.isSuper) throw new AppError('ERR_NO_SUPER');
  await assertEmailFree(ctx, input.email);
  await assertPlanAllows(em, companyId, 'users', await em.count(User, { companyId }));
  const user = em.create(User, {
    name: input.name,
    email: input.email,
    passwordHash: await hashPassword(input.password),
    profile: input.profile,
    super: input.super ?? false,
    companyId,
    allTicket: input.allTicket,
    whatsappId: input.whatsappId ?? null,
  });
  await em.flush();
  const shown = presentUser(user);
  ctx.events.emit('user.saved', { companyId, action: 'create', user: shown });
  return shown;
};

export const updateUser = async (ctx: ServiceContext, id: number, input: UpdateUserInput) => {
  const { actor } = ctx;
  const isAdmin = actor.profile === 'admin' || actor.isSuper;
  if (!isAdmin && id !== actor.userId) throw new AppError('ERR_NO_PERMISSION');
  const user = await findUser(ctx.em, id);
  if (user.super && !actor.isSuper) throw new AppError('ERR_NO_SUPER');
  if (input.super !== undefined && input.super !== user.super && !actor.isSuper) throw new AppError('ERR_NO_SUPER');
  // An agent may edit their own name, email and password; what they may see is an admin's decision.
  if (!isAdmin) {
    const changes =
      (input.profile !== undefined && input.profile !== user.profile) ||
      (input.allTicket !== undefined && input.allTicket !== user.allTicket) ||
      (input.whatsappId !== undefined && input.whatsappId !== user.whatsappId) ||
      input.queueIds !== undefined;
    if (changes) throw new AppError('ERR_NO_PERMISSION');
  }
  if (input.email && input.email !== user.email) await assertEmailFree(ctx, input.email, id);
  const { password, queueIds: _queueIds, ...fields } = input;
  ctx.em.assign(user, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
  if (password) user.passwordHash = await hashPassword(password);
  await ctx.em.flush();
  // A new password ends every other session of that user.
  if (password) await revokeSessions(ctx.em, user.id, user.id === actor.userId ? actor.sessionId : undefined);
  const shown = presentUser(user);
  ctx.events.emit('user.saved', { companyId: user.companyId, action: 'update', user: shown });
  return shown;
};

export const deleteUser = async (ctx: ServiceContext, id: number) => {
  requireAdmin(ctx.actor);
  if (id === ctx.actor.userId) throw new AppError('ERR_CANNOT_DELETE_SELF');
  const user = await findUser(ctx.em, id);
  if (user.super && !ctx.actor.isSuper) throw new AppError('ERR_NO_SUPER');
  await ctx.em.remove(user).flush();
  ctx.events.emit('user.deleted', { companyId: user.companyId, userId: id });
};

export const setLanguage = async (ctx: ServiceContext, language: Language) => {
  const user = await findUser(ctx.em, ctx.actor.userId);
  user.language = language;
  await ctx.em.flush();
  return presentUser(user);
};
