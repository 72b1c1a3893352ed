import { escapeLike } from '../../db/sql.js';
import type { FilterQuery } from '@mikro-orm/core';
import {
  QUICK_MESSAGES_PAGE_SIZE,
  type CreateQuickMessageInput,
  type ListQuickMessagesQuery,
  type UpdateQuickMessageInput,
} from '@atrium/shared';
import { isAdmin, pageOf, requireAdmin, type ServiceContext } from '../../context.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { MediaStore } from '../../media/storage.js';
import { QuickMessage } from './quick-message.entity.js';

export interface QuickMessageDeps {
  media: MediaStore;
}

/** Seen by the whole company: shared and active. */
const isShared = (q: Pick<QuickMessage, 'geral' | 'status'>) => q.geral && q.status;

export const presentQuickMessage = (media: MediaStore, q: QuickMessage) => ({
  id: q.id,
  shortcode: q.shortcode,
  message: q.message,
  geral: q.geral,
  status: q.status,
  isMedia: q.mediaPath !== null,
  mediaPath: q.mediaPath,
  mediaName: q.mediaName,
  mediaUrl: media.url(q.companyId, q.mediaPath),
  userId: q.userId,
  companyId: q.companyId,
  createdAt: q.createdAt,
  updatedAt: q.updatedAt,
});

/**
 * What the page lists (spec 04 section 5 note): the caller's own quick messages (active or not) and the
 * company's shared active ones; admins, who manage the shared ones, also see those switched off.
 */
const listedFor = (ctx: ServiceContext): FilterQuery<QuickMessage> => ({
  $or: [{ userId: ctx.actor.userId }, isAdmin(ctx.actor) ? { geral: true } : { geral: true, status: true }],
});

/** What the `/` suggestions offer: active ones only, the caller's own and the company's shared. */
const usableBy = (ctx: ServiceContext): FilterQuery<QuickMessage> => ({
  status: true,
  $or: [{ userId: ctx.actor.userId }, { geral: true }],
});


/** GET /quick-messages: 20 per page by shortcode, searching shortcode or text. */
export const listQuickMessages = async (ctx: ServiceContext, deps: QuickMessageDeps, query: ListQuickMessagesQuery) => {
  const term = `%${escapeLike(query.searchParam)}%`;
  const where: FilterQuery<QuickMessage> = query.searchParam
    ? { $and: [listedFor(ctx), { $or: [{ shortcode: { $ilike: term } }, { message: { $ilike: term } }] }] }
    : listedFor(ctx);
  const [rows, count] = await ctx.em.findAndCount(QuickMessage, where, {
    orderBy: { shortcode: 'asc', id: 'asc' },
    limit: QUICK_MESSAGES_PAGE_SIZE,
    offset: (query.pageNumber - 1) * QUICK_MESSAGES_PAGE_SIZE,
  });
  const page = pageOf(rows.map((q) => presentQuickMessage(deps.media, q)), count, query.pageNumber, QUICK_MESSAGES_PAGE_SIZE);
  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

/** GET /quick-messages/list: the active ones the caller may use, unpaged, for the ticket input's suggestions. */
export const listAllQuickMessages = async (ctx: ServiceContext, deps: QuickMessageDeps) =>
  (await ctx.em.find(QuickMessage, usableBy(ctx), { orderBy: { shortcode: 'asc', id: 'asc' } })).map((q) =>
    presentQuickMessage(deps.media, q),
  );

const findQuickMessage = async (ctx: ServiceContext, id: number) => {
  const record = await ctx.em.findOne(QuickMessage, id);
  if (!record) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');
  return record;
};

/** Read: its owner, an admin, or anyone when it is shared. */
const findReadable = async (ctx: ServiceContext, id: number) => {
  const record = await findQuickMessage(ctx, id);
  if (record.userId !== ctx.actor.userId && !isShared(record) && !isAdmin(ctx.actor)) throw new AppError('ERR_NO_PERMISSION');
  return record;
};

/** Change: its owner or an admin (the original let anyone, and took the message over on edit). */
const findEditable = async (ctx: ServiceContext, id: number) => {
  const record = await findQuickMessage(ctx, id);
  if (record.userId !== ctx.actor.userId && !isAdmin(ctx.actor)) throw new AppError('ERR_NO_PERMISSION');
  return record;
};

const announce = (ctx: ServiceContext, deps: QuickMessageDeps, record: QuickMessage, action: 'create' | 'update', wasShared: boolean) => {
  const presented = presentQuickMessage(deps.media, record);
  ctx.events.emit('quickmessage.changed', { companyId: record.companyId, action, record: presented, wasShared });
  return presented;
};

export const getQuickMessage = async (ctx: ServiceContext, deps: QuickMessageDeps, id: number) =>
  presentQuickMessage(deps.media, await findReadable(ctx, id));

export const createQuickMessage = async (ctx: ServiceContext, deps: QuickMessageDeps, input: CreateQuickMessageInput) => {
  if (input.geral) requireAdmin(ctx.actor);
  const record = ctx.em.create(QuickMessage, {
    companyId: requireTenant(ctx.em),
    userId: ctx.actor.userId,
    shortcode: input.shortcode,
    message: input.message,
    geral: input.geral,
    status: input.status,
  });
  await ctx.em.flush();
  return announce(ctx, deps, record, 'create', false);
};

/** The owner stays the owner whoever edits; only admins share or unshare. */
export const updateQuickMessage = async (ctx: ServiceContext, deps: QuickMessageDeps, id: number, input: UpdateQuickMessageInput) => {
  const record = await findEditable(ctx, id);
  if (input.geral !== undefined && input.geral !== record.geral) requireAdmin(ctx.actor);
  const wasShared = isShared(record);
  if (input.shortcode !== undefined) record.shortcode = input.shortcode;
  if (input.message !== undefined) record.message = input.message;
  if (input.geral !== undefined) record.geral = input.geral;
  if (input.status !== undefined) record.status = input.status;
  await ctx.em.flush();
  return announce(ctx, deps, record, 'update', wasShared);
};

export const deleteQuickMessage = async (ctx: ServiceContext, deps: QuickMessageDeps, id: number) => {
  const record = await findEditable(ctx, id);
  const mediaPath = record.mediaPath;
  await ctx.em.remove(record).flush();
  if (mediaPath) await deps.media.remove(record.companyId, mediaPath).catch(() => undefined);
  ctx.events.emit('quickmessage.deleted', { companyId: record.companyId, id, userId: record.userId, wasShared: isShared(record) });
};

/** POST /quick-messages/{id}/media-upload: the attachment, stored under a random name; it replaces any earlier one. */
export const attachQuickMessageMedia = async (
  ctx: ServiceContext,
  deps: QuickMessageDeps,
  id: number,
  file: { data: Buffer; mimetype: string; filename: string },
) => {
  const record = await findEditable(ctx, id);
  const stored = await deps.media.save(record.companyId, file);
  const previous = record.mediaPath;
  record.mediaPath = stored.fileName;
  record.mediaName = stored.mediaName;
  try {
    await ctx.em.flush();
  } catch (err) {
    await deps.media.remove(record.companyId, stored.fileName).catch(() => undefined);
    throw err;
  }
  if (previous) await deps.media.remove(record.companyId, previous).catch(() => undefined);
  return announce(ctx, deps, record, 'update', isShared(record));
};

export const removeQuickMessageMedia = async (ctx: ServiceContext, deps: QuickMessageDeps, id: number) => {
  const record = await findEditable(ctx, id);
  const previous = record.mediaPath;
  record.mediaPath = null;
  record.mediaName = null;
  await ctx.em.flush();
  if (previous) await deps.media.remove(record.companyId, previous).catch(() => undefined);
  return announce(ctx, deps, record, 'update', isShared(record));
};
