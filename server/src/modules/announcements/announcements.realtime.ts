import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): announcements, heard by every company (spec 04 section 7 note: deletes too). */
export const registerAnnouncementsRealtime = (events: EventBus, realtime: Realtime): void => {
  // Spec 04 section 7 note: deletes too go to every socket, not only the deleter's company.
  events.on('announcement.changed', ({ action, record }) => realtime.announcement({ action, record }));
  events.on('announcement.deleted', ({ id }) => realtime.announcement({ action: 'delete', id }));

};
