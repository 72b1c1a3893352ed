import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import type { QueueIntegrationType, WebhookAuthType } from '@atrium/shared';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Message } from '../messages/message.entity.js';
import { Ticket } from '../tickets/ticket.entity.js';

/**
 * An external bot a queue or a connection hands its conversations to (spec 02 section 3): Typebot, n8n,
 * a webhook, Dialogflow ES (flowbuilder is the flow engine's). Secrets are kept sealed
 * (secrets/sealed.ts) with their last 4 characters for reads.
 */
export class QueueIntegration {
  [OptionalProps]?:
    | 'projectName'
    | 'language'
    | 'urlN8N'
    | 'typebotSlug'
    | 'typebotExpires'
    | 'typebotDelayMessage'
    | 'typebotKeywordFinish'
    | 'typebotKeywordRestart'
    | 'typebotRestartMessage'
    | 'typebotUnknownMessage'
    | 'jsonContentSealed'
    | 'jsonContentLast4'
    | 'serviceAccountEmail'
    | 'authType'
    | 'authUser'
    | 'authHeaderName'
    | 'authSecretSealed'
    | 'authSecretLast4'
    | 'webhookSync'
    | 'signingSecretSealed'
    | 'signingSecretLast4'
    | 'createdAt'
    | 'updatedAt';
  id!: number;
  companyId!: number;
  type!: QueueIntegrationType;
  name!: string;
  projectName = '';
  language = 'pt-BR';
  /** The webhook's URL, or Typebot's viewer. */
  urlN8N = '';
  typebotSlug = '';
  /** Minutes a Typebot session lasts after the customer's previous message (0: no expiry). */
  typebotExpires = 1;
  typebotDelayMessage = 1000;
  typebotKeywordFinish = '';
  typebotKeywordRestart = '';
  typebotRestartMessage = '';
  typebotUnknownMessage = '';
  jsonContentSealed = '';
  jsonContentLast4 = '';
  serviceAccountEmail = '';
  authType: WebhookAuthType = 'none';
  authUser = '';
  authHeaderName = '';
  authSecretSealed = '';
  authSecretLast4 = '';
  /** The webhook's answer carries the reply to send. */
  webhookSync = false;
  signingSecretSealed = '';
  signingSecretLast4 = '';
  createdAt = new Date();
  updatedAt = new Date();
}

const text = (length?: number): { type: 'string' | 'text'; length?: number; default: string } =>
  length ? { type: 'string', length, default: '' } : { type: 'text', default: '' };

export const QueueIntegrationSchema = new EntitySchema<QueueIntegration>({
  class: QueueIntegration,
  tableName: 'queue_integrations',
  filters: tenantFilter,
  uniques: [{ properties: ['companyId', 'name'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    type: { type: 'string', length: 20 },
    name: { type: 'string', length: 50 },
    projectName: text(200),
    language: { type: 'string', length: 10, default: 'pt-BR' },
    urlN8N: { ...text(2000), fieldName: 'url_n8n' },
    typebotSlug: text(200),
    typebotExpires: { type: 'integer', default: 1 },
    typebotDelayMessage: { type: 'integer', default: 1000 },
    typebotKeywordFinish: text(100),
    typebotKeywordRestart: text(100),
    typebotRestartMessage: text(),
    typebotUnknownMessage: text(),
    jsonContentSealed: text(),
    jsonContentLast4: text(4),
    serviceAccountEmail: text(300),
    authType: { type: 'string', length: 10, default: 'none' },
    authUser: text(200),
    authHeaderName: text(100),
    authSecretSealed: text(),
    authSecretLast4: text(4),
    webhookSync: { type: 'boolean', default: false },
    signingSecretSealed: text(),
    signingSecretLast4: text(4),
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * One event sent to an n8n or webhook integration and what became of it: the delivery log on the
 * integration's screen. `eventId` is the Standard Webhooks `webhook-id`, the same on every attempt, so a
 * receiver can drop a repeat; a message's event is recorded once (a task run twice does not send twice).
 */
export class WebhookDelivery {
  [OptionalProps]?: 'ticketId' | 'messageId' | 'status' | 'attempts' | 'statusCode' | 'error' | 'durationMs' | 'nextAttemptAt' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  integrationId!: number;
  ticketId: number | null = null;
  messageId: number | null = null;
  eventId!: string;
  event!: string;
  payload!: Record<string, unknown>;
  status: DeliveryStatus = 'pending';
  attempts = 0;
  statusCode: number | null = null;
  error: string | null = null;
  durationMs: number | null = null;
  nextAttemptAt: Date | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const WebhookDeliverySchema = new EntitySchema<WebhookDelivery>({
  class: WebhookDelivery,
  tableName: 'webhook_deliveries',
  filters: tenantFilter,
  uniques: [{ properties: ['integrationId', 'eventId'] }],
  indexes: [{ properties: ['integrationId', 'createdAt'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    integrationId: { kind: 'm:1', entity: () => QueueIntegration, mapToPk: true, fieldName: 'integration_id', deleteRule: 'cascade' },
    ticketId: { kind: 'm:1', entity: () => Ticket, mapToPk: true, nullable: true, fieldName: 'ticket_id', deleteRule: 'set null' },
    messageId: { kind: 'm:1', entity: () => Message, mapToPk: true, nullable: true, fieldName: 'message_id', deleteRule: 'set null' },
    eventId: { type: 'string', length: 100 },
    event: { type: 'string', length: 50 },
    payload: { type: 'json' },
    status: { type: 'string', length: 10, default: 'pending' },
    attempts: { type: 'integer', default: 0 },
    statusCode: { type: 'integer', nullable: true },
    error: { type: 'string', length: 500, nullable: true },
    durationMs: { type: 'integer', nullable: true },
    nextAttemptAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
