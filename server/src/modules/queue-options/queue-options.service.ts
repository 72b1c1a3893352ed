import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  CreateQueueOptionInput,
  ListQueueOptionsQuery,
  QueueOptionView,
  UpdateQueueOptionInput,
} from '@atrium/shared';
import { requireAdmin, type ServiceContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { findQueue } from '../queues/index.js';
import { QueueOption } from './queue-option.entity.js';

/** Menu order: numeric keys by value ("2" before "10"), anything else after them by text. */
export const compareOptionKeys = (a: Pick<QueueOption, 'option' | 'id'>, b: Pick<QueueOption, 'option' | 'id'>): number => {
  const na = /^\d+$/.test(a.option) ? Number(a.option) : Number.POSITIVE_INFINITY;
  const nb = /^\d+$/.test(b.option) ? Number(b.option) : Number.POSITIVE_INFINITY;
  if (na !== nb) return na - nb;
  return a.option.localeCompare(b.option) || a.id - b.id;
};

export const sortOptions = <T extends Pick<QueueOption, 'option' | 'id'>>(options: T[]): T[] => [...options].sort(compareOptionKeys);

const presentOption = (o: QueueOption, children: QueueOptionView[]): QueueOptionView => ({
  id: o.id,
  title: o.title,
  message: o.message,
  option: o.option,
  queueId: o.queueId,
  parentId: o.parentId,
  children,
  createdAt: o.createdAt,
  updatedAt: o.updatedAt,
});

/** Presents `roots` with their whole subtree, taken from `all` (every option of their queues). */
const presentTree = (roots: QueueOption[], all: QueueOption[]): QueueOptionView[] => {
  const byParent = new Map<number, QueueOption[]>();
  for (const o of all) {
    if (o.parentId === null) continue;
    byParent.set(o.parentId, [...(byParent.get(o.parentId) ?? []), o]);
  }
  const build = (o: QueueOption, seen: Set<number>): QueueOptionView => {
    // A cycle cannot be stored through this service; the guard keeps a hand-edited row from looping.
    const next = new Set(seen).add(o.id);
    const children = sortOptions(byParent.get(o.id) ?? []).filter((c) => !next.has(c.id));
    return presentOption(o, children.map((c) => build(c, next)));
  };
  return sortOptions(roots).map((o) => build(o, new Set()));
};

export const findQueueOption = async (em: EntityManager, id: number): Promise<QueueOption> => {
  const option = await em.findOne(QueueOption, id);
  if (!option) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND');
  return option;
};

/** The options of one level of a queue's menu (parentId null = top level), in menu order. */
export const optionsAt = async (em: EntityManager, queueId: number, parentId: number | null) =>
  sortOptions(await em.find(QueueOption, { queueId, parentId }));

/** GET /queue-options: options of a queue (a level of it with parentId), each with its sub-options. */
export const listQueueOptions = async (ctx: ServiceContext, query: ListQueueOptionsQuery) => {
  const em = ctx.em;
  let queueId = query.queueId;
  if (queueId !== undefined) await findQueue(em, queueId);
  if (query.parentId !== undefined && query.parentId > 0) {
    const parent = await findQueueOption(em, query.parentId);
    if (queueId !== undefined && parent.queueId !== queueId) return [];
    queueId = parent.queueId;
  }
  const all = await em.find(QueueOption, queueId !== undefined ? { queueId } : {});
  const roots =
    query.parentId === undefined
      ? all
      : all.filter((o) => o.parentId === (query.parentId === -1 ? null : query.parentId));
  return presentTree(roots, all);
};

export const getQueueOption = async (ctx: ServiceContext, id: number) => {
  const option = await findQueueOption(ctx.em, id);
  return presentTree([option], await ctx.em.find(QueueOption, { queueId: option.queueId }))[0];
};

/** The parent must be an option of the same queue (the tenant filter already limits it to the company). */
const assertParent = async (em: EntityManager, queueId: number, parentId: number | null, movingId?: number) => {
  if (parentId === null) return;
  const parent = await findQueueOption(em, parentId);
  if (parent.queueId !== queueId) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'parentId', message: 'must be an option of the same queue' }] });
  }
  if (movingId === undefined) return;
  // An option cannot move under itself or one of its own sub-options.
  const all = await em.find(QueueOption, { queueId }, { fields: ['id', 'parentId'] });
  for (let at: number | null = parentId; at !== null; at = all.find((o) => o.id === at)?.parentId ?? null) {
    if (at === movingId) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'parentId', message: 'cannot be the option itself or below it' }] });
    }
  }
};

/** Two siblings with one key would make the menu ambiguous. */
const assertKeyFree = async (em: EntityManager, queueId: number, parentId: number | null, key: string, exceptId?: number) => {
  const clash = await em.findOne(QueueOption, { queueId, parentId, option: key });
  if (clash && clash.id !== exceptId) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'option', message: 'already used at this level' }] });
  }
};

export const createQueueOption = async (ctx: ServiceContext, input: CreateQueueOptionInput) => {
  requireAdmin(ctx.actor);
  const em = ctx.em;
  await findQueue(em, input.queueId);
  await assertParent(em, input.queueId, input.parentId);
  const created = await em.transactional(async (tx) => {
    const siblings = await optionsAt(tx, input.queueId, input.parentId);
    const key = input.option ?? String(siblings.length + 1);
    await assertKeyFree(tx, input.queueId, input.parentId, key);
    const option = tx.create(QueueOption, {
      companyId: ctx.actor.companyId,
      queueId: input.queueId,
      parentId: input.parentId,
      title: input.title,
      message: input.message,
      option: key,
    });
    await tx.flush();
    return option;
  });
  return presentOption(created, []);
};

export const updateQueueOption = async (ctx: ServiceContext, id: number, input: UpdateQueueOptionInput) => {
  requireAdmin(ctx.actor);
  const em = ctx.em;
  const option = await findQueueOption(em, id);
  if (input.queueId !== undefined && input.queueId !== option.queueId) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'queueId', message: 'an option stays in its queue' }] });
  }
  const parentId = input.parentId !== undefined ? input.parentId : option.parentId;
  if (parentId !== option.parentId) await assertParent(em, option.queueId, parentId, option.id);
  const key = input.option ?? option.option;
  if (key !== option.option || parentId !== option.parentId) await assertKeyFree(em, option.queueId, parentId, key, option.id);
  option.parentId = parentId;
  option.option = key;
  if (input.title !== undefined) option.title = input.title;
  if (input.message !== undefined) option.message = input.message;
  await em.flush();
  return presentTree([option], await em.find(QueueOption, { queueId: option.queueId }))[0];
};

/**
 * Removes an option with its sub-options (the foreign key cascades) and renumbers the remaining
 * siblings 1..n in their menu order, so the keys customers type stay consecutive.
 */
export const deleteQueueOption = async (ctx: ServiceContext, id: number) => {
  requireAdmin(ctx.actor);
  const em = ctx.em;
  const option = await findQueueOption(em, id);
  await em.transactional(async (tx) => {
    await tx.nativeDelete(QueueOption, { id: option.id });
    const siblings = await optionsAt(tx, option.queueId, option.parentId);
    for (const [i, sibling] of siblings.entries()) {
      if (sibling.option !== String(i + 1)) await tx.nativeUpdate(QueueOption, { id: sibling.id }, { option: String(i + 1) });
    }
  });
};
