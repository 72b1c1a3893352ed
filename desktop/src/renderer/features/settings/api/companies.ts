import type { CreateCompanyInput, UpdateCompanyInput } from '@atrium/shared';
import { api } from '../../../api/client';

/** A company as GET /companies/list answers (super users). */
export interface CompanyRow {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  planId: number;
  status: boolean;
  /** yyyy-MM-dd: the last day the subscription covers. */
  dueDate: string | null;
  recurrence: string;
  createdAt?: string;
}

/** The form sends dates as yyyy-MM-dd text, as the API stores them. */
export type CompanyPayload = Omit<CreateCompanyInput, 'dueDate'> & { dueDate?: string };
export type CompanyUpdatePayload = Omit<UpdateCompanyInput, 'dueDate'> & { dueDate?: string };

export const COMPANIES_KEY = ['companies', 'all'] as const;

export const companiesApi = {
  list: async () => (await api.get<CompanyRow[]>('/companies/list')).data,
  create: async (input: CompanyPayload) => (await api.post<CompanyRow>('/companies', input)).data,
  update: async (id: number, input: CompanyUpdatePayload) => (await api.put<CompanyRow>(`/companies/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/companies/${id}`);
  },
};
