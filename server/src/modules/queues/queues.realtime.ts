import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): queues changed. */
export const registerQueuesRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('queue.changed', ({ companyId, action, queue }) => realtime.toCompany(companyId, 'queue', { action, queue }));
  events.on('queue.deleted', ({ companyId, queueId }) => realtime.toCompany(companyId, 'queue', { action: 'delete', queueId }));

};
