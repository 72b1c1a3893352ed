import { z } from 'zod';
import { booleanLikeSchema, textSchema } from './common.js';

export const ANNOUNCEMENTS_PAGE_SIZE = 20;
/** The bell lists at most this many active announcements. */
export const ANNOUNCEMENTS_BELL_LIMIT = 100;
/** Largest image an announcement may carry. */
export const ANNOUNCEMENT_MEDIA_MAX_BYTES = 5 * 1024 * 1024;
/** What an announcement may carry: png, jpg, jpeg (spec 02 section 5). */
export const ANNOUNCEMENT_MEDIA_TYPES = ['image/png', 'image/jpeg'] as const;
export const ANNOUNCEMENT_MEDIA_EXTENSIONS = ['.png', '.jpg', '.jpeg'] as const;

/** 1 high (red), 2 medium (orange), 3 low (grey). */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export const ANNOUNCEMENT_DEFAULT_PRIORITY = 3;

const title = textSchema.trim().min(1).max(200);
const text = textSchema.trim().min(1).max(65536);
/** A number, or a numeric string from a form's select; never a boolean coerced to 1. */
const priority = z
  .union([z.number(), textSchema.trim().regex(/^\d+$/).transform(Number)])
  .pipe(z.number().int().min(1).max(3));

export const createAnnouncementSchema = z.object({
  title,
  text,
  priority: priority.optional().default(ANNOUNCEMENT_DEFAULT_PRIORITY),
  status: booleanLikeSchema.optional().default(true),
});
export type CreateAnnouncementInput = z.infer<typeof createAnnouncementSchema>;

/** Only the fields sent change: no defaults here (zod applies a default even inside .partial()). */
export const updateAnnouncementSchema = z.object({
  title: title.optional(),
  text: text.optional(),
  priority: priority.optional(),
  status: booleanLikeSchema.optional(),
});
export type UpdateAnnouncementInput = z.infer<typeof updateAnnouncementSchema>;

/** The client also sends companyId: announcements are global, so it is ignored. */
export const listAnnouncementsQuerySchema = z.object({
  searchParam: textSchema.trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
export type ListAnnouncementsQuery = z.infer<typeof listAnnouncementsQuerySchema>;

/** A realtime `company-announcement` payload (spec 01 section 7: create, update, delete). */
export type AnnouncementEventPayload<T = unknown> =
  | { action: 'create' | 'update'; record: T }
  | { action: 'delete'; id: number };
