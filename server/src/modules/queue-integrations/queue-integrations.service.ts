import type { EntityManager } from '@mikro-orm/postgresql';
import './queue-integrations.events.js';
import {
  integrationIssues,
  NAMED_PROJECT_TYPES,
  QUEUE_INTEGRATIONS_PAGE_SIZE,
  WEBHOOK_DELIVERIES_PAGE_SIZE,
  type CreateQueueIntegrationInput,
  type ListQuery,
  type QueueIntegrationView,
  type UpdateQueueIntegrationInput,
  type WebhookDeliveryView,
} from '@atrium/shared';
import type { IntegrationsConfig } from '../../config.js';
import { pageOf, requireAdmin, type ServiceContext } from '../../context.js';
import { escapeLike } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import { assertUniqueName, nameTaken } from '../../db/unique-name.js';
import { AppError } from '../../errors.js';
import { lastFour, type Sealer } from '../../secrets/sealed.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { flowsNaming } from '../flows/flow.entity.js';
import { assertPlanFeature } from '../plans/index.js';
import { Queue } from '../queues/queue.entity.js';
import { ConversationHold } from '../tickets/conversation-hold.entity.js';
import { readServiceAccount } from './dialogflow.js';
import { assertPublicUrl, RefusedAddressError } from './outbound-http.js';
import { QueueIntegration, WebhookDelivery } from './queue-integration.entity.js';
import { newSigningSecret } from './webhook.js';

export interface IntegrationDeps {
  sealer: Sealer;
  config: IntegrationsConfig;
  /** PUBLIC_URL, for the signed media URLs of webhook events. */
  publicUrl?: string;
}

type SecretField = 'jsonContent' | 'authSecret' | 'signingSecret';
const context = (field: SecretField, companyId: number) => `queue_integrations.${field}:${companyId}`;

/** An integration's secrets, opened (for its runtime; never answered). */
export const secretsOf = (deps: Pick<IntegrationDeps, 'sealer'>, integration: QueueIntegration) => {
  const open = (field: SecretField, sealed: string) => (sealed ? deps.sealer.open(sealed, context(field, integration.companyId)) : '');
  return {
    jsonContent: open('jsonContent', integration.jsonContentSealed),
    authSecret: open('authSecret', integration.authSecretSealed),
    signingSecret: open('signingSecret', integration.signingSecretSealed),
  };
};

export const presentIntegration = (i: QueueIntegration, signingSecret?: string): QueueIntegrationView<Date> => ({
  id: i.id,
  type: i.type,
  name: i.name,
  projectName: i.projectName,
  language: i.language,
  urlN8N: i.urlN8N,
  typebotSlug: i.typebotSlug,
  typebotExpires: i.typebotExpires,
  typebotDelayMessage: i.typebotDelayMessage,
  typebotKeywordFinish: i.typebotKeywordFinish,
  typebotKeywordRestart: i.typebotKeywordRestart,
  typebotRestartMessage: i.typebotRestartMessage,
  typebotUnknownMessage: i.typebotUnknownMessage,
  hasJsonContent: i.jsonContentSealed !== '',
  jsonContentLast4: i.jsonContentLast4,
  serviceAccountEmail: i.serviceAccountEmail,
  authType: i.authType,
  authUser: i.authUser,
  authHeaderName: i.authHeaderName,
  hasAuthSecret: i.authSecretSealed !== '',
  authSecretLast4: i.authSecretLast4,
  webhookSync: i.webhookSync,
  hasSigningSecret: i.signingSecretSealed !== '',
  signingSecretLast4: i.signingSecretLast4,
  ...(signingSecret ? { signingSecret } : {}),
  companyId: i.companyId,
  createdAt: i.createdAt,
  updatedAt: i.updatedAt,
});

export const findIntegration = async (em: EntityManager, id: number) => {
  const integration = await em.findOne(QueueIntegration, id);
  if (!integration) throw new AppError('ERR_NO_INTEGRATION_FOUND');
  return integration;
};

const assertNameFree = (em: EntityManager, name: string, exceptId?: number) =>
  assertUniqueName(em, QueueIntegration, name, 'ERR_INTEGRATION_NAME_ALREADY_EXISTS', exceptId);
const nameRace = nameTaken('ERR_INTEGRATION_NAME_ALREADY_EXISTS');

/** The URL must reach the public internet (unless INTEGRATIONS_ALLOW_PRIVATE_NETWORK): checked on save, and again at every call. */
const assertUrl = (deps: IntegrationDeps, url: string) => {
  if (!url) return;
  try {
    assertPublicUrl(url, deps.config.allowPrivateNetwork);
  } catch (err) {
    if (err instanceof RefusedAddressError) throw new AppError('ERR_INTEGRATION_URL_REFUSED');
    throw err;
  }
};

/** Seals what was sent; an empty secret keeps the stored one. */
const applySecrets = (deps: IntegrationDeps, integration: QueueIntegration, input: { jsonContent?: string; authSecret?: string }) => {
  if (input.jsonContent && input.jsonContent.trim()) {
    const account = readServiceAccount(input.jsonContent);
    if (!account) throw new AppError('ERR_INTEGRATION_INVALID_CREDENTIALS');
    integration.jsonContentSealed = deps.sealer.seal(input.jsonContent, context('jsonContent', integration.companyId));
    integration.jsonContentLast4 = lastFour(account.private_key.replace(/-+END PRIVATE KEY-+\s*$/, '').trim());
    integration.serviceAccountEmail = account.client_email;
    if (!integration.projectName && account.project_id) integration.projectName = account.project_id;
  }
  if (input.authSecret) {
    integration.authSecretSealed = deps.sealer.seal(input.authSecret, context('authSecret', integration.companyId));
    integration.authSecretLast4 = lastFour(input.authSecret);
  }
};

/** n8n and webhooks sign every event: a secret is issued with the integration (or on request) and answered once. */
const issueSigningSecret = (deps: IntegrationDeps, integration: QueueIntegration, force: boolean): string | undefined => {
  if (integration.type !== 'n8n' && integration.type !== 'webhook') return undefined;
  if (integration.signingSecretSealed && !force) return undefined;
  const secret = newSigningSecret();
  integration.signingSecretSealed = deps.sealer.seal(secret, context('signingSecret', integration.companyId));
  integration.signingSecretLast4 = lastFour(secret);
  return secret;
};

const assertComplete = (integration: QueueIntegration) => {
  const fields = integrationIssues({ ...integration, hasJsonContent: integration.jsonContentSealed !== '' });
  if (fields.length > 0) throw new AppError('ERR_VALIDATION', { fields });
};

const announce = (ctx: ServiceContext, action: 'create' | 'update', integration: QueueIntegration) => {
  ctx.events.emit('queueIntegration.changed', { companyId: integration.companyId, action, record: presentIntegration(integration) });
};

/** GET /queueIntegration/: 20 per page by name, searching name or type. */
export const listIntegrations = async (ctx: ServiceContext, query: ListQuery) => {
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useIntegrations');
  const term = `%${escapeLike(query.searchParam)}%`;
  const where = query.searchParam ? { $or: [{ name: { $ilike: term } }, { type: { $ilike: term } }] } : {};
  const [rows, count] = await ctx.em.findAndCount(QueueIntegration, where, {
    orderBy: { name: 'asc', id: 'asc' },
    limit: QUEUE_INTEGRATIONS_PAGE_SIZE,
    offset: (query.pageNumber - 1) * QUEUE_INTEGRATIONS_PAGE_SIZE,
  });
  const page = pageOf(rows.map((r) => presentIntegration(r)), count, query.pageNumber, QUEUE_INTEGRATIONS_PAGE_SIZE);
  return { queueIntegrations: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getIntegration = async (ctx: ServiceContext, id: number) => {
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useIntegrations');
  return presentIntegration(await findIntegration(ctx.em, id));
};

export const createIntegration = async (ctx: ServiceContext, deps: IntegrationDeps, input: CreateQueueIntegrationInput) => {
  requireAdmin(ctx.actor);
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useIntegrations');
  await assertNameFree(ctx.em, input.name);
  assertUrl(deps, input.urlN8N);
  const { jsonContent, authSecret, ...fields } = input;
  const integration = ctx.em.create(QueueIntegration, {
    ...fields,
    companyId: requireTenant(ctx.em),
    projectName: NAMED_PROJECT_TYPES.includes(input.type) ? input.name : input.projectName,
  });
  applySecrets(deps, integration, { jsonContent, authSecret });
  assertComplete(integration);
  const secret = issueSigningSecret(deps, integration, false);
  await ctx.em.flush().catch(nameRace);
  announce(ctx, 'create', integration);
  return presentIntegration(integration, secret);
};

export const updateIntegration = async (ctx: ServiceContext, deps: IntegrationDeps, id: number, input: UpdateQueueIntegrationInput) => {
  requireAdmin(ctx.actor);
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useIntegrations');
  const integration = await findIntegration(ctx.em, id);
  const { jsonContent, authSecret, regenerateSigningSecret, ...fields } = input;
  if (fields.name !== undefined && fields.name.toLowerCase() !== integration.name.toLowerCase()) await assertNameFree(ctx.em, fields.name, id);
  if (fields.urlN8N !== undefined) assertUrl(deps, fields.urlN8N);
  ctx.em.assign(integration, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
  if (NAMED_PROJECT_TYPES.includes(integration.type)) integration.projectName = integration.name;
  applySecrets(deps, integration, { jsonContent, authSecret });
  if (integration.authType === 'none') {
    integration.authSecretSealed = '';
    integration.authSecretLast4 = '';
  }
  assertComplete(integration);
  const secret = issueSigningSecret(deps, integration, regenerateSigningSecret === true);
  await ctx.em.flush().catch(nameRace);
  announce(ctx, 'update', integration);
  return presentIntegration(integration, secret);
};

/**
 * DELETE: refused while a queue or a connection names it, or a flow's Typebot node (the flow would hand
 * every customer to a person there, silently); conversations it answered are let go of.
 */
export const deleteIntegration = async (ctx: ServiceContext, id: number) => {
  requireAdmin(ctx.actor);
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useIntegrations');
  const integration = await findIntegration(ctx.em, id);
  const inUse = (await ctx.em.count(Whatsapp, { integrationId: id })) + (await ctx.em.count(Queue, { integrationId: id }));
  if (inUse > 0) throw new AppError('ERR_INTEGRATION_IN_USE');
  const flows = await flowsNaming(ctx.em, { type: 'typebot', data: { typebotIntegration: { id } } });
  if (flows.length > 0) throw new AppError('ERR_INTEGRATION_USED_BY_FLOWS', { flows });
  await ctx.em.transactional(async (tx) => {
    await tx.nativeDelete(ConversationHold, { holder: 'integration', holderId: id });
    await tx.nativeDelete(QueueIntegration, { id: integration.id });
  });
  ctx.events.emit('queueIntegration.deleted', { companyId: integration.companyId, id });
};

export const presentDelivery = (d: WebhookDelivery): WebhookDeliveryView<Date> => ({
  id: d.id,
  eventId: d.eventId,
  event: d.event,
  ticketId: d.ticketId,
  messageId: d.messageId,
  status: d.status,
  attempts: d.attempts,
  statusCode: d.statusCode,
  error: d.error,
  durationMs: d.durationMs,
  nextAttemptAt: d.nextAttemptAt,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

/** GET /queueIntegration/{id}/deliveries (admins): the delivery log, newest first. */
export const listDeliveries = async (ctx: ServiceContext, id: number, pageNumber: number) => {
  requireAdmin(ctx.actor);
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useIntegrations');
  await findIntegration(ctx.em, id);
  const [rows, count] = await ctx.em.findAndCount(WebhookDelivery, { integrationId: id }, {
    orderBy: { id: 'desc' },
    limit: WEBHOOK_DELIVERIES_PAGE_SIZE,
    offset: (pageNumber - 1) * WEBHOOK_DELIVERIES_PAGE_SIZE,
  });
  const page = pageOf(rows.map(presentDelivery), count, pageNumber, WEBHOOK_DELIVERIES_PAGE_SIZE);
  return { deliveries: page.rows, count: page.count, hasMore: page.hasMore };
};
