import { escapeLike } from '../../db/sql.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PAGE_SIZE, type CreateHelpInput, type ListQuery, type UpdateHelpInput } from '@atrium/shared';
import { pageOf, requireSuper, type ServiceContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { Help } from './help.entity.js';

const present = (help: Help) => ({
  id: help.id,
  title: help.title,
  description: help.description,
  video: help.video,
  createdAt: help.createdAt,
  updatedAt: help.updatedAt,
});

const findHelp = async (em: EntityManager, id: number) => {
  const help = await em.findOne(Help, id);
  if (!help) throw new AppError('ERR_NO_HELP_FOUND');
  return help;
};

export const listHelps = async (ctx: ServiceContext, query: ListQuery) => {
  const term = `%${escapeLike(query.searchParam)}%`;
  const where = query.searchParam ? { $or: [{ title: { $ilike: term } }, { description: { $ilike: term } }] } : {};
  const [helps, count] = await ctx.em.findAndCount(Help, where, {
    orderBy: { title: 'asc' },
    limit: PAGE_SIZE.helps,
    offset: (query.pageNumber - 1) * PAGE_SIZE.helps,
  });
  const page = pageOf(helps.map(present), count, query.pageNumber, PAGE_SIZE.helps);
  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

export const allHelps = async (ctx: ServiceContext) =>
  (await ctx.em.find(Help, {}, { orderBy: { title: 'asc' } })).map(present);

export const getHelp = async (ctx: ServiceContext, id: number) => present(await findHelp(ctx.em, id));

export const createHelp = async (ctx: ServiceContext, input: CreateHelpInput) => {
  requireSuper(ctx.actor);
  const help = ctx.em.create(Help, input);
  await ctx.em.flush();
  return present(help);
};

export const updateHelp = async (ctx: ServiceContext, id: number, input: UpdateHelpInput) => {
  requireSuper(ctx.actor);
  const help = await findHelp(ctx.em, id);
  ctx.em.assign(help, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)));
  await ctx.em.flush();
  return present(help);
};

export const deleteHelp = async (ctx: ServiceContext, id: number) => {
  requireSuper(ctx.actor);
  await ctx.em.remove(await findHelp(ctx.em, id)).flush();
};
