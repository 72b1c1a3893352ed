import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): companies changed; a company switched off or deleted loses its sockets. */
export const registerCompaniesRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('company.saved', async ({ companyId, action, company }) => {
    realtime.toCompany(companyId, 'company', { action, company });
    // Switched off or past its due date: its sockets close.
    if (action === 'update') await realtime.recheck({ companyId });
  });
  events.on('company.deleted', ({ companyId }) => realtime.recheck({ companyId }));
};
