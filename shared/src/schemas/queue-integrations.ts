import { z } from 'zod';
import { idSchema, textSchema } from './common.js';

/**
 * Queue integrations (spec 02 sections 3, 5 and 7; spec 04 section 10). Credentials (Dialogflow's
 * service-account JSON, a webhook's auth secret and signing secret) are write-only: reads say that one is
 * set and show its last 4 characters.
 */
export const QUEUE_INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot', 'flowbuilder'] as const;
export type QueueIntegrationType = (typeof QUEUE_INTEGRATION_TYPES)[number];
export const DIALOGFLOW_LANGUAGES = ['pt-BR', 'en', 'es'] as const;
export const WEBHOOK_AUTH_TYPES = ['none', 'basic', 'header'] as const;
export type WebhookAuthType = (typeof WEBHOOK_AUTH_TYPES)[number];
export const QUEUE_INTEGRATIONS_PAGE_SIZE = 20;
export const WEBHOOK_DELIVERIES_PAGE_SIZE = 20;
export const QUEUE_INTEGRATION_DEFAULTS = { typebotDelayMessage: 1000, typebotExpires: 1, language: 'pt-BR' } as const;

/** Types whose projectName is their name (spec 02 section 5). */
export const NAMED_PROJECT_TYPES: readonly QueueIntegrationType[] = ['n8n', 'webhook', 'typebot', 'flowbuilder'];
/** Types that need a URL (urlN8N: the webhook, or Typebot's viewer). */
export const URL_TYPES: readonly QueueIntegrationType[] = ['n8n', 'webhook', 'typebot'];

// shared/ knows no URL class (zod only): scheme, a host, then anything without spaces.
const url = textSchema
  .trim()
  .max(2000)
  .regex(/^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i, 'must be an http(s) URL');
const optionalText = (max: number) => textSchema.trim().max(max);

const fields = {
  type: z.enum(QUEUE_INTEGRATION_TYPES),
  // Too Short! / Too Long! / Required (spec 02 section 5)
  name: textSchema.trim().min(2).max(50),
  projectName: optionalText(200),
  jsonContent: textSchema.max(20000),
  language: z.enum(DIALOGFLOW_LANGUAGES),
  urlN8N: z.union([z.literal(''), url]),
  typebotSlug: optionalText(200).regex(/^[\w.-]*$/, 'letters, digits, . - _ only'),
  typebotExpires: z.coerce.number().int().min(0).max(60 * 24 * 30),
  typebotDelayMessage: z.coerce.number().int().min(0).max(10000),
  typebotKeywordFinish: optionalText(100),
  typebotKeywordRestart: optionalText(100),
  typebotRestartMessage: optionalText(4096),
  typebotUnknownMessage: optionalText(4096),
  authType: z.enum(WEBHOOK_AUTH_TYPES),
  authUser: optionalText(200),
  authHeaderName: optionalText(100).regex(/^[A-Za-z0-9-]*$/, 'a header name'),
  authSecret: textSchema.max(2000),
  webhookSync: z.boolean(),
};

type Shape = {
  type?: QueueIntegrationType;
  urlN8N?: string;
  typebotSlug?: string;
  authType?: WebhookAuthType;
  authHeaderName?: string;
};

/** The type-specific required fields of spec 02 section 5 (on the merged record for an update). */
export const integrationIssues = (v: Shape & { hasJsonContent?: boolean; projectName?: string }): { path: string; message: string }[] => {
  const issues: { path: string; message: string }[] = [];
  if (v.type && URL_TYPES.includes(v.type) && !v.urlN8N) issues.push({ path: 'urlN8N', message: 'Required' });
  if (v.type === 'typebot' && !v.typebotSlug) issues.push({ path: 'typebotSlug', message: 'Required' });
  if (v.type === 'dialogflow') {
    if (!v.projectName) issues.push({ path: 'projectName', message: 'Required' });
    if (v.hasJsonContent === false) issues.push({ path: 'jsonContent', message: 'Required' });
  }
  if ((v.type === 'n8n' || v.type === 'webhook') && v.authType === 'header' && !v.authHeaderName) {
    issues.push({ path: 'authHeaderName', message: 'Required' });
  }
  return issues;
};

const base = z.object({
  type: fields.type,
  name: fields.name,
  projectName: fields.projectName.optional().default(''),
  jsonContent: fields.jsonContent.optional().default(''),
  language: fields.language.optional().default(QUEUE_INTEGRATION_DEFAULTS.language),
  urlN8N: fields.urlN8N.optional().default(''),
  typebotSlug: fields.typebotSlug.optional().default(''),
  typebotExpires: fields.typebotExpires.optional().default(QUEUE_INTEGRATION_DEFAULTS.typebotExpires),
  typebotDelayMessage: fields.typebotDelayMessage.optional().default(QUEUE_INTEGRATION_DEFAULTS.typebotDelayMessage),
  typebotKeywordFinish: fields.typebotKeywordFinish.optional().default(''),
  typebotKeywordRestart: fields.typebotKeywordRestart.optional().default(''),
  typebotRestartMessage: fields.typebotRestartMessage.optional().default(''),
  typebotUnknownMessage: fields.typebotUnknownMessage.optional().default(''),
  authType: fields.authType.optional().default('none'),
  authUser: fields.authUser.optional().default(''),
  authHeaderName: fields.authHeaderName.optional().default(''),
  authSecret: fields.authSecret.optional().default(''),
  webhookSync: fields.webhookSync.optional().default(false),
});

/** POST /queueIntegration. */
export const createQueueIntegrationSchema = base.superRefine((v, ctx) => {
  for (const issue of integrationIssues({ ...v, hasJsonContent: v.jsonContent.trim() !== '' })) {
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  }
});
export type CreateQueueIntegrationInput = z.infer<typeof createQueueIntegrationSchema>;

/**
 * PUT /queueIntegration/{id}: what is sent changes; an empty jsonContent or authSecret keeps the stored
 * one. `regenerateSigningSecret` issues a new webhook signing secret (answered once).
 */
export const updateQueueIntegrationSchema = z.object({
  type: fields.type.optional(),
  name: fields.name.optional(),
  projectName: fields.projectName.optional(),
  jsonContent: fields.jsonContent.optional(),
  language: fields.language.optional(),
  urlN8N: fields.urlN8N.optional(),
  typebotSlug: fields.typebotSlug.optional(),
  typebotExpires: fields.typebotExpires.optional(),
  typebotDelayMessage: fields.typebotDelayMessage.optional(),
  typebotKeywordFinish: fields.typebotKeywordFinish.optional(),
  typebotKeywordRestart: fields.typebotKeywordRestart.optional(),
  typebotRestartMessage: fields.typebotRestartMessage.optional(),
  typebotUnknownMessage: fields.typebotUnknownMessage.optional(),
  authType: fields.authType.optional(),
  authUser: fields.authUser.optional(),
  authHeaderName: fields.authHeaderName.optional(),
  authSecret: fields.authSecret.optional(),
  webhookSync: fields.webhookSync.optional(),
  regenerateSigningSecret: z.boolean().optional(),
});
export type UpdateQueueIntegrationInput = z.infer<typeof updateQueueIntegrationSchema>;

/**
 * POST /queueIntegration/testSession: tries the integration for real. The spec's fields (projectName,
 * jsonContent, language) test a Dialogflow agent; `id` tests a saved integration (its stored secrets are
 * used where the form leaves them empty); the other fields test what the dialog holds.
 */
export const testQueueIntegrationSchema = updateQueueIntegrationSchema
  .omit({ regenerateSigningSecret: true })
  .extend({ id: idSchema.optional() });
export type TestQueueIntegrationInput = z.infer<typeof testQueueIntegrationSchema>;

export interface QueueIntegrationTestResult {
  ok: boolean;
  /** An error code or the service's own words, when not ok. */
  error: string | null;
}

export interface QueueIntegrationView<D = string> {
  id: number;
  type: QueueIntegrationType;
  name: string;
  projectName: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotRestartMessage: string;
  typebotUnknownMessage: string;
  /** Write-only Dialogflow credentials: whether set, their last 4 characters and the service account. */
  hasJsonContent: boolean;
  jsonContentLast4: string;
  serviceAccountEmail: string;
  authType: WebhookAuthType;
  authUser: string;
  authHeaderName: string;
  hasAuthSecret: boolean;
  authSecretLast4: string;
  webhookSync: boolean;
  hasSigningSecret: boolean;
  signingSecretLast4: string;
  /** Only in the answer that issued it (create, or update with regenerateSigningSecret): shown once. */
  signingSecret?: string;
  companyId: number;
  createdAt: D;
  updatedAt: D;
}

/** `company-{id}-queueIntegration`. */
export type QueueIntegrationEventPayload<D = string> =
  | { action: 'create' | 'update'; record: QueueIntegrationView<D> }
  | { action: 'delete'; id: number };

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One event sent to an n8n or webhook integration, with its attempts (GET /queueIntegration/{id}/deliveries). */
export interface WebhookDeliveryView<D = string> {
  id: number;
  /** The Standard Webhooks `webhook-id`, the same on every attempt. */
  eventId: string;
  event: string;
  ticketId: number | null;
  messageId: number | null;
  status: (typeof WEBHOOK_DELIVERY_STATUSES)[number];
  attempts: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  nextAttemptAt: D | null;
  createdAt: D;
  updatedAt: D;
}
