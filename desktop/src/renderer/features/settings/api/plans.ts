import type { CreatePlanInput, PlanFeature, UpdatePlanInput } from '@atrium/shared';
import { api } from '../../../api/client';

/** A plan (spec 01 section 3): limits, value in BRL and the use* feature flags. */
export type PlanRow = {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
} & Record<PlanFeature, boolean>;

export const PLANS_KEY = ['plans', 'all'] as const;

export const plansApi = {
  list: async () => (await api.get<PlanRow[]>('/plans/all')).data,
  create: async (input: CreatePlanInput) => (await api.post<PlanRow>('/plans', input)).data,
  update: async (id: number, input: UpdatePlanInput) => (await api.put<PlanRow>(`/plans/${id}`, input)).data,
  remove: async (id: number) => {
    await api.delete(`/plans/${id}`);
  },
};
