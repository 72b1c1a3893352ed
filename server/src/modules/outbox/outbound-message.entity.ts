import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { Message } from '../messages/message.entity.js';
import { OutboxPacing } from './outbox-pacing.entity.js';

export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
export type OutboxPresence = 'composing' | 'recording';

/** Who asked for a send: a report or a status call finds a row's outcome by it. */
export const OUTBOX_SOURCE_KINDS = ['agent', 'system', 'chatbot', 'schedule', 'campaign', 'flow', 'integration', 'api'] as const;
export type OutboxSourceKind = (typeof OUTBOX_SOURCE_KINDS)[number];

/**
 * The claim's first order key: a conversation's rows (an agent's reply, an automation's answer, a
 * platform text) always leave before bulk rows (campaigns, bulk API sends) of the same connection.
 */
export const OUTBOX_PRIORITY = { conversation: 0, bulk: 1 } as const;
export type OutboxPriority = keyof typeof OUTBOX_PRIORITY;

type Defaulted =
  | 'ticketId'
  | 'messageId'
  | 'contactId'
  | 'toNumber'
  | 'toLid'
  | 'toName'
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
  | 'failedAt'
  | 'deliveredAt'
  | 'readAt'
  | 'priority'
  | 'bulkSeq'
  | 'pacingId'
  | 'sourceKind'
  | 'sourceId'
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
  /** The conversation's copy, shown with a clock until sent (a bulk row's: written when it settles). */
  messageId: number | null = null;
  contactId: number | null = null;
  /** The destination: digits of the number, or of the privacy id (LID). */
  toNumber: string | null = null;
  toLid: string | null = null;
  /**
   * A bulk row's contact name (a list's): its contact is found or created, and its copy written in the
   * contact's history, when it is sent or fails (`messageId` null until then), not when it is queued.
   */
  toName: string | null = null;
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
  /** The outcome, one time each: sent, failed (also by a late error receipt), delivered, read. */
  sentAt: Date | null = null;
  failedAt: Date | null = null;
  deliveredAt: Date | null = null;
  readAt: Date | null = null;
  /** 0: a conversation's row, 1: bulk (see OUTBOX_PRIORITY). */
  priority = 0;
  /** A bulk row's place in its own run: rows of two runs on one connection alternate. */
  bulkSeq = 0;
  /** The connection's pacing policy this row goes by (outbox_pacing); null: not paced. */
  pacingId: number | null = null;
  sourceKind: OutboxSourceKind = 'system';
  /** The asking record's id (a user, a schedule, a campaign's row, a flow, an API request); null when none. */
  sourceId: number | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const OutboundMessageSchema = new EntitySchema<OutboundMessage>({
  class: OutboundMessage,
  tableName: 'outbound_messages',
  filters: tenantFilter,
  uniques: [{ properties: ['whatsappId', 'wid'] }],
  indexes: [
    // When a connection's next row is planned (the lane's timer, the sweep).
    { name: 'outbound_messages_due', expression: `create index "outbound_messages_due" on "outbound_messages" ("whatsapp_id", "planned_at", "id") where "status" in ('pending', 'sending')` },
    // The claim's question, in the claim's order: this connection's next row, a conversation's before bulk.
    {
      name: 'outbound_messages_claim',
      expression: `create index "outbound_messages_claim" on "outbound_messages" ("whatsapp_id", "priority", "bulk_seq", "planned_at", "id") where "status" = 'pending'`,
    },
    // A chat's earlier unsent rows hold its later ones back.
    { name: 'outbound_messages_chat', expression: `create index "outbound_messages_chat" on "outbound_messages" ("whatsapp_id", "chat_key", "id") where "status" in ('pending', 'sending')` },
    { properties: ['messageId'] },
    // A report or a status call: the rows one source asked for.
    {
      name: 'outbound_messages_source',
      expression: `create index "outbound_messages_source" on "outbound_messages" ("company_id", "source_kind", "source_id") where "source_id" is not null`,
    },
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
    toName: { type: 'string', length: 100, nullable: true },
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
    failedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    deliveredAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    readAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    priority: { type: 'smallint', default: 0 },
    bulkSeq: { type: 'integer', default: 0 },
    pacingId: { kind: 'm:1', entity: () => OutboxPacing, mapToPk: true, nullable: true, fieldName: 'pacing_id', deleteRule: 'set null' },
    sourceKind: { type: 'string', length: 20, default: 'system' },
    sourceId: { type: 'integer', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
