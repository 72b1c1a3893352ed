import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { Message } from '../messages/message.entity.js';

export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
export type OutboxPresence = 'composing' | 'recording';

type Defaulted =
  | 'ticketId'
  | 'messageId'
  | 'contactId'
  | 'toNumber'
  | 'toLid'
  | 'isGroup'
  | 'body'
  | 'mediaUrl'
  | 'mediaName'
  | 'mimetype'
  | 'voiceNote'
  | 'quotedWid'
  | 'quotedFromMe'
  | 'presence'
  | 'presenceMs'
  | 'presenceSent'
  | 'status'
  | 'attempts'
  | 'plannedAt'
  | 'lastError'
  | 'echoedAt'
  | 'sentAt'
  | 'createdAt'
  | 'updatedAt';

/**
 * One message the platform sends, written before it is sent (the outbox). A sender per connection takes
 * the pending rows in order and moves each to sent or failed; `wid` is chosen before sending, so a row a
 * crash left in `sending` is settled by looking that id up among what the channel recorded, never by
 * sending blindly again. The conversation's copy of the message (`messageId`) shows the same state.
 */
export class OutboundMessage {
  [OptionalProps]?: Defaulted;
  id!: number;
  companyId!: number;
  whatsappId!: number;
  /** The ticket it belongs to; null for a send to a bare number (campaigns, the API). */
  ticketId: number | null = null;
  /** The conversation's copy, shown with a clock until sent. */
  messageId: number | null = null;
  contactId: number | null = null;
  /** The destination: digits of the number, or of the privacy id (LID). */
  toNumber: string | null = null;
  toLid: string | null = null;
  isGroup = false;
  /** Messages of one chat go out in this key's order. */
  chatKey!: string;
  /** The channel message id, generated before sending. */
  wid!: string;
  body = '';
  /** Stored file name (media), never a path. */
  mediaUrl: string | null = null;
  mediaName: string | null = null;
  mimetype: string | null = null;
  voiceNote = false;
  quotedWid: string | null = null;
  quotedFromMe = false;
  /** Shown to the customer for presenceMs before the message ("typing…", "recording audio…"). */
  presence: OutboxPresence | null = null;
  presenceMs = 0;
  presenceSent = false;
  status: OutboxStatus = 'pending';
  attempts = 0;
  /** Not sent before this time (pacing, backoff after a transient error). */
  plannedAt = new Date();
  lastError: string | null = null;
  /** The channel echoed it back: it surely left. */
  echoedAt: Date | null = null;
  sentAt: Date | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const OutboundMessageSchema = new EntitySchema<OutboundMessage>({
  class: OutboundMessage,
  tableName: 'outbound_messages',
  filters: tenantFilter,
  uniques: [{ properties: ['whatsappId', 'wid'] }],
  indexes: [
    // The sender's question: this connection's next due row.
    { name: 'outbound_messages_due', expression: `create index "outbound_messages_due" on "outbound_messages" ("whatsapp_id", "planned_at", "id") where "status" in ('pending', 'sending')` },
    // A chat's earlier unsent rows hold its later ones back.
    { name: 'outbound_messages_chat', expression: `create index "outbound_messages_chat" on "outbound_messages" ("whatsapp_id", "chat_key", "id") where "status" in ('pending', 'sending')` },
    { properties: ['messageId'] },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, fieldName: 'whatsapp_id', deleteRule: 'cascade' },
    ticketId: { type: 'integer', nullable: true },
    messageId: { kind: 'm:1', entity: () => Message, mapToPk: true, nullable: true, fieldName: 'message_id', deleteRule: 'cascade' },
    contactId: { type: 'integer', nullable: true },
    toNumber: { type: 'string', length: 50, nullable: true },
    toLid: { type: 'string', length: 50, nullable: true },
    isGroup: { type: 'boolean', default: false },
    chatKey: { type: 'string', length: 80 },
    wid: { type: 'string', length: 100 },
    body: { type: 'text', default: '' },
    mediaUrl: { type: 'string', length: 200, nullable: true },
    mediaName: { type: 'string', length: 300, nullable: true },
    mimetype: { type: 'string', length: 100, nullable: true },
    voiceNote: { type: 'boolean', default: false },
    quotedWid: { type: 'string', length: 200, nullable: true },
    quotedFromMe: { type: 'boolean', default: false },
    presence: { type: 'string', length: 10, nullable: true },
    presenceMs: { type: 'integer', default: 0 },
    presenceSent: { type: 'boolean', default: false },
    status: { type: 'string', length: 10, default: 'pending' },
    attempts: { type: 'integer', default: 0 },
    plannedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    lastError: { type: 'string', length: 200, nullable: true },
    echoedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    sentAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
