import { z } from 'zod';
import { textSchema, idSchema, instantSchema } from './common.js';
import { PAGE_SIZE } from '../constants.js';

/** Scheduled messages (spec 01 sections 3-5, spec 02 sections 3-5, spec 03 section 13). */
export const SCHEDULES_PAGE_SIZE = PAGE_SIZE.schedules;
/** PENDENTE until sent (also between retries); AGENDADA while a send is in flight; ENVIADA once sent; ERRO after the last failed attempt. */
export const SCHEDULE_STATUSES = ['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO'] as const;
export type ScheduleStatusName = (typeof SCHEDULE_STATUSES)[number];
export const SCHEDULE_BODY_MIN = 5;
export const SCHEDULE_BODY_MAX = 65536;
/** The modal's default send time: now plus one hour (spec 01 section 9). */
export const SCHEDULE_DEFAULT_DELAY_MS = 60 * 60 * 1000;
/** The attachment: a picture, .png, .jpg or .jpeg (spec 01 section 5). */
export const SCHEDULE_MEDIA_TYPES = ['image/png', 'image/jpeg'] as const;
export const SCHEDULE_MEDIA_EXTENSIONS = ['.png', '.jpg', '.jpeg'] as const;
/** WhatsApp's own limit for pictures. */
export const SCHEDULE_MEDIA_MAX_BYTES = 5 * 1024 * 1024;

/** Whether a file name has one of the attachment extensions (case-insensitive). */
export const isScheduleMediaName = (name: string): boolean =>
  SCHEDULE_MEDIA_EXTENSIONS.some((ext) => name.trim().toLowerCase().endsWith(ext));

const id = idSchema;
/** An instant: an ISO string (with offset) or a Date; an unreadable value is invalid, never "now". */
const instant = instantSchema;
const body = textSchema.trim().min(SCHEDULE_BODY_MIN).max(SCHEDULE_BODY_MAX);

export const createScheduleSchema = z.object({
  body,
  contactId: id,
  sendAt: instant,
  /** The connection to send through; the company's default connection when absent. */
  whatsappId: id.nullable().optional(),
});
export type CreateScheduleInput = z.infer<typeof createScheduleSchema>;

/** Only the fields sent change (the client may send the whole record; unknown keys are ignored). */
export const updateScheduleSchema = z.object({
  body: body.optional(),
  contactId: id.optional(),
  sendAt: instant.optional(),
  whatsappId: id.nullable().optional(),
});
export type UpdateScheduleInput = z.infer<typeof updateScheduleSchema>;

/**
 * GET /schedules: 20 per page by sendAt, `searchParam` over the body and the contact's name. The optional
 * `sendAtFrom`/`sendAtTo` window (instants, `to` exclusive) lets the calendar load one month.
 */
export const listSchedulesQuerySchema = z.object({
  searchParam: textSchema.trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  contactId: id.optional(),
  sendAtFrom: instant.optional(),
  sendAtTo: instant.optional(),
});
export type ListSchedulesQuery = z.infer<typeof listSchedulesQuerySchema>;
