import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): scheduled messages changed. */
export const registerSchedulesRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('schedule.changed', ({ companyId, action, record }) => realtime.toCompany(companyId, 'schedule', { action, record }));
  events.on('schedule.deleted', ({ companyId, id }) => realtime.toCompany(companyId, 'schedule', { action: 'delete', id }));
};
