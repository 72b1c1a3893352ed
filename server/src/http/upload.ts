import multer from '@koa/multer';
import type Koa from 'koa';
import { AppError } from '../errors.js';
import { mimeBase } from '../media/storage.js';

export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

export interface UploadRules {
  /** Form field names that carry files. */
  fields: string[];
  maxFiles?: number;
  maxBytes: number;
  /** Allowed MIME types or families ('image/*'); empty: anything. */
  accept?: string[];
}

const accepts = (accept: string[] | undefined, mimetype: string) => {
  if (!accept || accept.length === 0) return true;
  const base = mimeBase(mimetype);
  return accept.some((a) => (a.endsWith('/*') ? base.startsWith(a.slice(0, -1)) : base === a));
};

/**
 * Parses a multipart body into memory with limits: too large is 413, a refused type is 415, and
 * nothing is written to disk until a service stores it under a random name.
 */
export const upload = (rules: UploadRules): Koa.Middleware => {
  const options: Parameters<typeof multer>[0] = {
    storage: multer.memoryStorage(),
    limits: { fileSize: rules.maxBytes, files: rules.maxFiles ?? 10, fields: 50, fieldSize: 64 * 1024 },
    fileFilter: (_req, file, callback) => {
      if (!accepts(rules.accept, file.mimetype)) callback(new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { file: file.originalname }), false);
      else callback(null, true);
    },
  };
  // Browsers send file names in UTF-8 without saying so; busboy's default (latin1) garbles "preços.pdf".
  // multer 2 takes the option; @koa/multer's types predate it.
  Object.assign(options!, { defParamCharset: 'utf8' });
  const parser = multer(options).fields(rules.fields.map((name) => ({ name, maxCount: rules.maxFiles ?? 10 })));
  return async (ctx, next) => {
    if (!ctx.is('multipart')) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { expected: 'multipart/form-data' });
    try {
      await parser(ctx as never, async () => {});
    } catch (err) {
      if (err instanceof AppError) throw err;
      const code = (err as { code?: string }).code;
      if (code === 'LIMIT_FILE_SIZE' || code === 'LIMIT_FILE_COUNT' || code === 'LIMIT_FIELD_VALUE') {
        throw new AppError('ERR_PAYLOAD_TOO_LARGE', { limitBytes: rules.maxBytes });
      }
      if (code === 'LIMIT_UNEXPECTED_FILE') throw new AppError('ERR_VALIDATION', { fields: [{ path: String((err as { field?: string }).field), message: 'unexpected file field' }] });
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'malformed multipart body' }] });
    }
    await next();
  };
};

/** The files of a parsed multipart request, in the order they were sent. */
export const uploadedFiles = (ctx: Koa.Context, field?: string): UploadedFile[] => {
  const files = (ctx as unknown as { files?: Record<string, UploadedFile[]> }).files ?? {};
  return field ? (files[field] ?? []) : Object.values(files).flat();
};

/** The one file a form must carry in `field`; ERR_VALIDATION naming the field when it is missing. */
export const requiredFile = (ctx: Koa.Context, field: string): UploadedFile => {
  const [file] = uploadedFiles(ctx, field);
  if (!file) throw new AppError('ERR_VALIDATION', { fields: [{ path: field, message: 'required' }] });
  return file;
};

/** An uploaded file as the media store saves it. */
export const mediaOf = (file: UploadedFile): { data: Buffer; mimetype: string; filename: string } => ({
  data: file.buffer,
  mimetype: file.mimetype,
  filename: file.originalname,
});

/** The text fields of a parsed multipart request. */
export const formFields = (ctx: Koa.Context): Record<string, unknown> =>
  ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {}) as Record<string, unknown>;
