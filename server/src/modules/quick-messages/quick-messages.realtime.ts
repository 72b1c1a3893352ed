import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): quick messages (shared ones to the company, private ones to their owner). */
export const registerQuickMessagesRealtime = (events: EventBus, realtime: Realtime): void => {
  // A shared (geral, active) quick message goes to the company; a private one only to its owner's sockets.
  events.on('quickmessage.changed', ({ companyId, action, record, wasShared }) => {
    if (record.geral && record.status) return realtime.toCompany(companyId, 'quickmessage', { action, record });
    if (wasShared) realtime.toCompany(companyId, 'quickmessage', { action: 'delete', id: record.id });
    if (record.userId) realtime.toUser(record.userId, companyId, 'quickmessage', { action, record });
  });
  events.on('quickmessage.deleted', ({ companyId, id, userId, wasShared }) => {
    if (wasShared) realtime.toCompany(companyId, 'quickmessage', { action: 'delete', id });
    else if (userId) realtime.toUser(userId, companyId, 'quickmessage', { action: 'delete', id });
  });
};
