import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { HttpTimeoutError, httpRequest, RefusedAddressError } from './outbound-http.js';
import type { QueueIntegration } from './queue-integration.entity.js';

/**
 * n8n and generic webhooks (research/automation-anchors.md 3b, 3c): a JSON event signed with the Standard
 * Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) under the integration's own secret,
 * plus, when set, a Basic or custom auth header (what n8n's Webhook node can check by itself).
 */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export interface WebhookSecrets {
  signingSecret: string;
  authSecret: string;
}

export interface Attempt {
  ok: boolean;
  /** Worth another try: a timeout, a network failure or a 5xx. */
  retry: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The answer's body, when it is JSON or text (the synchronous reply). */
  reply: unknown;
}

/** The auth header n8n checks: Basic user:secret, or the named header carrying the secret. */
const authHeaders = (integration: QueueIntegration, secrets: WebhookSecrets): Record<string, string> => {
  if (integration.authType === 'basic') {
    return { authorization: `Basic ${Buffer.from(`${integration.authUser}:${secrets.authSecret}`).toString('base64')}` };
  }
  if (integration.authType === 'header' && integration.authHeaderName) return { [integration.authHeaderName.toLowerCase()]: secrets.authSecret };
  return {};
};

export const postEvent = async (
  integration: QueueIntegration,
  secrets: WebhookSecrets,
  event: { id: string; payload: Record<string, unknown> },
  http: { timeoutMs: number; allowPrivateNetwork: boolean },
): Promise<Attempt> => {
  const body = JSON.stringify(event.payload);
  const at = new Date();
  const signature = new Webhook(secrets.signingSecret).sign(event.id, at, body);
  const started = Date.now();
  try {
    const res = await httpRequest(integration.urlN8N, {
      ...http,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
        ...authHeaders(integration, secrets),
      },
      body,
      maxBytes: 1024 * 1024,
    });
    const ok = res.status >= 200 && res.status < 300;
    const type = String(res.headers['content-type'] ?? '');
    const reply = type.includes('json') ? res.json() : type.startsWith('text/') ? res.text() : undefined;
    return { ok, retry: res.status >= 500, statusCode: res.status, error: ok ? null : `HTTP ${res.status}`, durationMs: Date.now() - started, reply };
  } catch (err) {
    const refused = err instanceof RefusedAddressError;
    const error = refused ? 'ERR_INTEGRATION_URL_REFUSED' : err instanceof HttpTimeoutError ? 'timeout' : ((err as NodeJS.ErrnoException).code ?? 'network error');
    return { ok: false, retry: !refused, statusCode: null, error, durationMs: Date.now() - started, reply: undefined };
  }
};

/**
 * The reply a synchronous webhook answered with: `reply`, `output` (n8n's AI agent), `answer` or `text`,
 * a string or a list of them, or a plain-text body; `handoff: true` hands the conversation to a person.
 */
export const readWebhookReply = (reply: unknown): { texts: string[]; handoff: boolean } => {
  if (typeof reply === 'string') return { texts: reply.trim() ? [reply.trim()] : [], handoff: false };
  const data = (Array.isArray(reply) ? reply[0] : reply) as Record<string, unknown> | undefined;
  if (!data || typeof data !== 'object') return { texts: [], handoff: false };
  const value = data.reply ?? data.output ?? data.answer ?? data.text;
  const texts = (Array.isArray(value) ? value : [value]).filter((t): t is string => typeof t === 'string' && t.trim() !== '').map((t) => t.trim());
  return { texts, handoff: data.handoff === true };
};
