import {
  CHAT_MESSAGES_PAGE_SIZE,
  CHATS_PAGE_SIZE,
  type ChatMessageView,
  type ChatView,
  type CreateChatInput,
  type ListChatMessagesQuery,
  type ListChatsQuery,
  type SendChatMessageInput,
  type UpdateChatInput,
} from '@atrium/shared';
import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pageOf, type ServiceContext } from '../../context.js';
import { escapeLike } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { MediaStore } from '../../media/storage.js';
import { User } from '../users/user.entity.js';
import { Chat, ChatMessage, ChatUser } from './chat.entity.js';

export interface ChatDeps {
  media: MediaStore;
}

/** A chat named in a path: its id or its uuid. */
export type ChatKey = number | string;

/** What an attachment looks like once the upload middleware has checked its type and size. */
export interface ChatFile {
  data: Buffer;
  mimetype: string;
  filename: string;
}

const invalid = (path: string, message: string) => new AppError('ERR_VALIDATION', { fields: [{ path, message }] });

const namesOf = async (em: EntityManager, ids: number[]): Promise<Map<number, string>> => {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const users = await em.find(User, { id: { $in: unique } }, { fields: ['id', 'name'] });
  return new Map(users.map((u) => [u.id, u.name]));
};

/** Chats as the API shows them, with their participants (and each one's unread counter) in one query each. */
export const presentChats = async (em: EntityManager, chats: Chat[]): Promise<ChatView<Date>[]> => {
  if (chats.length === 0) return [];
  // Counters change by plain SQL: read them fresh, not from the identity map.
  const members = await em.find(ChatUser, { chatId: { $in: chats.map((c) => c.id) } }, { orderBy: { id: 'asc' }, refresh: true });
  const names = await namesOf(em, members.map((m) => m.userId));
  return chats.map((chat) => ({
    id: chat.id,
    uuid: chat.uuid,
    title: chat.title,
    ownerId: chat.ownerId,
    lastMessage: chat.lastMessage,
    companyId: chat.companyId,
    users: members
      .filter((m) => m.chatId === chat.id)
      .map((m) => ({ userId: m.userId, unreads: m.unreads, user: { id: m.userId, name: names.get(m.userId) ?? '' } })),
    createdAt: chat.createdAt,
    updatedAt: chat.updatedAt,
  }));
};

const presentChat = async (em: EntityManager, chat: Chat) => (await presentChats(em, [chat]))[0];

const presentMessages = async (em: EntityManager, media: MediaStore, messages: ChatMessage[]): Promise<ChatMessageView<Date>[]> => {
  const names = await namesOf(em, messages.flatMap((m) => (m.senderId === null ? [] : [m.senderId])));
  return messages.map((m) => ({
    id: m.id,
    chatId: m.chatId,
    message: m.message,
    senderId: m.senderId,
    sender: m.senderId === null ? null : { id: m.senderId, name: names.get(m.senderId) ?? '' },
    mediaType: m.mediaType,
    mediaName: m.mediaName,
    mediaUrl: media.url(m.companyId, m.mediaPath),
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  }));
};

/** A chat of the caller's company (another company's is simply not found). */
const findChat = async (em: EntityManager, key: ChatKey) => {
  const chat = await em.findOne(Chat, typeof key === 'number' ? { id: key } : { uuid: key });
  if (!chat) throw new AppError('ERR_NO_CHAT_FOUND');
  return chat;
};

/** Reading or writing a chat: its participants only (the original let anyone of the company). */
const findParticipating = async (ctx: ServiceContext, key: ChatKey) => {
  const chat = await findChat(ctx.em, key);
  const member = await ctx.em.count(ChatUser, { chatId: chat.id, userId: ctx.actor.userId });
  if (member === 0) throw new AppError('ERR_NO_PERMISSION');
  return chat;
};

/** Editing or deleting a chat: its owner only. */
const findOwned = async (ctx: ServiceContext, key: ChatKey) => {
  const chat = await findParticipating(ctx, key);
  if (chat.ownerId !== ctx.actor.userId) throw new AppError('ERR_NO_PERMISSION');
  return chat;
};

/** The listed users, who must be users of the caller's company, plus the owner; at least one besides the owner. */
const participantsOf = async (em: EntityManager, ownerId: number, listed: number[]) => {
  const others = [...new Set(listed)].filter((id) => id !== ownerId);
  if (others.length === 0) throw invalid('users', 'at least one other user');
  const found = await em.count(User, { id: { $in: others } });
  if (found !== others.length) throw invalid('users', 'unknown user');
  return [ownerId, ...others];
};

/** GET /chats: the caller's chats (with `unread`, those they have not read), most recently active first, searching the title. */
export const listChats = async (ctx: ServiceContext, query: ListChatsQuery) => {
  const memberOf = await ctx.em.find(ChatUser, { userId: ctx.actor.userId, ...(query.unread ? { unreads: { $gt: 0 } } : {}) }, { fields: ['chatId'] });
  const where: FilterQuery<Chat> = { id: { $in: memberOf.map((m) => m.chatId) } };
  if (query.searchParam) where.title = { $ilike: `%${escapeLike(query.searchParam)}%` };
  const [chats, count] = await ctx.em.findAndCount(Chat, where, {
    orderBy: { updatedAt: 'desc', id: 'desc' },
    limit: CHATS_PAGE_SIZE,
    offset: (query.pageNumber - 1) * CHATS_PAGE_SIZE,
  });
  const page = pageOf(await presentChats(ctx.em, chats), count, query.pageNumber, CHATS_PAGE_SIZE);
  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

/** GET /chats/{id or uuid}. */
export const getChat = async (ctx: ServiceContext, key: ChatKey) => presentChat(ctx.em, await findParticipating(ctx, key));

/** POST /chats: the caller owns it and takes part, whoever is listed. */
export const createChat = async (ctx: ServiceContext, input: CreateChatInput) => {
  const ownerId = ctx.actor.userId;
  const chat = await ctx.em.transactional(async (tx) => {
    const userIds = await participantsOf(tx, ownerId, input.users);
    const created = tx.create(Chat, { companyId: requireTenant(tx), ownerId, title: input.title });
    await tx.flush();
    for (const userId of userIds) tx.create(ChatUser, { companyId: created.companyId, chatId: created.id, userId });
    await tx.flush();
    return created;
  });
  const view = await presentChat(ctx.em, chat);
  ctx.events.emit('chat.changed', { companyId: chat.companyId, action: 'create', chat: view, removedUserIds: [] });
  return view;
};

/** PUT /chats/{id}: the title, and the participants when `users` is sent (those who stay keep their unread counters). */
export const updateChat = async (ctx: ServiceContext, key: ChatKey, input: UpdateChatInput) => {
  const found = await findOwned(ctx, key);
  const removedUserIds = await ctx.em.transactional(async (tx) => {
    const chat = await tx.findOneOrFail(Chat, found.id);
    if (input.title !== undefined) chat.title = input.title;
    chat.updatedAt = new Date();
    let removed: number[] = [];
    if (input.users !== undefined) {
      const wanted = await participantsOf(tx, ctx.actor.userId, input.users);
      const current = await tx.find(ChatUser, { chatId: chat.id });
      const held = new Set(current.map((m) => m.userId));
      removed = current.filter((m) => !wanted.includes(m.userId)).map((m) => m.userId);
      if (removed.length > 0) await tx.nativeDelete(ChatUser, { chatId: chat.id, userId: { $in: removed } });
      for (const userId of wanted.filter((id) => !held.has(id))) tx.create(ChatUser, { companyId: chat.companyId, chatId: chat.id, userId });
    }
    await tx.flush();
    return removed;
  });
  const view = await presentChat(ctx.em, await ctx.em.refreshOrFail(found));
  ctx.events.emit('chat.changed', { companyId: found.companyId, action: 'update', chat: view, removedUserIds });
  return view;
};

/** DELETE /chats/{id}: the chat, its messages and their files. */
export const deleteChat = async (ctx: ServiceContext, deps: ChatDeps, key: ChatKey) => {
  const chat = await findOwned(ctx, key);
  const userIds = (await ctx.em.find(ChatUser, { chatId: chat.id }, { fields: ['userId'] })).map((m) => m.userId);
  const files = await ctx.em.find(ChatMessage, { chatId: chat.id, mediaPath: { $ne: null } }, { fields: ['mediaPath'] });
  // Participants and messages go with it (ON DELETE CASCADE).
  await ctx.em.nativeDelete(Chat, { id: chat.id });
  for (const f of files) if (f.mediaPath) await deps.media.remove(chat.companyId, f.mediaPath).catch(() => undefined);
  ctx.events.emit('chat.deleted', { companyId: chat.companyId, id: chat.id, userIds });
};

/**
 * GET /chats/{id}/messages: pages of 20 from the newest; each page is returned oldest first, so the screen
 * prepends older pages above what it shows.
 */
export const listChatMessages = async (ctx: ServiceContext, deps: ChatDeps, key: ChatKey, query: ListChatMessagesQuery) => {
  const chat = await findParticipating(ctx, key);
  const [rows, count] = await ctx.em.findAndCount(
    ChatMessage,
    { chatId: chat.id },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: CHAT_MESSAGES_PAGE_SIZE, offset: (query.pageNumber - 1) * CHAT_MESSAGES_PAGE_SIZE },
  );
  const page = pageOf(await presentMessages(ctx.em, deps.media, rows.reverse()), count, query.pageNumber, CHAT_MESSAGES_PAGE_SIZE);
  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

/**
 * POST /chats/{id}/messages: text, an attachment, or both. The chat's last message becomes "{sender}: {text}";
 * the sender's unread counter is zeroed and everyone else's goes up by one in the same single UPDATE.
 */
export const sendChatMessage = async (ctx: ServiceContext, deps: ChatDeps, key: ChatKey, input: SendChatMessageInput, file?: ChatFile) => {
  const chat = await findParticipating(ctx, key);
  const text = input.message.trim();
  if (!text && !file) throw invalid('message', 'required');
  const sender = await ctx.em.findOneOrFail(User, ctx.actor.userId, { fields: ['id', 'name'] });
  // The file is written before the transaction (under a random name) and removed again if it rolls back.
  const stored = file ? await deps.media.save(chat.companyId, file) : null;
  let message: ChatMessage;
  try {
    message = await ctx.em.transactional(async (tx) => {
      const created = tx.create(ChatMessage, {
        companyId: chat.companyId,
        chatId: chat.id,
        senderId: sender.id,
        message: text,
        mediaPath: stored?.fileName ?? null,
        mediaName: stored?.mediaName ?? null,
        mediaType: stored?.mimetype ?? null,
      });
      await tx.flush();
      const companyId = requireTenant(tx);
      await tx.execute(`update chats set last_message = ?, updated_at = now() where id = ? and company_id = ?`, [
        `${sender.name}: ${text || stored?.mediaName || ''}`.slice(0, 1000),
        chat.id,
        companyId,
      ]);
      await tx.execute(
        `update chat_users set unreads = case when user_id = ? then 0 else unreads + 1 end, updated_at = now()
          where chat_id = ? and company_id = ?`,
        [sender.id, chat.id, companyId],
      );
      return created;
    });
  } catch (err) {
    if (stored) await deps.media.remove(chat.companyId, stored.fileName).catch(() => undefined);
    throw err;
  }
  const [view] = await presentMessages(ctx.em, deps.media, [message]);
  const chatView = await presentChat(ctx.em, await ctx.em.refreshOrFail(chat));
  ctx.events.emit('chat.message', { companyId: chat.companyId, message: view, chat: chatView });
  return view;
};

/** POST /chats/{id}/read: the caller has read the chat (whatever a body says about who). */
export const markChatRead = async (ctx: ServiceContext, key: ChatKey) => {
  const chat = await findParticipating(ctx, key);
  await ctx.em.execute(`update chat_users set unreads = 0, updated_at = now() where chat_id = ? and user_id = ? and company_id = ?`, [
    chat.id,
    ctx.actor.userId,
    requireTenant(ctx.em),
  ]);
  const view = await presentChat(ctx.em, chat);
  ctx.events.emit('chat.changed', { companyId: chat.companyId, action: 'update', chat: view, removedUserIds: [] });
  return view;
};
