/** Plan feature flags (spec 01 section 3). They default to enabled in the plan form. */
export const PLAN_FEATURES = [
  'useCampaigns',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];
