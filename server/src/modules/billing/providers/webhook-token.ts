import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookRequest } from './types.js';

/** The query parameter carrying the webhook's token (Efí's documented convention for an HMAC in the URL). */
export const WEBHOOK_TOKEN_PARAM = 'hmac';

/**
 * The token the webhook URL carries: an HMAC of the configured secret, so the secret itself never sits in
 * a URL (or in a proxy's access log).
 */
export const webhookToken = (secret: string): string =>
  createHmac('sha256', secret).update('atrium:pix-webhook').digest('hex');

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** Compared in constant time; a missing or malformed token is simply wrong. */
export const hasWebhookToken = (secret: string, request: WebhookRequest): boolean => {
  const given = Buffer.from(first(request.query[WEBHOOK_TOKEN_PARAM]) ?? '');
  const expected = Buffer.from(webhookToken(secret));
  return given.length === expected.length && timingSafeEqual(given, expected);
};
