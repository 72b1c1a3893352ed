import { rooms } from '@atrium/shared';
import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/**
 * What clients hear (spec 04 sections 1 and 2, with the note: throttled, counts only):
 * `company-{id}-campaign` (create, update with the record, delete with the id, and while a campaign runs an
 * update with its status and counts at most once a second) and `company-{id}-campaignSettings`. Campaigns
 * are an admin's business: only the company's admins hear them.
 */
export const registerCampaignsRealtime = (events: EventBus, realtime: Realtime): void => {
  const admins = (companyId: number) => [rooms.admins(companyId)];
  events.on('campaign.changed', ({ companyId, action, record }) => realtime.toRooms(admins(companyId), companyId, 'campaign', { action, record }));
  events.on('campaign.counts', ({ companyId, record }) => realtime.toRooms(admins(companyId), companyId, 'campaign', { action: 'update', record }));
  events.on('campaign.deleted', ({ companyId, id }) => realtime.toRooms(admins(companyId), companyId, 'campaign', { action: 'delete', id }));
  events.on('campaign.settings', ({ companyId, settings }) =>
    realtime.toRooms(admins(companyId), companyId, 'campaignSettings', { action: 'update', settings }),
  );
};
