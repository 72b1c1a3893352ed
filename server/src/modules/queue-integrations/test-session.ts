import type { QueueIntegrationTestResult, TestQueueIntegrationInput } from '@atrium/shared';
import { requireAdmin, type ServiceContext } from '../../context.js';
import { requireTenant } from '../../db/tenant.js';
import { assertPlanFeature } from '../plans/index.js';
import { detectIntent, readServiceAccount } from './dialogflow.js';
import { HttpTimeoutError, RefusedAddressError } from './outbound-http.js';
import { QueueIntegration } from './queue-integration.entity.js';
import { findIntegration, secretsOf, type IntegrationDeps } from './queue-integrations.service.js';
import { startChat, TypebotError, TypebotSessionGone } from './typebot.js';
import { newSigningSecret, postEvent } from './webhook.js';

const reason = (err: unknown): string => {
  if (err instanceof RefusedAddressError) return 'ERR_INTEGRATION_URL_REFUSED';
  if (err instanceof HttpTimeoutError) return 'timeout';
  if (err instanceof TypebotSessionGone) return 'HTTP 404';
  if (err instanceof TypebotError) return `HTTP ${err.status}`;
  const message = (err as { details?: unknown; message?: unknown })?.details ?? (err as { message?: unknown })?.message;
  return typeof message === 'string' && message ? message.slice(0, 200) : 'error';
};

/**
 * POST /queueIntegration/testSession (admins): tries the integration for real and answers `{ok, error}`
 * (spec 04 section 10 note). Dialogflow runs one detectIntent ("ping") in a throwaway session; Typebot
 * registers a session without running the flow; n8n and webhooks receive a signed `ping` event. A saved
 * integration (`id`) lends its stored secrets to the fields the form leaves empty.
 */
export const testIntegration = async (ctx: ServiceContext, deps: IntegrationDeps, input: TestQueueIntegrationInput): Promise<QueueIntegrationTestResult> => {
  requireAdmin(ctx.actor);
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useIntegrations');
  const saved = input.id ? await findIntegration(ctx.em, input.id) : null;
  const stored = saved ? secretsOf(deps, saved) : { jsonContent: '', authSecret: '', signingSecret: '' };
  const { id: _id, jsonContent, authSecret, ...fields } = input;
  const draft = Object.assign(new QueueIntegration(), saved ?? { companyId: requireTenant(ctx.em), type: 'dialogflow', name: 'test' });
  Object.assign(draft, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
  const http = { timeoutMs: deps.config.timeoutMs, allowPrivateNetwork: deps.config.allowPrivateNetwork };
  try {
    if (draft.type === 'dialogflow') {
      const account = readServiceAccount(jsonContent || stored.jsonContent);
      if (!account) return { ok: false, error: 'ERR_INTEGRATION_INVALID_CREDENTIALS' };
      const projectId = draft.projectName || account.project_id || '';
      await detectIntent(
        { account, projectId, sessionId: `atrium-test-${Date.now()}`, text: 'ping', languageCode: draft.language || 'pt-BR' },
        { endpoint: deps.config.dialogflowEndpoint, timeoutMs: deps.config.timeoutMs },
      );
      return { ok: true, error: null };
    }
    if (draft.type === 'typebot') {
      if (!draft.urlN8N || !draft.typebotSlug) return { ok: false, error: 'ERR_VALIDATION' };
      const answer = await startChat(draft.urlN8N, draft.typebotSlug, { isOnlyRegistering: true }, http);
      return answer.sessionId ? { ok: true, error: null } : { ok: false, error: 'no session' };
    }
    if (draft.type === 'n8n' || draft.type === 'webhook') {
      if (!draft.urlN8N) return { ok: false, error: 'ERR_VALIDATION' };
      const secrets = { signingSecret: stored.signingSecret || newSigningSecret(), authSecret: authSecret || stored.authSecret };
      const eventId = `test_${Date.now()}`;
      const attempt = await postEvent(
        draft,
        secrets,
        { id: eventId, payload: { event: 'ping', id: eventId, timestamp: new Date().toISOString(), company: { id: ctx.actor.companyId }, integration: { id: saved?.id ?? null, name: draft.name } } },
        http,
      );
      return attempt.ok ? { ok: true, error: null } : { ok: false, error: attempt.error };
    }
    return { ok: true, error: null };
  } catch (err) {
    return { ok: false, error: reason(err) };
  }
};
