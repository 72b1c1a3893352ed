import { randomUUID } from 'node:crypto';
import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { User } from '../users/user.entity.js';

/** An internal chat between users of one company; its owner (the creator) alone edits or deletes it. */
export class Chat {
  [OptionalProps]?: 'uuid' | 'lastMessage' | 'ownerId' | 'createdAt' | 'updatedAt';
  id!: number;
  uuid: string = randomUUID();
  companyId!: number;
  /** Null once the owner's user is gone: nobody edits the chat then, its participants keep talking. */
  ownerId: number | null = null;
  title!: string;
  lastMessage = '';
  createdAt = new Date();
  updatedAt = new Date();
}

/** A participant, with their own unread counter (changed only by single SQL statements, never read-modify-write). */
export class ChatUser {
  [OptionalProps]?: 'unreads' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  chatId!: number;
  userId!: number;
  unreads = 0;
  createdAt = new Date();
  updatedAt = new Date();
}

/** A message of a chat; an attachment is a media file of the company (random name, signed URL). */
export class ChatMessage {
  [OptionalProps]?: 'senderId' | 'message' | 'mediaPath' | 'mediaName' | 'mediaType' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  chatId!: number;
  senderId: number | null = null;
  message = '';
  mediaPath: string | null = null;
  mediaName: string | null = null;
  mediaType: string | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

const timestamps = {
  createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
  updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
} as const;

export const ChatSchema = new EntitySchema<Chat>({
  class: Chat,
  tableName: 'chats',
  filters: tenantFilter,
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    uuid: { type: 'uuid', unique: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade', index: true },
    ownerId: { kind: 'm:1', entity: () => User, mapToPk: true, nullable: true, fieldName: 'owner_id', deleteRule: 'set null' },
    title: { type: 'string', length: 100 },
    lastMessage: { type: 'text', default: '' },
    ...timestamps,
  },
});

export const ChatUserSchema = new EntitySchema<ChatUser>({
  class: ChatUser,
  tableName: 'chat_users',
  filters: tenantFilter,
  uniques: [{ properties: ['chatId', 'userId'] }],
  indexes: [{ properties: ['userId'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    chatId: { kind: 'm:1', entity: () => Chat, mapToPk: true, fieldName: 'chat_id', deleteRule: 'cascade' },
    userId: { kind: 'm:1', entity: () => User, mapToPk: true, fieldName: 'user_id', deleteRule: 'cascade' },
    unreads: { type: 'integer', default: 0 },
    ...timestamps,
  },
});

export const ChatMessageSchema = new EntitySchema<ChatMessage>({
  class: ChatMessage,
  tableName: 'chat_messages',
  filters: tenantFilter,
  indexes: [{ name: 'chat_messages_page', properties: ['chatId', 'createdAt', 'id'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    chatId: { kind: 'm:1', entity: () => Chat, mapToPk: true, fieldName: 'chat_id', deleteRule: 'cascade' },
    senderId: { kind: 'm:1', entity: () => User, mapToPk: true, nullable: true, fieldName: 'sender_id', deleteRule: 'set null' },
    message: { type: 'text', default: '' },
    mediaPath: { type: 'string', length: 200, nullable: true },
    mediaName: { type: 'string', length: 300, nullable: true },
    mediaType: { type: 'string', length: 100, nullable: true },
    ...timestamps,
  },
});
