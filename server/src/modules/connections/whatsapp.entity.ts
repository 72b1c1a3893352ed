import { EntitySchema, HiddenProps, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Queue } from '../queues/queue.entity.js';

export const CONNECTION_STATUSES = ['OPENING', 'qrcode', 'PAIRING', 'CONNECTED', 'TIMEOUT', 'DISCONNECTED'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

type Defaulted =
  | 'status'
  | 'qrcode'
  | 'disconnectReason'
  | 'retries'
  | 'isDefault'
  | 'provider'
  | 'number'
  | 'greetingMessage'
  | 'complationMessage'
  | 'outOfHoursMessage'
  | 'ratingMessage'
  | 'expiresInactiveMessage'
  | 'expiresTicket'
  | 'timeUseBotQueues'
  | 'maxUseBotQueues'
  | 'transferQueueId'
  | 'timeToTransfer'
  | 'integrationId'
  | 'promptId'
  | 'flowIdWelcome'
  | 'flowIdNotPhrase'
  | 'tokenHash'
  | 'downSince'
  | 'downNotified'
  | 'createdAt'
  | 'updatedAt';

/** A WhatsApp connection (a phone number) of a company: the product calls it "whatsapp" on the wire. */
export class Whatsapp {
  [OptionalProps]?: Defaulted;
  [HiddenProps]?: 'tokenHash';
  id!: number;
  companyId!: number;
  name!: string;
  status: ConnectionStatus = 'OPENING';
  qrcode = '';
  /** Why the session last closed (logged out, replaced by another session, version refused...); '' once connected. */
  disconnectReason = '';
  retries = 0;
  isDefault = false;
  provider = 'beta';
  /** The connected phone's number, once known. */
  number = '';
  greetingMessage = '';
  complationMessage = '';
  outOfHoursMessage = '';
  ratingMessage = '';
  expiresInactiveMessage = '';
  expiresTicket = 0;
  timeUseBotQueues = 0;
  maxUseBotQueues = 3;
  transferQueueId: number | null = null;
  timeToTransfer = 0;
  integrationId: number | null = null;
  promptId: number | null = null;
  /** The flow that greets the first message of a conversation (flows module; cleared when it is deleted). */
  flowIdWelcome: number | null = null;
  /** The flow that answers, once per conversation, a message nothing else answered. */
  flowIdNotPhrase: number | null = null;
  /** SHA-256 of the connection's API token; the token itself is shown once. */
  tokenHash: string | null = null;
  /**
   * Since when a linked number has been down (its session left CONNECTED without being unlinked); null while
   * connected. `downNotified`: the admins were told it stays down (once per outage).
   */
  downSince: Date | null = null;
  downNotified = false;
  createdAt = new Date();
  updatedAt = new Date();
}

export const WhatsappSchema = new EntitySchema<Whatsapp>({
  class: Whatsapp,
  tableName: 'whatsapps',
  filters: tenantFilter,
  uniques: [{ properties: ['companyId', 'name'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    name: { type: 'string', length: 100 },
    status: { type: 'string', length: 20, default: 'OPENING' },
    qrcode: { type: 'text', default: '' },
    disconnectReason: { type: 'string', length: 200, default: '' },
    retries: { type: 'integer', default: 0 },
    isDefault: { type: 'boolean', default: false },
    provider: { type: 'string', length: 20, default: 'beta' },
    number: { type: 'string', length: 50, default: '' },
    greetingMessage: { type: 'text', default: '' },
    complationMessage: { type: 'text', default: '' },
    outOfHoursMessage: { type: 'text', default: '' },
    ratingMessage: { type: 'text', default: '' },
    expiresInactiveMessage: { type: 'text', default: '' },
    expiresTicket: { type: 'integer', default: 0 },
    timeUseBotQueues: { type: 'integer', default: 0 },
    maxUseBotQueues: { type: 'integer', default: 3 },
    transferQueueId: { kind: 'm:1', entity: () => Queue, mapToPk: true, nullable: true, fieldName: 'transfer_queue_id', deleteRule: 'set null' },
    timeToTransfer: { type: 'integer', default: 0 },
    integrationId: { type: 'integer', nullable: true },
    promptId: { type: 'integer', nullable: true },
    flowIdWelcome: { type: 'integer', nullable: true, fieldName: 'flow_id_welcome' },
    flowIdNotPhrase: { type: 'integer', nullable: true, fieldName: 'flow_id_not_phrase' },
    tokenHash: { type: 'string', length: 128, nullable: true, hidden: true, unique: true },
    downSince: { type: 'datetime', columnType: 'timestamptz', nullable: true, fieldName: 'down_since' },
    downNotified: { type: 'boolean', default: false, fieldName: 'down_notified' },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/** The queues a connection offers in its menu. */
export class WhatsappQueue {
  whatsappId!: number;
  queueId!: number;
  companyId!: number;
}

export const WhatsappQueueSchema = new EntitySchema<WhatsappQueue>({
  class: WhatsappQueue,
  tableName: 'whatsapp_queues',
  filters: tenantFilter,
  properties: {
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, primary: true, fieldName: 'whatsapp_id', deleteRule: 'cascade' },
    queueId: { kind: 'm:1', entity: () => Queue, mapToPk: true, primary: true, fieldName: 'queue_id', deleteRule: 'cascade', index: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
  },
});

/** A channel session's credentials and keys (Baileys auth state), kept in PostgreSQL, never on disk. */
export class ChannelAuthKey {
  whatsappId!: number;
  key!: string;
  companyId!: number;
  value!: unknown;
  /** Last written: a signal session or sender key is rewritten with every message it carries, so this says when it was last used. */
  updatedAt: Date = new Date();
}

export const ChannelAuthKeySchema = new EntitySchema<ChannelAuthKey>({
  class: ChannelAuthKey,
  tableName: 'channel_auth_keys',
  filters: tenantFilter,
  properties: {
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, primary: true, fieldName: 'whatsapp_id', deleteRule: 'cascade' },
    key: { type: 'string', length: 300, primary: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    value: { type: 'json' },
    updatedAt: { type: 'datetime', fieldName: 'updated_at', defaultRaw: 'now()', onUpdate: () => new Date() },
  },
});

/**
 * Which server process runs a connection's session (one owner per session): taken, renewed and handed over
 * by `channels/lease.ts` through plain SQL. A process that stops renewing (it died) loses it at `expiresAt`.
 */
export class ConnectionLease {
  whatsappId!: number;
  owner!: string;
  expiresAt!: Date;
}

export const ConnectionLeaseSchema = new EntitySchema<ConnectionLease>({
  class: ConnectionLease,
  tableName: 'connection_leases',
  properties: {
    whatsappId: { kind: 'm:1', entity: () => Whatsapp, mapToPk: true, primary: true, fieldName: 'whatsapp_id', deleteRule: 'cascade' },
    owner: { type: 'string', length: 100 },
    expiresAt: { type: 'datetime', columnType: 'timestamptz', fieldName: 'expires_at', index: true },
  },
});
