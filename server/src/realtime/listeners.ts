import type { EventBus } from '../events/bus.js';
import type { Realtime } from './server.js';

/** Domain events that clients hear about, and to whom (spec 01 section 7, spec 03 section 14). */
export const registerRealtimeListeners = (events: EventBus, realtime: Realtime): void => {
  events.on('auth.login', async ({ companyId, userId, email }) => {
    // The user's other sessions hear it and log out; then their sockets, whose sessions the login ended, close.
    realtime.toUser(userId, companyId, 'auth', { action: 'update', user: { id: userId, email, companyId } });
    await realtime.recheck({ userId });
  });
  events.on('user.saved', async ({ companyId, action, user }) => {
    realtime.toCompany(companyId, 'user', { action, user });
    // A password change ends other sessions; a profile change changes what the sockets may join.
    if (action === 'update') await realtime.recheck({ userId: (user as { id: number }).id });
  });
  events.on('user.deleted', async ({ companyId, userId }) => {
    realtime.toCompany(companyId, 'user', { action: 'delete', userId });
    await realtime.recheck({ userId });
  });
  events.on('settings.updated', ({ companyId, key, value }) =>
    realtime.toCompany(companyId, 'settings', { action: 'update', setting: { key, value } }),
  );
  events.on('company.saved', async ({ companyId, action, company }) => {
    realtime.toCompany(companyId, 'company', { action, company });
    // Switched off or past its due date: its sockets close.
    if (action === 'update') await realtime.recheck({ companyId });
  });
  events.on('company.deleted', ({ companyId }) => realtime.recheck({ companyId }));
  events.on('payment.concluded', ({ companyId, company }) => realtime.toCompany(companyId, 'payment', { action: 'CONCLUIDA', company }));
  events.on('schedule.changed', ({ companyId, action, record }) => realtime.toCompany(companyId, 'schedule', { action, record }));
  events.on('schedule.deleted', ({ companyId, id }) => realtime.toCompany(companyId, 'schedule', { action: 'delete', id }));
  // Spec 04 section 7 note: deletes too go to every socket, not only the deleter's company.
  events.on('announcement.changed', ({ action, record }) => realtime.announcement({ action, record }));
  events.on('announcement.deleted', ({ id }) => realtime.announcement({ action: 'delete', id }));
};
