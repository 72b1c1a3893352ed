import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import { AppError } from '../errors.js';

/**
 * Media files, kept under DATA_DIR/media/{companyId}/ with random names. They are served only through
 * signed, expiring URLs minted for an authenticated user of that company (an <img> cannot send a
 * bearer header), never from a public folder and never by a client-supplied path.
 */
export interface MediaStore {
  save(companyId: number, file: { data: Buffer; mimetype: string; filename?: string }): Promise<StoredMedia>;
  /**
   * Writes a stream to a new file as it comes (never whole in memory), refusing more than `maxBytes`
   * (MediaTooLargeError, the download aborted); nothing is left behind on any failure.
   */
  saveStream(companyId: number, file: { stream: Readable; mimetype: string; filename?: string; maxBytes: number }): Promise<StoredMedia>;
  read(companyId: number, fileName: string): Promise<Buffer>;
  remove(companyId: number, fileName: string): Promise<void>;
  /** Every file of a company (it was deleted). */
  removeCompany(companyId: number): Promise<void>;
  pathOf(companyId: number, fileName: string): string;
  /** A URL valid for `ttlSeconds`, or null when there is no file. */
  url(companyId: number, fileName: string | null | undefined, ttlSeconds?: number): string | null;
  verify(companyId: number, fileName: string, expires: string, signature: string): boolean;
}

export interface StoredMedia {
  fileName: string;
  mediaName: string;
  mimetype: string;
  size: number;
}

export class MediaTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`media larger than ${maxBytes} bytes`);
    this.name = 'MediaTooLargeError';
  }
}

const FILE_NAME = /^[A-Za-z0-9_-]{10,64}\.[a-z0-9]{1,10}$/;

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/wav': 'wav',
  'audio/webm': 'webm',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'video/webm': 'webm',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'text/vcard': 'vcf',
  'application/zip': 'zip',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};

export const mimeBase = (mimetype: string): string => mimetype.split(';')[0].trim().toLowerCase();

export const extensionFor = (mimetype: string, filename?: string): string => {
  const known = EXTENSIONS[mimeBase(mimetype)];
  if (known) return known;
  const ext = filename ? path.extname(filename).slice(1).toLowerCase() : '';
  return /^[a-z0-9]{1,10}$/.test(ext) ? ext : 'bin';
};

/** A display name without any path or control characters. */
export const cleanFileName = (name: string | undefined, fallback: string): string => {
  const base = path.basename((name ?? '').replace(/\\/g, '/')).replace(/\p{Cc}/gu, '').trim();
  return (base || fallback).slice(0, 200);
};

export const createMediaStore = (options: { dataDir: string; secret: string }): MediaStore => {
  const root = path.join(options.dataDir, 'media');
  const dirOf = (companyId: number) => {
    if (!Number.isInteger(companyId) || companyId <= 0) throw new AppError('ERR_NOT_FOUND');
    return path.join(root, String(companyId));
  };
  const pathOf = (companyId: number, fileName: string) => {
    if (!FILE_NAME.test(fileName)) throw new AppError('ERR_NOT_FOUND');
    return path.join(dirOf(companyId), fileName);
  };
  const sign = (companyId: number, fileName: string, expires: string) =>
    createHmac('sha256', options.secret).update(`media:${companyId}/${fileName}:${expires}`).digest('base64url');

  return {
    pathOf,
    async save(companyId, file) {
      const dir = dirOf(companyId);
      await mkdir(dir, { recursive: true });
      const ext = extensionFor(file.mimetype, file.filename);
      const fileName = `${randomBytes(16).toString('base64url')}.${ext}`;
      await writeFile(path.join(dir, fileName), file.data, { flag: 'wx' });
      return {
        fileName,
        mediaName: cleanFileName(file.filename, fileName),
        mimetype: mimeBase(file.mimetype),
        size: file.data.length,
      };
    },
    async saveStream(companyId, file) {
      const dir = dirOf(companyId);
      await mkdir(dir, { recursive: true });
      const fileName = `${randomBytes(16).toString('base64url')}.${extensionFor(file.mimetype, file.filename)}`;
      // Written under a name the media routes never serve, then renamed once complete.
      const partial = path.join(dir, `${fileName}.part`);
      let size = 0;
      const limit = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(size > file.maxBytes ? new MediaTooLargeError(file.maxBytes) : null, chunk);
        },
      });
      try {
        await pipeline(file.stream, limit, createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, path.join(dir, fileName));
      } catch (err) {
        await unlink(partial).catch(() => undefined);
        throw err;
      }
      return { fileName, mediaName: cleanFileName(file.filename, fileName), mimetype: mimeBase(file.mimetype), size };
    },
    read: (companyId, fileName) => readFile(pathOf(companyId, fileName)),
    async remove(companyId, fileName) {
      await unlink(pathOf(companyId, fileName)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    },
    async removeCompany(companyId) {
      await rm(dirOf(companyId), { recursive: true, force: true });
    },
    url(companyId, fileName, ttlSeconds = 12 * 3600) {
      if (!fileName || !FILE_NAME.test(fileName)) return null;
      const expires = String(Math.floor(Date.now() / 1000) + ttlSeconds);
      return `/media/${companyId}/${fileName}?expires=${expires}&signature=${sign(companyId, fileName, expires)}`;
    },
    verify(companyId, fileName, expires, signature) {
      if (!FILE_NAME.test(fileName) || !/^\d{1,12}$/.test(expires)) return false;
      if (Number(expires) < Date.now() / 1000) return false;
      const expected = Buffer.from(sign(companyId, fileName, expires));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
};

export const fileExists = async (file: string): Promise<boolean> =>
  stat(file)
    .then((s) => s.isFile())
    .catch(() => false);
