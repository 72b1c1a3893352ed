import { LockMode } from '@mikro-orm/core';
import { assertUniqueName, nameTaken } from '../../db/unique-name.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  FILE_LISTS_PAGE_SIZE,
  type CreateFileListInput,
  type FileListView,
  type FileOptionInput,
  type FileOptionView,
  type ListQuery,
  type UpdateFileListInput,
  type UploadFileListForm,
} from '@atrium/shared';
import { pageOf, requireAdmin, type ServiceContext } from '../../context.js';
import { escapeLike } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { MediaStore, StoredMedia } from '../../media/storage.js';
import { FileList, FileOption } from './file-list.entity.js';

export interface FileListDeps {
  media: MediaStore;
}

export const presentFileOption = (media: MediaStore, o: FileOption): FileOptionView<Date> => ({
  id: o.id,
  fileId: o.fileId,
  name: o.name,
  path: o.path,
  mediaType: o.mediaType,
  mediaName: o.mediaName,
  mediaUrl: media.url(o.companyId, o.path),
  size: o.size,
  createdAt: o.createdAt,
  updatedAt: o.updatedAt,
});

export const presentFileList = (media: MediaStore, list: FileList, options: FileOption[]): FileListView<Date> => ({
  id: list.id,
  name: list.name,
  message: list.message,
  companyId: list.companyId,
  options: options.map((o) => presentFileOption(media, o)),
  createdAt: list.createdAt,
  updatedAt: list.updatedAt,
});

const optionsOf = async (em: EntityManager, fileIds: number[], lock = false) =>
  fileIds.length === 0
    ? []
    : em.find(FileOption, { fileId: { $in: fileIds } }, {
        orderBy: { position: 'asc', id: 'asc' },
        // Fresh rows: a transaction's fork may have changed them since this manager read them.
        refresh: true,
        ...(lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}),
      });

const findList = async (em: EntityManager, id: number, lock = false) => {
  const list = await em.findOne(FileList, id, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!list) throw new AppError('ERR_NO_FILE_LIST_FOUND');
  return list;
};

/** Names are unique in a company whatever their case (spec 04 section 8). */
const assertNameFree = (em: EntityManager, name: string, exceptId?: number) =>
  assertUniqueName(em, FileList, name, 'ERR_FILE_LIST_ALREADY_EXISTS', exceptId);
const nameRace = nameTaken('ERR_FILE_LIST_ALREADY_EXISTS');

/** Files on disk are removed once the rows naming them are gone (never inside the transaction). */
const removeFiles = async (media: MediaStore, companyId: number, paths: (string | null)[]) => {
  for (const path of paths) if (path) await media.remove(companyId, path).catch(() => undefined);
};

const view = async (em: EntityManager, deps: FileListDeps, list: FileList) =>
  presentFileList(deps.media, list, await optionsOf(em, [list.id]));

const announce = (ctx: ServiceContext, record: FileListView<Date>, action: 'create' | 'update') => {
  ctx.events.emit('filelist.changed', { companyId: record.companyId, action, record });
  return record;
};

/** GET /files/: 20 per page by name, searching the name, each with its files. */
export const listFileLists = async (ctx: ServiceContext, deps: FileListDeps, query: ListQuery) => {
  const where = query.searchParam ? { name: { $ilike: `%${escapeLike(query.searchParam)}%` } } : {};
  const [lists, count] = await ctx.em.findAndCount(FileList, where, {
    orderBy: { name: 'asc', id: 'asc' },
    limit: FILE_LISTS_PAGE_SIZE,
    offset: (query.pageNumber - 1) * FILE_LISTS_PAGE_SIZE,
  });
  const options = await optionsOf(ctx.em, lists.map((l) => l.id));
  const files = lists.map((l) => presentFileList(deps.media, l, options.filter((o) => o.fileId === l.id)));
  const page = pageOf(files, count, query.pageNumber, FILE_LISTS_PAGE_SIZE);
  return { files: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getFileList = async (ctx: ServiceContext, deps: FileListDeps, id: number) => view(ctx.em, deps, await findList(ctx.em, id));

/** POST /files (admins): the list and its options; their files come with POST /files/uploadList/{id}. */
export const createFileList = async (ctx: ServiceContext, deps: FileListDeps, input: CreateFileListInput) => {
  requireAdmin(ctx.actor);
  await assertNameFree(ctx.em, input.name);
  const companyId = requireTenant(ctx.em);
  const list = ctx.em.create(FileList, { companyId, name: input.name, message: input.message });
  await ctx.em.flush().catch(nameRace);
  input.options.forEach((o, position) => ctx.em.create(FileOption, { companyId, fileId: list.id, name: o.name, position }));
  await ctx.em.flush();
  return announce(ctx, await view(ctx.em, deps, list), 'create');
};

/**
 * PUT /files/{id} (admins). `options`, when sent, is the whole set in order: known ids are renamed, new
 * ones added, the others deleted with their files. An option sent with an empty `path` loses its file;
 * any other `path` or `mediaType` a client sends is ignored (spec 04 section 8 note).
 */
export const updateFileList = async (ctx: ServiceContext, deps: FileListDeps, id: number, input: UpdateFileListInput) => {
  requireAdmin(ctx.actor);
  const companyId = requireTenant(ctx.em);
  if (input.name !== undefined) await assertNameFree(ctx.em, input.name, id);
  const dropped: (string | null)[] = [];
  const list = await ctx.em
    .transactional(async (tx) => {
      const list = await findList(tx, id, true);
      if (input.name !== undefined) list.name = input.name;
      if (input.message !== undefined) list.message = input.message;
      if (input.options) dropped.push(...(await syncOptions(tx, list, input.options, companyId)));
      list.updatedAt = new Date();
      await tx.flush();
      return list;
    })
    .catch(nameRace);
  await removeFiles(deps.media, companyId, dropped);
  return announce(ctx, await view(ctx.em, deps, list), 'update');
};

/** Applies the sent options to the list's; answers the stored files no longer named by any. */
const syncOptions = async (tx: EntityManager, list: FileList, sent: FileOptionInput[], companyId: number) => {
  const current = await optionsOf(tx, [list.id], true);
  const byId = new Map(current.map((o) => [o.id, o]));
  const seen = new Set<number>();
  const dropped: (string | null)[] = [];
  sent.forEach((input, position) => {
    if (input.id === undefined) {
      tx.create(FileOption, { companyId, fileId: list.id, name: input.name, position });
      return;
    }
    const option = byId.get(input.id);
    if (!option || seen.has(input.id)) throw new AppError('ERR_NO_FILE_OPTION_FOUND', { id: input.id });
    seen.add(input.id);
    option.name = input.name;
    option.position = position;
    if ((input.path === null || input.path === '') && option.path) {
      dropped.push(option.path);
      Object.assign(option, { path: null, mediaType: null, mediaName: null, size: null });
    }
  });
  for (const option of current) {
    if (seen.has(option.id)) continue;
    dropped.push(option.path);
    tx.remove(option);
  }
  return dropped;
};

/** DELETE /files/{id} (admins): the list, its options and their files. */
export const deleteFileList = async (ctx: ServiceContext, deps: FileListDeps, id: number) => {
  requireAdmin(ctx.actor);
  const companyId = requireTenant(ctx.em);
  const paths = await ctx.em.transactional(async (tx) => {
    const list = await findList(tx, id, true);
    const options = await optionsOf(tx, [id], true);
    await tx.nativeDelete(FileOption, { fileId: id });
    await tx.nativeDelete(FileList, { id: list.id });
    return options.map((o) => o.path);
  });
  await removeFiles(deps.media, companyId, paths);
  ctx.events.emit('filelist.deleted', { companyId, id });
};

export interface UploadedListFile {
  data: Buffer;
  mimetype: string;
  filename: string;
}

/**
 * POST /files/uploadList/{id} (admins): file i goes to option id[i] of this list. Each is stored under a
 * name the server chooses, in the company's media folder; its type is what the upload check accepted.
 * A file an option held before is removed once the new one is recorded.
 */
export const uploadFileListFiles = async (
  ctx: ServiceContext,
  deps: FileListDeps,
  listId: number,
  form: UploadFileListForm,
  files: UploadedListFile[],
) => {
  requireAdmin(ctx.actor);
  const companyId = requireTenant(ctx.em);
  if (form.fileId !== undefined && form.fileId !== listId) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'fileId', message: 'not this list' }] });
  }
  if (files.length === 0) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'files', message: 'required' }] });
  if (form.id.length !== files.length) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'id', message: 'one option id per file' }] });
  }
  if (new Set(form.id).size !== form.id.length) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'id', message: 'repeated' }] });
  // Checked before anything is written.
  const list = await findList(ctx.em, listId);
  const known = new Set((await optionsOf(ctx.em, [listId])).map((o) => o.id));
  const unknown = form.id.find((id) => !known.has(id));
  if (unknown !== undefined) throw new AppError('ERR_NO_FILE_OPTION_FOUND', { id: unknown });

  const stored: StoredMedia[] = [];
  const replaced: (string | null)[] = [];
  try {
    for (const file of files) stored.push(await deps.media.save(companyId, file));
    await ctx.em.transactional(async (tx) => {
      const options = new Map((await optionsOf(tx, [listId], true)).map((o) => [o.id, o]));
      form.id.forEach((optionId, i) => {
        const option = options.get(optionId);
        if (!option) throw new AppError('ERR_NO_FILE_OPTION_FOUND', { id: optionId });
        replaced.push(option.path);
        Object.assign(option, { path: stored[i].fileName, mediaType: stored[i].mimetype, mediaName: stored[i].mediaName, size: stored[i].size });
      });
      await tx.flush();
    });
  } catch (err) {
    await removeFiles(deps.media, companyId, stored.map((s) => s.fileName));
    throw err;
  }
  await removeFiles(deps.media, companyId, replaced);
  return announce(ctx, await view(ctx.em, deps, list), 'update');
};
