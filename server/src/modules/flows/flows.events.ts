import type { FlowCampaignView, FlowView } from '@atrium/shared';

/** The flows module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'flow.changed': { companyId: number; action: 'create' | 'update'; record: FlowView<Date> };
    'flow.deleted': { companyId: number; id: number };
    'flowcampaign.changed': { companyId: number; action: 'create' | 'update'; record: FlowCampaignView<Date> };
    'flowcampaign.deleted': { companyId: number; id: number };
    /** Several campaigns went at once (their flow was deleted): lists read again. */
    'flowcampaign.reload': { companyId: number };
  }
}

export {};
