import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import path from 'node:path';
import { AppError } from '../errors.js';

/**
 * Media files of a company, kept by a backend (a local directory or an S3-compatible bucket) under
 * `{companyId}/{random name}`. They are served only through signed, expiring URLs minted for an
 * authenticated user of that company (an <img> cannot send a bearer header), never from a public folder
 * or bucket and never by a client-supplied path.
 */
export interface MediaStore {
  /** Which backend keeps the files. */
  readonly kind: MediaBackend['kind'];
  save(companyId: number, file: { data: Buffer; mimetype: string; filename?: string }): Promise<StoredMedia>;
  /**
   * Writes a stream to a new file as it comes (never whole in memory), refusing more than `maxBytes`
   * (MediaTooLargeError, the download aborted); nothing is left behind on any failure.
   */
  saveStream(companyId: number, file: { stream: Readable; mimetype: string; filename?: string; maxBytes: number }): Promise<StoredMedia>;
  /** The whole file (to send it on); AppError ERR_MEDIA_NOT_FOUND when there is none. */
  read(companyId: number, fileName: string): Promise<Buffer>;
  /** The file as a stream with its size (to serve it); AppError ERR_MEDIA_NOT_FOUND when there is none. */
  open(companyId: number, fileName: string): Promise<{ stream: Readable; size: number }>;
  exists(companyId: number, fileName: string): Promise<boolean>;
  /** Removing a file that is not there is no error. */
  remove(companyId: number, fileName: string): Promise<void>;
  /** Every file of a company (it was deleted). */
  removeCompany(companyId: number): Promise<void>;
  /** A URL valid for `ttlSeconds`, or null when there is no file. */
  url(companyId: number, fileName: string | null | undefined, ttlSeconds?: number): string | null;
  verify(companyId: number, fileName: string, expires: string, signature: string): boolean;
  /** Throws when the backend cannot be used (checked at start, so a wrong bucket or key stops the server). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Where the bytes live. It is given only names the store has checked (a positive company id and a name of
 * its own making), so it never sees a client's path.
 */
export interface MediaBackend {
  readonly kind: 'local' | 's3';
  /** Stores the bytes whole or not at all: a failure (of the source too) leaves nothing readable behind. */
  write(companyId: number, fileName: string, body: Buffer | AsyncIterable<Buffer>, mimetype: string): Promise<void>;
  /** null when there is no such file. */
  open(companyId: number, fileName: string): Promise<{ stream: Readable; size: number } | null>;
  exists(companyId: number, fileName: string): Promise<boolean>;
  remove(companyId: number, fileName: string): Promise<void>;
  removeCompany(companyId: number): Promise<void>;
  check(): Promise<void>;
  close(): Promise<void>;
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

/** Counts what passes and stops the source past `maxBytes`. */
async function* limited(source: AsyncIterable<Buffer | string>, maxBytes: number, seen: { bytes: number }): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    seen.bytes += buffer.length;
    // Leaving the loop destroys the source: a download is cut off, not read to its end.
    if (seen.bytes > maxBytes) throw new MediaTooLargeError(maxBytes);
    yield buffer;
  }
}

/** The rules every backend shares: names, company scoping, size limits, signed URLs. */
export const createMediaStore = (options: { backend: MediaBackend; secret: string }): MediaStore => {
  const { backend } = options;
  const checked = (companyId: number, fileName?: string) => {
    if (!Number.isInteger(companyId) || companyId <= 0) throw new AppError('ERR_NOT_FOUND');
    if (fileName !== undefined && !FILE_NAME.test(fileName)) throw new AppError('ERR_NOT_FOUND');
  };
  const newName = (mimetype: string, filename?: string) => `${randomBytes(16).toString('base64url')}.${extensionFor(mimetype, filename)}`;
  const sign = (companyId: number, fileName: string, expires: string) =>
    createHmac('sha256', options.secret).update(`media:${companyId}/${fileName}:${expires}`).digest('base64url');
  const open = async (companyId: number, fileName: string) => {
    checked(companyId, fileName);
    const file = await backend.open(companyId, fileName);
    if (!file) throw new AppError('ERR_MEDIA_NOT_FOUND');
    return file;
  };

  return {
    kind: backend.kind,
    async save(companyId, file) {
      checked(companyId);
      const fileName = newName(file.mimetype, file.filename);
      await backend.write(companyId, fileName, file.data, mimeBase(file.mimetype));
      return { fileName, mediaName: cleanFileName(file.filename, fileName), mimetype: mimeBase(file.mimetype), size: file.data.length };
    },
    async saveStream(companyId, file) {
      checked(companyId);
      const fileName = newName(file.mimetype, file.filename);
      const seen = { bytes: 0 };
      await backend.write(companyId, fileName, limited(file.stream, file.maxBytes, seen), mimeBase(file.mimetype));
      return { fileName, mediaName: cleanFileName(file.filename, fileName), mimetype: mimeBase(file.mimetype), size: seen.bytes };
    },
    async read(companyId, fileName) {
      const { stream } = await open(companyId, fileName);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    open,
    async exists(companyId, fileName) {
      checked(companyId, fileName);
      return backend.exists(companyId, fileName);
    },
    async remove(companyId, fileName) {
      checked(companyId, fileName);
      await backend.remove(companyId, fileName);
    },
    async removeCompany(companyId) {
      checked(companyId);
      await backend.removeCompany(companyId);
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
    check: () => backend.check(),
    close: () => backend.close(),
  };
};
