/** What a payment provider needs to know to charge one invoice. */
export interface ChargeRequest {
  invoice: { id: number; detail: string; value: number; dueDate: string };
  company: { id: number; name: string };
}

/** A charge the provider created: its id, the Pix copy-and-paste code, and the amount it will collect. */
export interface CreatedCharge {
  txid: string;
  qrcode: string;
  value: number;
}

/** A charge as the provider knows it now: ATIVA, CONCLUIDA, or one of the Pix API's removal statuses. */
export interface ChargeState {
  status: string;
  value: number;
}

/** The parts of an incoming webhook request a provider may check. */
export interface WebhookRequest {
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A Pix payment provider. The webhook only says "something happened to these charges": the charge is
 * always re-fetched with `fetchCharge` before anything is marked paid.
 */
export interface PaymentProvider {
  readonly name: 'efi' | 'sandbox';
  createCharge(request: ChargeRequest): Promise<CreatedCharge>;
  /** null: the provider does not know this charge. */
  fetchCharge(txid: string): Promise<ChargeState | null>;
  verifyWebhook(request: WebhookRequest): boolean;
}
