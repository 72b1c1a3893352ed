import { randomBytes } from 'node:crypto';
import { pixCopyAndPaste } from './pix-code.js';
import type { ChargeState, PaymentProvider } from './types.js';
import { hasWebhookToken, WEBHOOK_TOKEN_PARAM, webhookToken } from './webhook-token.js';

export interface SandboxPaymentProvider extends PaymentProvider {
  readonly name: 'sandbox';
  /** The simulated bank receives the Pix: the charge becomes CONCLUIDA. False when it does not know it. */
  pay(txid: string): boolean;
  /** The query a webhook call from this bank carries. */
  webhookQuery(): Record<string, string>;
}

/**
 * A simulated Pix bank for demos and tests (enabled like the sandbox channel). Its charges live in this
 * process only: `POST /subscription/sandbox/{txid}/pay` pays one and calls the webhook at once, on the same
 * instance, so nothing else needs to see them; a restart forgets unpaid sandbox charges.
 */
export const createSandboxPaymentProvider = (options: { webhookSecret: string }): SandboxPaymentProvider => {
  const charges = new Map<string, ChargeState>();
  return {
    name: 'sandbox',
    async createCharge({ invoice }) {
      // 35 characters of [a-z0-9], a valid Pix txid.
      const txid = `sbx${randomBytes(16).toString('hex')}`;
      charges.set(txid, { status: 'ATIVA', value: invoice.value });
      const qrcode = pixCopyAndPaste({
        key: 'sandbox@atrium.local',
        name: 'Atrium Sandbox',
        city: 'Sao Paulo',
        amount: invoice.value,
        reference: txid,
      });
      return { txid, qrcode, value: invoice.value };
    },
    async fetchCharge(txid) {
      const charge = charges.get(txid);
      return charge ? { ...charge } : null;
    },
    verifyWebhook: (request) => hasWebhookToken(options.webhookSecret, request),
    pay(txid) {
      const charge = charges.get(txid);
      if (!charge) return false;
      charge.status = 'CONCLUIDA';
      return true;
    },
    webhookQuery: () => ({ [WEBHOOK_TOKEN_PARAM]: webhookToken(options.webhookSecret) }),
  };
};
