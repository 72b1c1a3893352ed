import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): settings changed. */
export const registerSettingsRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('settings.updated', ({ companyId, key, value }) =>
    realtime.toCompany(companyId, 'settings', { action: 'update', setting: { key, value } }),
  );
};
