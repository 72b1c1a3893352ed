import type { InvoiceView } from '@atrium/shared';
import { api } from '../../../api/client';
import type { Page } from '../../../api/query';

/** An invoice as GET /invoices/all lists it (spec 01 section 3). */
export type Invoice = InvoiceView;

export const INVOICES_KEY = ['invoices'] as const;

export const invoicesApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<Invoice>> => {
    const { data } = await api.get<{ invoices: Invoice[]; hasMore: boolean }>('/invoices/all', { params: { searchParam, pageNumber } });
    return { items: data.invoices, hasMore: data.hasMore };
  },
};
