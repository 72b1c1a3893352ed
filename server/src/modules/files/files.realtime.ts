import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear (spec 02 section 7): `company-{id}-file` with create, update or delete, to that company only. */
export const registerFilesRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('filelist.changed', ({ companyId, action, record }) => realtime.toCompany(companyId, 'file', { action, record }));
  events.on('filelist.deleted', ({ companyId, id }) => realtime.toCompany(companyId, 'file', { action: 'delete', id }));
};
