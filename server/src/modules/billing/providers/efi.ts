import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { PIX_EXPIRATION_SECONDS } from '@atrium/shared';
import type { EfiConfig } from '../../../config.js';
import { AppError } from '../../../errors.js';
import type { Logger } from '../../../logger.js';
import type { PaymentProvider } from './types.js';
import { hasWebhookToken, WEBHOOK_TOKEN_PARAM, webhookToken } from './webhook-token.js';

/** Efí's Pix API v2 hosts: production and homologation. */
export const EFI_BASE_URLS = {
  production: 'https://pix.api.efipay.com.br',
  sandbox: 'https://pix-h.api.efipay.com.br',
} as const;

const REQUEST_TIMEOUT_MS = 15_000;
/** A token is renewed this long before Efí says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export interface EfiProviderOptions extends EfiConfig {
  webhookSecret: string;
  /** This server's public address; without it the webhook is not registered (a warning says so). */
  publicUrl?: string;
  logger: Logger;
  /** Another API host (tests: a local server speaking Efí's shapes). */
  baseUrl?: string;
  /** Extra CA to trust for the API host (tests only; Efí's hosts have public certificates). */
  ca?: string | Buffer;
}

interface EfiResponse {
  status: number;
  body: any;
}

/** What Efí's errors carry: `nome` and `mensagem` (never the credentials), for the log. */
const describeError = (body: unknown) =>
  body && typeof body === 'object' ? { nome: (body as any).nome, mensagem: (body as any).mensagem } : { body };

const money = (value: number) => value.toFixed(2);

/**
 * Efí (formerly Gerencianet) Pix API v2: OAuth2 client credentials, then immediate charges (cob), their
 * QR codes (loc) and the webhook registration, all over mutual TLS with the .p12 certificate Efí issues.
 * The notification itself arrives at POST /subscription/webhook (Efí appends `/pix` to the registered URL,
 * which the registered URL's trailing `ignorar=` parameter swallows).
 */
export const createEfiProvider = (options: EfiProviderOptions): PaymentProvider & { registerWebhook(url: string): Promise<void> } => {
  const baseUrl = (options.baseUrl ?? (options.sandbox ? EFI_BASE_URLS.sandbox : EFI_BASE_URLS.production)).replace(/\/+$/, '');
  // Efí's certificates carry no passphrase.
  const agent = new https.Agent({ pfx: readFileSync(options.certificate), passphrase: '', ca: options.ca, keepAlive: true });
  const { logger } = options;
  let token: { value: string; expiresAt: number } | undefined;
  let webhook: Promise<void> | undefined;

  const send = (method: string, path: string, body: unknown, authorization: string): Promise<EfiResponse> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const request = https.request(
        `${baseUrl}${path}`,
        {
          method,
          agent,
          timeout: REQUEST_TIMEOUT_MS,
          headers: {
            authorization,
            accept: 'application/json',
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // not JSON: kept as text for the log
            }
            resolve({ status: response.statusCode ?? 0, body: parsed });
          });
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`Efí did not answer within ${REQUEST_TIMEOUT_MS} ms`)));
      request.on('error', reject);
      request.end(payload);
    });

  const failed = (what: string, detail: object): AppError => {
    logger.error({ provider: 'efi', ...detail }, `Efí: ${what} failed`);
    return new AppError('ERR_PAYMENT_PROVIDER_FAILED');
  };

  const accessToken = async (): Promise<string> => {
    if (token && token.expiresAt > Date.now()) return token.value;
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    const res = await send('POST', '/oauth/token', { grant_type: 'client_credentials' }, `Basic ${basic}`).catch((err: unknown) => {
      throw failed('authentication', { err });
    });
    if (res.status !== 200 || typeof res.body?.access_token !== 'string') {
      throw failed('authentication', { status: res.status, ...describeError(res.body) });
    }
    const ttl = Number(res.body.expires_in) > 0 ? Number(res.body.expires_in) * 1000 : 3_600_000;
    token = { value: res.body.access_token, expiresAt: Date.now() + Math.max(ttl - TOKEN_MARGIN_MS, 1000) };
    return token.value;
  };

  /** An API call with the bearer token; a 401 (token revoked early) gets one fresh token and a retry. */
  const call = async (what: string, method: string, path: string, body?: unknown): Promise<EfiResponse> => {
    for (let attempt = 0; ; attempt++) {
      const res = await send(method, path, body, `Bearer ${await accessToken()}`).catch((err: unknown) => {
        throw failed(what, { err });
      });
      if (res.status === 401 && attempt === 0) {
        token = undefined;
        continue;
      }
      return res;
    }
  };

  const registerWebhook = async (url: string): Promise<void> => {
    const res = await call('webhook registration', 'PUT', `/v2/webhook/${encodeURIComponent(options.pixKey)}`, { webhookUrl: url });
    if (res.status < 200 || res.status >= 300) throw failed('webhook registration', { status: res.status, ...describeError(res.body) });
  };

  /** Registered once per process (PUT is idempotent at Efí); a failure is logged and retried at the next checkout. */
  const ensureWebhook = (): Promise<void> => {
    if (!options.publicUrl) {
      webhook ??= Promise.resolve().then(() =>
        logger.warn('PUBLIC_URL is not set: the Efí webhook is not registered, so Pix payments are not confirmed'),
      );
      return webhook;
    }
    const url = `${options.publicUrl}/subscription/webhook?${WEBHOOK_TOKEN_PARAM}=${webhookToken(options.webhookSecret)}&ignorar=`;
    webhook ??= registerWebhook(url).catch(() => {
      webhook = undefined;
    });
    return webhook;
  };

  return {
    name: 'efi',
    registerWebhook,
    async createCharge({ invoice }) {
      await ensureWebhook();
      // 32 characters of [0-9a-f]: a valid txid (26 to 35 alphanumerics), chosen here so a retry cannot charge twice.
      const txid = randomBytes(16).toString('hex');
      const cob = await call('charge', 'PUT', `/v2/cob/${txid}`, {
        calendario: { expiracao: PIX_EXPIRATION_SECONDS },
        valor: { original: money(invoice.value) },
        chave: options.pixKey,
        solicitacaoPagador: `Fatura ${invoice.id}`,
        infoAdicionais: [{ nome: 'Fatura', valor: String(invoice.id) }],
      });
      if (cob.status !== 201 && cob.status !== 200) throw failed('charge', { status: cob.status, ...describeError(cob.body) });
      const locId = cob.body?.loc?.id;
      const charged = Number(cob.body?.valor?.original);
      if (cob.body?.txid !== txid || !Number.isFinite(charged) || money(charged) !== money(invoice.value) || locId === undefined) {
        throw failed('charge', { status: cob.status, reason: 'unexpected answer' });
      }
      const qr = await call('QR code', 'GET', `/v2/loc/${encodeURIComponent(String(locId))}/qrcode`);
      const qrcode = qr.status === 200 && typeof qr.body?.qrcode === 'string' ? qr.body.qrcode : cob.body?.pixCopiaECola;
      if (typeof qrcode !== 'string' || !qrcode) throw failed('QR code', { status: qr.status, ...describeError(qr.body) });
      return { txid, qrcode, value: charged };
    },
    async fetchCharge(txid) {
      const res = await call('charge lookup', 'GET', `/v2/cob/${encodeURIComponent(txid)}`);
      if (res.status === 404) return null;
      const value = Number(res.body?.valor?.original);
      if (res.status !== 200 || typeof res.body?.status !== 'string' || !Number.isFinite(value)) {
        throw failed('charge lookup', { status: res.status, ...describeError(res.body) });
      }
      return { status: res.body.status, value };
    },
    // Mutual TLS towards Efí's notifications is the reverse proxy's job; this checks the URL's token.
    verifyWebhook: (request) => hasWebhookToken(options.webhookSecret, request),
  };
};
