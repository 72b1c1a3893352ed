import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/**
 * What clients hear, to their company only: `company-{id}-flowbuilder` and `company-{id}-flowcampaign`
 * with create, update, delete (or reload), as the other lists of spec 02 do.
 */
export const registerFlowsRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('flow.changed', ({ companyId, action, record }) => realtime.toCompany(companyId, 'flowbuilder', { action, record }));
  events.on('flow.deleted', ({ companyId, id }) => realtime.toCompany(companyId, 'flowbuilder', { action: 'delete', id }));
  events.on('flowcampaign.changed', ({ companyId, action, record }) => realtime.toCompany(companyId, 'flowcampaign', { action, record }));
  events.on('flowcampaign.deleted', ({ companyId, id }) => realtime.toCompany(companyId, 'flowcampaign', { action: 'delete', id }));
  events.on('flowcampaign.reload', ({ companyId }) => realtime.toCompany(companyId, 'flowcampaign', { action: 'reload' }));
};
