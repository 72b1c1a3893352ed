import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { User } from '../users/user.entity.js';

export const MEDIA_TYPES = [
  'chat',
  'image',
  'audio',
  'video',
  'application',
  'document',
  'sticker',
  'locationMessage',
  'vcard',
  'contactMessage',
  'call_log',
  'reactionMessage',
  // The customer wrote, but the content could not be read (see the channel's placeholder).
  'unavailable',
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

type Defaulted =
  | 'wid'
  | 'contactId'
  | 'whatsappId'
  | 'userId'
  | 'body'
  | 'fromMe'
  | 'read'
  | 'ack'
  | 'mediaType'
  | 'mediaUrl'
  | 'mediaName'
  | 'mediaStatus'
  | 'quotedMsgId'
  | 'isDeleted'
  | 'isEdited'
  | 'isSystem'
  | 'participant'
  | 'raw'
  | 'sendError'
  | 'chatContactId'
  | 'createdAt'
  | 'updatedAt';

/**
 * A message of a ticket. `wid` is the channel's message id: unique per connection, so a replayed
 * delivery is stored once. Outbound messages are stored when sent, not when the channel echoes them.
 */
export class Message {
  [OptionalProps]?: Defaulted;
  id!: number;
  companyId!: number;
  /** Null for a message sent to a bare number (a campaign, the API): it belongs to chatContactId's history. */
  ticketId!: number | null;
  /** The contact whose history holds a message without a ticket. */
  chatContactId: number | null = null;
  wid: string | null = null;
  /** The sender for inbound group messages; the ticket's contact otherwise. */
  contactId: number | null = null;
  whatsappId: number | null = null;
  /** The agent who sent it (outbound from the app). */
  userId: number | null = null;
  body = '';
  fromMe = false;
  read = false;
  /** The spec's scale: 0 waiting to be sent, 1 sent, 2 received, 3 read, 4 played (Baileys' status is one higher). */
  ack = 0;
  mediaType: MediaType = 'chat';
  /** Stored file name under the company's media folder (never a path). */
  mediaUrl: string | null = null;
  mediaName: string | null = null;
  /**
   * A received media on its way (`pending`), why it never came (`failed`, `tooLarge`), or that it was removed
   * after the company's media retention (`expired`); null otherwise.
   */
  mediaStatus: 'pending' | 'failed' | 'tooLarge' | 'expired' | null = null;
  quotedMsgId: number | null = null;
  isDeleted = false;
  isEdited = false;
  /** Sent by the platform itself (greeting, menu, rating request...), not typed by a person. */
  isSystem = false;
  participant: string | null = null;
  /** The channel's own message object, needed to quote or download it later. */
  raw: unknown = null;
  /** Why sending our message failed (an error code); null while it is queued or once it left. */
  sendError: string | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const MessageSchema = new EntitySchema<Message>({
  class: Message,
  tableName: 'messages',
  filters: tenantFilter,
  uniques: [{ properties: ['whatsappId', 'wid'] }],
  indexes: [
    { properties: ['ticketId', 'createdAt', 'id'] },
    { properties: ['companyId', 'createdAt'] },
    // A contact's messages sent without a ticket, read with their ticket history.
    {
      name: 'messages_without_ticket',
      expression:
        'create index "messages_without_ticket" on "messages" ("chat_contact_id", "whatsapp_id", "created_at", "id") where "ticket_id" is null',
    },
    { name: 'messages_body_trgm', expression: 'create index "messages_body_trgm" on "messages" using gin ("body" gin_trgm_ops)' },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    ticketId: { kind: 'm:1', entity: () => Ticket, mapToPk: true, nullable: true, fieldName: 'ticket_id', deleteRule: 'cascade' },
    chatContactId: { kind: 'm:1', entity: () => Contact, mapToPk: true, nullable: true, fieldName: 'chat_contact_id', deleteRule: 'cascade' },
    wid: { type: 'string', length: 200, nullable: true },
    contactId: { kind: 'm:1', entity: () => Contact, mapToPk: true, nullable: true, fieldName: 'contact_id', deleteRule: 'set null' },
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, nullable: true, fieldName: 'whatsapp_id', deleteRule: 'set null' },
    userId: { kind: 'm:1', entity: () => User, mapToPk: true, nullable: true, fieldName: 'user_id', deleteRule: 'set null' },
    body: { type: 'text', default: '' },
    fromMe: { type: 'boolean', default: false },
    read: { type: 'boolean', default: false },
    ack: { type: 'integer', default: 0 },
    mediaType: { type: 'string', length: 30, default: 'chat' },
    mediaUrl: { type: 'string', length: 200, nullable: true },
    mediaName: { type: 'string', length: 300, nullable: true },
    mediaStatus: { type: 'string', length: 16, nullable: true, fieldName: 'media_status' },
    quotedMsgId: { kind: 'm:1', entity: () => Message, mapToPk: true, nullable: true, fieldName: 'quoted_msg_id', deleteRule: 'set null' },
    isDeleted: { type: 'boolean', default: false },
    isEdited: { type: 'boolean', default: false },
    isSystem: { type: 'boolean', default: false },
    participant: { type: 'string', length: 100, nullable: true },
    raw: { type: 'json', nullable: true, lazy: true },
    sendError: { type: 'string', length: 100, nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
