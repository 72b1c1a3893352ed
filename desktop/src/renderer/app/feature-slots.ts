import { lazy } from 'react';
import type { FeatureSlots } from '../components/feature-slots';
import { loadNamespaces } from '../i18n';

/**
 * The slots app/ fills (components/feature-slots.tsx); each is its feature's own chunk, loaded when first
 * shown, together with that feature's strings.
 */
export const FEATURE_SLOTS: FeatureSlots = {
  scheduleDialog: lazy(async () => {
    const [module] = await Promise.all([import('../features/schedules/components/schedule-modal'), loadNamespaces('schedules')]);
    return { default: module.ScheduleModal };
  }),
  flowLogDialog: lazy(async () => {
    const [module] = await Promise.all([import('../features/flowbuilder/components/flow-log-dialog'), loadNamespaces('flowbuilder')]);
    return { default: module.FlowLogDialog };
  }),
};
