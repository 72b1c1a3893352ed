import { lazy } from 'react';
import type { FeatureSlots } from '../components/feature-slots';

/** The slots app/ fills (components/feature-slots.tsx); each is its feature's own chunk, loaded when first shown. */
export const FEATURE_SLOTS: FeatureSlots = {
  scheduleDialog: lazy(() => import('../features/schedules/components/schedule-modal').then((m) => ({ default: m.ScheduleModal }))),
  flowLogDialog: lazy(() => import('../features/flowbuilder/components/flow-log-dialog').then((m) => ({ default: m.FlowLogDialog }))),
};
