import { format } from 'date-fns';
import type { Invoice } from '../api/invoices';

export type InvoiceDisplayStatus = 'paid' | 'expired' | 'open';

/** Spec 01 section 2: Paid if paid, Expired if the due date is before today, else Open. */
export const invoiceStatus = (invoice: Pick<Invoice, 'status' | 'dueDate'>, today = new Date()): InvoiceDisplayStatus => {
  if (invoice.status === 'paid') return 'paid';
  // Both yyyy-MM-dd: compared as text, in the user's own calendar day.
  return invoice.dueDate < format(today, 'yyyy-MM-dd') ? 'expired' : 'open';
};

/** Plan values are in BRL, shown the Brazilian way whatever the interface language (spec 01 section 3). */
export const formatBrl = (value: number): string =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(value);
