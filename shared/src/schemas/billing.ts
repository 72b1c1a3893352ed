import { z } from 'zod';
import { textSchema, idSchema } from './common.js';
import { listQuerySchema } from '../paging.js';

/** Invoices per page of GET /invoices/all and GET /invoices. */
export const INVOICES_PAGE_SIZE = 20;
/** An invoice is issued once the company's due date is less than this many days away (or past). */
export const INVOICE_ISSUE_DAYS = 20;
/** A Pix charge can be paid for one hour (calendario.expiracao). */
export const PIX_EXPIRATION_SECONDS = 3600;
/** How long the Pix screen's copy button says 'copied' (spec 01 section 9). */
export const PIX_COPIED_MS = 1000;
/** After a payment the checkout goes back to / this much later (spec 01 section 9). */
export const CHECKOUT_SUCCESS_REDIRECT_MS = 4000;

/** Stored statuses; "expired" is derived (open and due before today), never stored. */
export const INVOICE_STATUSES = ['open', 'paid'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** The Pix API's own words for a charge waiting to be paid and a paid one. */
export const PIX_STATUSES = ['ATIVA', 'CONCLUIDA'] as const;
export type PixStatus = (typeof PIX_STATUSES)[number];

export const CHECKOUT_COUNTRIES = ['BR', 'usa'] as const;

export const listInvoicesQuerySchema = listQuerySchema;
export type ListInvoicesQuery = z.infer<typeof listInvoicesQuerySchema>;

/** PUT /invoices/{id} (super users): the stored status only; the due date has its own button. */
export const updateInvoiceSchema = z.object({ status: z.enum(INVOICE_STATUSES) });
export type UpdateInvoiceInput = z.infer<typeof updateInvoiceSchema>;

/** A Brazilian CEP (12345-678) or a US ZIP code (12345, 12345-6789). */
export const ZIPCODE_PATTERN = /^(\d{5}-?\d{3}|\d{5}(-\d{4})?)$/;

/** Checkout step 0, the payer's data (spec 01 section 5: firstName, address2, city, zipcode, country required). */
export const checkoutAddressSchema = z.object({
  firstName: textSchema.trim().min(1).max(100),
  lastName: textSchema.trim().max(100).optional().default(''),
  address2: textSchema.trim().min(1).max(200),
  city: textSchema.trim().min(1).max(100),
  state: textSchema.trim().max(100).optional().default(''),
  zipcode: textSchema.trim().regex(ZIPCODE_PATTERN),
  country: z.enum(CHECKOUT_COUNTRIES),
});
export type CheckoutAddressInput = z.infer<typeof checkoutAddressSchema>;

const text = textSchema.trim().max(200).optional();
const numberLike = z.union([z.number(), textSchema.trim().max(30)]).optional();

/**
 * POST /subscription, the family's checkout payload (spec 01 section 3). Only invoiceId decides anything:
 * the price comes from the invoice, never from `price` or `plan`, and Pix needs no card, so the card
 * fields are accepted for compatibility and never read or stored.
 */
export const checkoutSchema = z.object({
  invoiceId: idSchema,
  firstName: text,
  lastName: text,
  address2: text,
  city: text,
  state: text,
  zipcode: text,
  country: text,
  useAddressForPaymentDetails: z.union([z.boolean(), textSchema.max(10)]).optional(),
  nameOnCard: text,
  cardNumber: text,
  cvv: text,
  plan: z.union([textSchema.max(5000), z.record(textSchema, z.unknown())]).optional(),
  price: numberLike,
  users: numberLike,
  connections: numberLike,
});
export type CheckoutInput = z.infer<typeof checkoutSchema>;

/** The Pix charge's notification (POST /subscription/webhook): a list of received Pix, each naming its charge. */
export const pixWebhookSchema = z.object({
  pix: z
    .array(z.object({ txid: textSchema.trim().max(64).optional() }))
    .max(500)
    .optional()
    .default([]),
});
export type PixWebhookInput = z.infer<typeof pixWebhookSchema>;

/** An invoice as the API shows it. */
export interface InvoiceView {
  id: number;
  companyId: number;
  detail: string;
  value: number;
  /** yyyy-MM-dd */
  dueDate: string;
  status: InvoiceStatus;
  paidAt: string | Date | null;
  createdAt: string | Date;
  updatedAt: string | Date;
}

/** POST /subscription's answer: the Pix response of spec 01 section 3, plus the charge's id. */
export interface PixChargeView {
  txid: string;
  invoiceId: number;
  status: PixStatus;
  calendario: { expiracao: number };
  valor: { original: string };
  qrcode: { qrcode: string };
}
