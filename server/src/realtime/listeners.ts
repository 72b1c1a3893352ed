import type { EventBus } from '../events/bus.js';
import type { Realtime } from './server.js';

/** Domain events that clients hear about, and to whom (spec 01 section 7, spec 03 section 14). */
export const registerRealtimeListeners = (events: EventBus, realtime: Realtime): void => {
  events.on('auth.login', ({ companyId, userId, email }) =>
    // The user's other sessions hear it and log out.
    realtime.toUser(userId, companyId, 'auth', { action: 'update', user: { id: userId, email, companyId } }),
  );
  events.on('user.saved', ({ companyId, action, user }) => realtime.toCompany(companyId, 'user', { action, user }));
  events.on('user.deleted', ({ companyId, userId }) =>
    realtime.toCompany(companyId, 'user', { action: 'delete', userId }),
  );
  events.on('settings.updated', ({ companyId, key, value }) =>
    realtime.toCompany(companyId, 'settings', { action: 'update', setting: { key, value } }),
  );
  events.on('company.saved', ({ companyId, action, company }) =>
    realtime.toCompany(companyId, 'company', { action, company }),
  );
};
