import path from 'node:path';
import type { FilterQuery } from '@mikro-orm/core';
import {
  ANNOUNCEMENTS_BELL_LIMIT,
  ANNOUNCEMENTS_PAGE_SIZE,
  ANNOUNCEMENT_MEDIA_EXTENSIONS,
  type CreateAnnouncementInput,
  type ListAnnouncementsQuery,
  type UpdateAnnouncementInput,
} from '@atrium/shared';
import { crossCompanyEm, pageOf, requireSuper, type ServiceContext } from '../../context.js';
import { escapeLike } from '../../db/sql.js';
import { AppError } from '../../errors.js';
import type { MediaStore } from '../../media/storage.js';
import { Announcement } from './announcement.entity.js';

export interface AnnouncementDeps {
  media: MediaStore;
}

/** The media file lives under the author's company; the signed URL works for any user who may read it. */
export const presentAnnouncement = (media: MediaStore, a: Announcement) => ({
  id: a.id,
  title: a.title,
  text: a.text,
  priority: a.priority,
  status: a.status,
  mediaPath: a.mediaPath,
  mediaName: a.mediaName,
  mediaUrl: media.url(a.companyId, a.mediaPath),
  companyId: a.companyId,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
});

/** Super users manage every announcement; everyone else only ever sees the active ones. */
const visibleTo = (ctx: ServiceContext): FilterQuery<Announcement> => (ctx.actor.isSuper ? {} : { status: true });

const NEWEST_FIRST = { createdAt: 'desc', id: 'desc' } as const;

/** GET /announcements: 20 per page, newest first, searching title and text (spec 04 section 7 note: super users see inactive ones too). */
export const listAnnouncements = async (ctx: ServiceContext, deps: AnnouncementDeps, query: ListAnnouncementsQuery) => {
  const term = `%${escapeLike(query.searchParam)}%`;
  const where: FilterQuery<Announcement> = query.searchParam
    ? { $and: [visibleTo(ctx), { $or: [{ title: { $ilike: term } }, { text: { $ilike: term } }] }] }
    : visibleTo(ctx);
  const [rows, count] = await ctx.em.findAndCount(Announcement, where, {
    orderBy: NEWEST_FIRST,
    limit: ANNOUNCEMENTS_PAGE_SIZE,
    offset: (query.pageNumber - 1) * ANNOUNCEMENTS_PAGE_SIZE,
  });
  const page = pageOf(rows.map((a) => presentAnnouncement(deps.media, a)), count, query.pageNumber, ANNOUNCEMENTS_PAGE_SIZE);
  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

/** GET /announcements/list: what the bell shows, the active ones of every company, newest first. */
export const listActiveAnnouncements = async (ctx: ServiceContext, deps: AnnouncementDeps) =>
  (await ctx.em.find(Announcement, { status: true }, { orderBy: NEWEST_FIRST, limit: ANNOUNCEMENTS_BELL_LIMIT })).map((a) =>
    presentAnnouncement(deps.media, a),
  );

/** Announcements are not tenant-filtered: any company's is found, as long as the caller may see it. */
const findVisible = async (ctx: ServiceContext, id: number) => {
  const record = await ctx.em.findOne(Announcement, { $and: [{ id }, visibleTo(ctx)] });
  if (!record) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  return record;
};

/**
 * Writes go through the cross-company manager: a super user edits announcements authored in any
 * company, which the request's company-scoped manager would refuse to write.
 */
const findWritable = async (ctx: ServiceContext, id: number) => {
  requireSuper(ctx.actor);
  const em = crossCompanyEm(ctx);
  const record = await em.findOne(Announcement, id);
  if (!record) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  return { em, record };
};

/**
 * Every socket hears about every change. An inactive announcement goes out as its id and status only,
 * so agents' bells drop it without its text reaching them; the super users' list reloads on any event.
 */
const announce = (ctx: ServiceContext, deps: AnnouncementDeps, record: Announcement, action: 'create' | 'update') => {
  const presented = presentAnnouncement(deps.media, record);
  ctx.events.emit('announcement.changed', {
    action,
    record: record.status ? presented : { id: record.id, status: false },
  });
  return presented;
};

export const getAnnouncement = async (ctx: ServiceContext, deps: AnnouncementDeps, id: number) =>
  presentAnnouncement(deps.media, await findVisible(ctx, id));

export const createAnnouncement = async (ctx: ServiceContext, deps: AnnouncementDeps, input: CreateAnnouncementInput) => {
  requireSuper(ctx.actor);
  const em = crossCompanyEm(ctx);
  const record = em.create(Announcement, {
    companyId: ctx.actor.companyId,
    title: input.title,
    text: input.text,
    priority: input.priority,
    status: input.status,
  });
  await em.flush();
  return announce(ctx, deps, record, 'create');
};

export const updateAnnouncement = async (ctx: ServiceContext, deps: AnnouncementDeps, id: number, input: UpdateAnnouncementInput) => {
  const { em, record } = await findWritable(ctx, id);
  em.assign(record, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)));
  await em.flush();
  return announce(ctx, deps, record, 'update');
};

export const deleteAnnouncement = async (ctx: ServiceContext, deps: AnnouncementDeps, id: number) => {
  const { em, record } = await findWritable(ctx, id);
  const { companyId, mediaPath } = record;
  await em.remove(record).flush();
  if (mediaPath) await deps.media.remove(companyId, mediaPath).catch(() => undefined);
  ctx.events.emit('announcement.deleted', { id });
};

const SIGNATURES: Record<string, (data: Buffer) => boolean> = {
  'image/png': (d) => d.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (d) => d.length >= 3 && d[0] === 0xff && d[1] === 0xd8 && d[2] === 0xff,
};

/**
 * The declared type was checked on upload; the name must say png/jpg/jpeg too (spec 02 section 5), and
 * the bytes must be that image, so nothing else is ever served as one.
 */
const assertImage = (file: { data: Buffer; mimetype: string; filename: string }) => {
  const ext = path.extname(file.filename).toLowerCase();
  const looksRight = SIGNATURES[file.mimetype.split(';')[0].trim().toLowerCase()];
  if (!(ANNOUNCEMENT_MEDIA_EXTENSIONS as readonly string[]).includes(ext) || !looksRight?.(file.data)) {
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { file: path.basename(file.filename) });
  }
};

/** POST /announcements/{id}/media-upload: the image, under the author's company; it replaces any earlier one. */
export const attachAnnouncementMedia = async (
  ctx: ServiceContext,
  deps: AnnouncementDeps,
  id: number,
  file: { data: Buffer; mimetype: string; filename: string },
) => {
  const { em, record } = await findWritable(ctx, id);
  assertImage(file);
  const stored = await deps.media.save(record.companyId, file);
  const previous = record.mediaPath;
  record.mediaPath = stored.fileName;
  record.mediaName = stored.mediaName;
  try {
    await em.flush();
  } catch (err) {
    await deps.media.remove(record.companyId, stored.fileName).catch(() => undefined);
    throw err;
  }
  if (previous) await deps.media.remove(record.companyId, previous).catch(() => undefined);
  return announce(ctx, deps, record, 'update');
};

export const removeAnnouncementMedia = async (ctx: ServiceContext, deps: AnnouncementDeps, id: number) => {
  const { em, record } = await findWritable(ctx, id);
  const previous = record.mediaPath;
  record.mediaPath = null;
  record.mediaName = null;
  await em.flush();
  if (previous) await deps.media.remove(record.companyId, previous).catch(() => undefined);
  return announce(ctx, deps, record, 'update');
};
