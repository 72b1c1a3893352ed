import { z } from 'zod';
import { booleanLikeSchema, idSchema, textSchema } from './common.js';

/**
 * The external messages API (spec 02 section 7, spec 04 section 14): `POST /api/messages/send` with a
 * connection's token, and `GET /api/messages/{id}` for a sent message's state. These schemas validate the
 * requests on the server, feed the form on the Messages API screen and generate the OpenAPI document.
 */

/** Largest text (or caption) the API sends. */
export const API_MESSAGE_MAX_LENGTH = 4096;
/** Files one multipart request may carry in `medias`. */
export const API_MEDIA_MAX_FILES = 10;
/** Largest file: what WhatsApp takes for a video or an audio. */
export const API_MEDIA_MAX_BYTES = 16 * 1024 * 1024;
/** What `medias` may be: images, audio, video, PDF, text and office documents. */
export const API_MEDIA_TYPES = [
  'image/*',
  'audio/*',
  'video/*',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/zip',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
] as const;
/** What the screen's file input offers. */
export const API_MEDIA_ACCEPT = API_MEDIA_TYPES.join(',');
/** The answer's `mensagem`, kept from the old server for the tools written against it. */
export const API_SENT_TEXT = 'Mensagem enviada';
/** Longest Idempotency-Key (what Stripe accepts; the IETF draft sets no limit). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** A WhatsApp number with its country code: digits, whatever mask it came with. */
export const apiNumberSchema = textSchema
  .trim()
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(textSchema.min(8, { message: 'at least 8 digits' }).max(15, { message: 'at most 15 digits' }));

const closeTicket = booleanLikeSchema.optional().default(false);

/** JSON body: a text to a number, optionally closing the ticket after it. */
export const apiSendTextSchema = z.object({
  number: apiNumberSchema,
  body: textSchema.max(API_MESSAGE_MAX_LENGTH).refine((v) => v.trim().length > 0, { message: 'required' }),
  closeTicket,
});
export type ApiSendTextInput = z.infer<typeof apiSendTextSchema>;

/** Multipart fields beside the `medias` files: `body` is every file's caption. */
export const apiSendMediaFieldsSchema = z.object({
  number: apiNumberSchema,
  body: textSchema.max(API_MESSAGE_MAX_LENGTH).optional().default(''),
  closeTicket,
});
export type ApiSendMediaFields = z.infer<typeof apiSendMediaFieldsSchema>;

/**
 * The Idempotency-Key header (draft-ietf-httpapi-idempotency-key-header): an sf-string (`"…"`) or, as
 * most clients send it, the bare value; visible ASCII only.
 */
export const idempotencyKeySchema = textSchema
  .trim()
  .transform((v) => (v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v))
  .pipe(
    textSchema
      .min(1)
      .max(IDEMPOTENCY_KEY_MAX_LENGTH)
      .regex(/^[\x21-\x7e]+$/, { message: 'visible ASCII characters only' }),
  );

export const apiMessageIdParamSchema = z.object({ id: idSchema });

/** One message a send queued: the text, or one per file. */
export const apiQueuedMessageSchema = z.object({
  id: z.number().int(),
  /** The WhatsApp message id, chosen before sending. */
  wid: textSchema,
  type: textSchema,
});

/** The answer of POST /api/messages/send. */
export const apiSendResponseSchema = z.object({
  mensagem: z.literal(API_SENT_TEXT),
  /** The first (for a text, the only) message's id: GET /api/messages/{id} follows it. */
  messageId: z.number().int(),
  ticketId: z.number().int(),
  contactId: z.number().int(),
  /** The number as WhatsApp knows it (digits). */
  number: textSchema,
  status: z.literal('queued'),
  messages: z.array(apiQueuedMessageSchema),
  /** Whether the ticket was closed after the send (closeTicket). */
  ticketClosed: z.boolean(),
});
export type ApiSendResponse = z.infer<typeof apiSendResponseSchema>;

export const API_MESSAGE_STATES = ['pending', 'sending', 'sent', 'delivered', 'read', 'failed'] as const;
export type ApiMessageState = (typeof API_MESSAGE_STATES)[number];

/** The answer of GET /api/messages/{id}. */
export const apiMessageStatusSchema = z.object({
  id: z.number().int(),
  wid: textSchema,
  ticketId: z.number().int().nullable(),
  contactId: z.number().int().nullable(),
  number: textSchema.nullable(),
  status: z.enum(API_MESSAGE_STATES),
  /** The spec's scale: 0 waiting, 1 sent, 2 delivered, 3 read, 4 played. */
  ack: z.number().int(),
  /** Why it was not sent (an error code), when it failed. */
  error: textSchema.nullable(),
  createdAt: textSchema,
  sentAt: textSchema.nullable(),
});
export type ApiMessageStatus = z.infer<typeof apiMessageStatusSchema>;

/** Every error of this API: `{"error": CODE}`, validation errors with the failing fields. */
export const apiErrorSchema = z.object({
  error: textSchema,
  fields: z.array(z.object({ path: textSchema, message: textSchema })).optional(),
  retryAfter: z.number().int().optional(),
});
