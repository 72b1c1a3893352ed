import type { CampaignCounts, CampaignSettingRow, CampaignStatus, CampaignView } from '@atrium/shared';

/** The campaigns module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'campaign.changed': { companyId: number; action: 'create' | 'update'; record: CampaignView<Date> };
    'campaign.deleted': { companyId: number; id: number };
    /** Rows of a running campaign moved (sent, failed, delivered, read, replied): its counts, throttled by the listener. */
    'campaign.progress': { companyId: number; campaignId: number };
    'campaign.settings': { companyId: number; settings: CampaignSettingRow[] };
    /** The throttled progress announcement (at most one a second per campaign): counts and status only. */
    'campaign.counts': { companyId: number; record: CampaignProgress };
  }
}

/** What the progress announcement carries: counts and status only. */
export interface CampaignProgress {
  id: number;
  status: CampaignStatus;
  completedAt: Date | null;
  counts: CampaignCounts;
}

export {};
