import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): users changed or removed; sockets whose rights changed are checked again. */
export const registerUsersRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('user.saved', async ({ companyId, action, user }) => {
    realtime.toCompany(companyId, 'user', { action, user });
    // A password change ends other sessions; a profile change changes what the sockets may join.
    if (action === 'update') await realtime.recheck({ userId: (user as { id: number }).id });
  });
  events.on('user.deleted', async ({ companyId, userId }) => {
    realtime.toCompany(companyId, 'user', { action: 'delete', userId });
    await realtime.recheck({ userId });
  });
};
