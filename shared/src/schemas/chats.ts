import { z } from 'zod';
import { booleanLikeSchema, idSchema, textSchema } from './common.js';

/** Messages per page of GET /chats/{id}/messages (newest first on the server, shown oldest first). */
export const CHAT_MESSAGES_PAGE_SIZE = 20;
/** Chats per page of GET /chats. */
export const CHATS_PAGE_SIZE = 50;
/** Largest chat message text. */
export const CHAT_MESSAGE_MAX_LENGTH = 4096;
/** Largest chat attachment: the same limit as a ticket's media. */
export const CHAT_MEDIA_MAX_BYTES = 64 * 1024 * 1024;
/** What a chat attachment may be: images, audio, video, PDF, text and office documents. */
export const CHAT_MEDIA_TYPES = [
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

const title = textSchema.trim().min(1).max(100);
/** The client sends users as `[{id}]` (objects with more fields are fine); plain ids are accepted too. */
const chatUser = z.union([idSchema, z.looseObject({ id: idSchema })]).transform((u) => (typeof u === 'number' ? u : u.id));
const users = z.array(chatUser).max(500);

/** POST /chats: a title and at least one other user (spec 02 section 5); the caller is always the owner and a participant. */
export const createChatSchema = z.object({
  title,
  users: users.min(1),
});
export type CreateChatInput = z.infer<typeof createChatSchema>;

/** PUT /chats/{id}: only the fields sent change; `users` replaces the participants (the owner stays). */
export const updateChatSchema = z.object({
  title: title.optional(),
  users: users.min(1).optional(),
});
export type UpdateChatInput = z.infer<typeof updateChatSchema>;

/** POST /chats/{id}/messages (JSON, or multipart with `medias`): text may be empty only when a file comes with it. */
export const sendChatMessageSchema = z.object({
  message: textSchema.max(CHAT_MESSAGE_MAX_LENGTH).optional().default(''),
});
export type SendChatMessageInput = z.infer<typeof sendChatMessageSchema>;

export const listChatsQuerySchema = z.object({
  searchParam: textSchema.trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  /** Only the chats with messages the caller has not read (the chat bell): `count` is then how many. */
  unread: booleanLikeSchema.optional().default(false),
});
export type ListChatsQuery = z.infer<typeof listChatsQuerySchema>;

export const listChatMessagesQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
export type ListChatMessagesQuery = z.infer<typeof listChatMessagesQuerySchema>;

/** A chat in a path: its numeric id or its uuid (the /chats/{uuid} route of the screen). */
export const chatParamSchema = z.object({
  id: z.union([idSchema, z.uuid()]),
});
