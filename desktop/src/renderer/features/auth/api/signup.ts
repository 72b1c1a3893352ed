import { addDays, format } from 'date-fns';
import { SIGNUP_TRIAL_DAYS } from '@atrium/shared';
import { api } from '../../../api/client';
import type { Plan } from '../../../api/types';

/** GET /plans/list: public, for the signup form. */
export const listPublicPlans = async (): Promise<Plan[]> =>
  (await api.get<Plan[]>('/plans/list', { skipSessionHandling: true })).data;

export interface SignupForm {
  name: string;
  email: string;
  /** Digits only. */
  phone: string;
  password: string;
  planId: number;
  /** From ?companyId= (kept for the family's referral links). */
  companyId?: string;
}

/**
 * POST /companies/cadastro with the family's payload (spec 01 section 3): recurrence MENSAL, status "t",
 * campaigns enabled, due date in 3 days. The server sets those itself; they are sent for the contract.
 */
export const signup = async (form: SignupForm): Promise<unknown> => {
  const { companyId, ...fields } = form;
  const payload = {
    ...fields,
    recurrence: 'MENSAL',
    dueDate: format(addDays(new Date(), SIGNUP_TRIAL_DAYS), 'yyyy-MM-dd'),
    status: 't',
    campaignsEnabled: true,
    ...(companyId ? { companyId } : {}),
  };
  return (await api.post('/companies/cadastro', payload, { skipSessionHandling: true })).data;
};
