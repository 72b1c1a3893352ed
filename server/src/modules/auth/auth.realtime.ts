import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): a login elsewhere logs the user's other sessions out. */
export const registerAuthRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('auth.login', async ({ companyId, userId, email, othersEnded }) => {
    // The user's other sessions hear it and log out; then their sockets, whose sessions the login ended, close.
    // With several sessions allowed, only the sessions over the limit ended: just their sockets close.
    if (othersEnded) realtime.toUser(userId, companyId, 'auth', { action: 'update', user: { id: userId, email, companyId } });
    await realtime.recheck({ userId });
  });
  // Their sessions were revoked: their open sockets close.
  events.on('auth.password-reset', ({ userId }) => realtime.recheck({ userId }));
  // The session's own sockets close, on whichever server process they are.
  events.on('auth.logout', ({ sessionId }) => realtime.endSession(sessionId));
};
