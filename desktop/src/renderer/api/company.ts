import { useAuthStore } from '../stores/auth-store';
import { authApi } from './auth';
import { useQuery } from './query';
import type { CompanyPlan, PlanFlags } from './types';

export const companyPlanKey = (companyId: number | undefined) => ['company-plan', companyId ?? null] as const;

/** The session company's plan (GET /companies/listPlan/{companyId}): its feature flags drive the menu. */
export const useCompanyPlan = () => {
  const companyId = useAuthStore((s) => s.user?.companyId);
  return useQuery<CompanyPlan>(companyPlanKey(companyId), () => authApi.companyPlan(companyId as number), {
    enabled: companyId !== undefined,
    staleTime: 5 * 60_000,
    silent: true,
  });
};

/** The plan's feature flags, or null while unknown (plan-gated entries stay hidden until known). */
export const usePlanFlags = (): Partial<PlanFlags> | null => useCompanyPlan().data?.plan ?? null;
