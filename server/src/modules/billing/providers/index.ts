import type { Config } from '../../../config.js';
import type { Logger } from '../../../logger.js';
import { createEfiProvider } from './efi.js';
import { createSandboxPaymentProvider } from './sandbox.js';
import type { PaymentProvider } from './types.js';

export type { PaymentProvider } from './types.js';

/** The provider config.payment names, or null when online payment is off. */
export const createPaymentProvider = (config: Config, logger: Logger): PaymentProvider | null => {
  const { payment } = config;
  if (payment.provider === 'efi' && payment.efi) {
    return createEfiProvider({ ...payment.efi, webhookSecret: payment.webhookSecret, publicUrl: payment.publicUrl, logger });
  }
  if (payment.provider === 'sandbox') return createSandboxPaymentProvider({ webhookSecret: payment.webhookSecret });
  return null;
};
