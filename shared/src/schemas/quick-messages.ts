import { z } from 'zod';
import { booleanLikeSchema, textSchema } from './common.js';

export const QUICK_MESSAGES_PAGE_SIZE = 20;
/** Largest attachment of a quick message. */
export const QUICK_MESSAGE_MEDIA_MAX_BYTES = 16 * 1024 * 1024;
/** What a quick message may carry: images, audio, video, PDF and office documents. */
export const QUICK_MESSAGE_MEDIA_TYPES = [
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

const shortcode = textSchema.trim().min(1).max(100);
const message = textSchema.min(1).max(65536);

export const createQuickMessageSchema = z.object({
  shortcode,
  message,
  /** Shared with the whole company: admins only. */
  geral: booleanLikeSchema.optional().default(false),
  status: booleanLikeSchema.optional().default(true),
});
export type CreateQuickMessageInput = z.infer<typeof createQuickMessageSchema>;

/** Only the fields sent change. */
export const updateQuickMessageSchema = z.object({
  shortcode: shortcode.optional(),
  message: message.optional(),
  geral: booleanLikeSchema.optional(),
  status: booleanLikeSchema.optional(),
});
export type UpdateQuickMessageInput = z.infer<typeof updateQuickMessageSchema>;

/** The client also sends companyId and userId: the list is always the caller's own plus the shared ones. */
export const listQuickMessagesQuerySchema = z.object({
  searchParam: textSchema.trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
export type ListQuickMessagesQuery = z.infer<typeof listQuickMessagesQuerySchema>;
