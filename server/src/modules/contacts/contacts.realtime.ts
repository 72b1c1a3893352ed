import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): contacts changed. */
export const registerContactsRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('contact.changed', ({ companyId, action, contact }) => realtime.toCompany(companyId, 'contact', { action, contact }));
  events.on('contact.deleted', ({ companyId, contactId }) => realtime.toCompany(companyId, 'contact', { action: 'delete', contactId }));
};
