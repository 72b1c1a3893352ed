import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/**
 * What clients hear (spec 04 section 3): `company-{id}-ContactList` (create, update, delete) and
 * `company-{id}-ContactListItem` (create, update, delete, reload, and an import's progress), each with the
 * list's id so a screen keeps only its own list's events. To that company only.
 */
export const registerContactListsRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('contactlist.changed', ({ companyId, action, record }) => realtime.toCompany(companyId, 'ContactList', { action, record }));
  events.on('contactlist.deleted', ({ companyId, id }) => realtime.toCompany(companyId, 'ContactList', { action: 'delete', id }));
  events.on('contactlistitem.changed', ({ companyId, action, record }) =>
    realtime.toCompany(companyId, 'ContactListItem', { action, record, contactListId: record.contactListId }),
  );
  events.on('contactlistitem.deleted', ({ companyId, id, contactListId }) =>
    realtime.toCompany(companyId, 'ContactListItem', { action: 'delete', id, contactListId }),
  );
  events.on('contactlistitem.reload', ({ companyId, contactListId }) => realtime.toCompany(companyId, 'ContactListItem', { action: 'reload', contactListId }));
  events.on('contactlist.import', ({ companyId, contactListId, import: progress }) =>
    realtime.toCompany(companyId, 'ContactListItem', { action: 'import', contactListId, import: progress }),
  );
};
