import type { CheckoutInput, InvoiceView, PixChargeView } from '@atrium/shared';
import { api } from '../../../api/client';

export type Invoice = InvoiceView;
export type PixCharge = PixChargeView;

export const subscriptionApi = {
  invoice: async (id: number) => (await api.get<Invoice>(`/invoices/${id}`)).data,
  /** The newest open invoice of the company (GET /invoices/all lists the newest due date first), or null. */
  openInvoice: async (): Promise<Invoice | null> => {
    const { data } = await api.get<{ invoices: Invoice[] }>('/invoices/all', { params: { pageNumber: 1 } });
    return data.invoices.find((i) => i.status === 'open') ?? null;
  },
  /** POST /subscription: the Pix charge of the invoice (the server takes the price from the invoice). */
  checkout: async (input: CheckoutInput) => (await api.post<PixCharge>('/subscription', input)).data,
};
