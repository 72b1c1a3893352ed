import { z } from 'zod';
import { idSchema, textSchema } from './common.js';

export const FILE_LISTS_PAGE_SIZE = 20;
/** At most this many files in one list. */
export const FILE_LIST_MAX_OPTIONS = 50;
/** Largest file of a list (what WhatsApp takes for a video). */
export const FILE_LIST_MEDIA_MAX_BYTES = 16 * 1024 * 1024;
/** What a list's files may be: images, audio, video, PDF and office documents (as quick messages). */
export const FILE_LIST_MEDIA_TYPES = [
  'image/*',
  'audio/*',
  'video/*',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
] as const;
/** What the file input of the list dialog offers. */
export const FILE_LIST_ACCEPT = FILE_LIST_MEDIA_TYPES.join(',');

/** File list name: required, at least 3 characters (spec 02 section 5). */
export const fileListNameSchema = textSchema.trim().min(3).max(100);
export const fileListMessageSchema = textSchema.trim().min(1).max(65536);
export const fileOptionNameSchema = textSchema.trim().min(1).max(200);

/**
 * One option (a file slot) of a list. `path` and `mediaType` are the server's: a client may send them back
 * as it got them, or send `path` empty to drop the option's file; any other value is ignored. Files
 * arrive through POST /files/uploadList/{id}.
 */
export const fileOptionInputSchema = z.object({
  id: idSchema.optional(),
  name: fileOptionNameSchema,
  path: textSchema.max(300).nullable().optional(),
  mediaType: textSchema.max(300).nullable().optional(),
});
export type FileOptionInput = z.infer<typeof fileOptionInputSchema>;

const options = z.array(fileOptionInputSchema).max(FILE_LIST_MAX_OPTIONS);

export const createFileListSchema = z.object({
  name: fileListNameSchema,
  message: fileListMessageSchema,
  options: options.optional().default([]),
});
export type CreateFileListInput = z.infer<typeof createFileListSchema>;

/** Only the fields sent change; `options`, when sent, is the whole set (options left out are deleted with their files). */
export const updateFileListSchema = z.object({
  name: fileListNameSchema.optional(),
  message: fileListMessageSchema.optional(),
  options: options.optional(),
});
export type UpdateFileListInput = z.infer<typeof updateFileListSchema>;

/** The list form (name, message, options with a name each). */
export const fileListFormSchema = createFileListSchema;

const oneOrMany = <T extends z.ZodType>(schema: T) =>
  z.union([schema, z.array(schema)]).transform((v) => (Array.isArray(v) ? v : [v]) as z.output<T>[]);

/**
 * POST /files/uploadList/{id}, multipart: `files` and, in the same order, `id` (the option each file goes
 * to). `fileId` (the list, if sent, must be the path's), `typeArch`, `mediaType` and `name` are accepted
 * for the contract's client and not trusted: the server names the file and reads its type.
 */
export const uploadFileListFormSchema = z.object({
  id: oneOrMany(idSchema),
  fileId: idSchema.optional(),
  typeArch: textSchema.max(50).optional(),
  mediaType: oneOrMany(textSchema.max(300)).optional(),
  name: oneOrMany(textSchema.max(300)).optional(),
});
export type UploadFileListForm = z.infer<typeof uploadFileListFormSchema>;
