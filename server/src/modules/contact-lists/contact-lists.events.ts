import type { ContactListImportView, ContactListItemView, ContactListView } from '@atrium/shared';

/** The contact-lists module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'contactlist.changed': { companyId: number; action: 'create' | 'update'; record: ContactListView<Date> };
    'contactlist.deleted': { companyId: number; id: number };
    'contactlistitem.changed': { companyId: number; action: 'create' | 'update'; record: ContactListItemView<Date> };
    'contactlistitem.deleted': { companyId: number; id: number; contactListId: number };
    /** Many items changed at once (an import, a check): the list's screen reads them again. */
    'contactlistitem.reload': { companyId: number; contactListId: number };
    /** An import's progress (throttled by the job) and its end. */
    'contactlist.import': { companyId: number; contactListId: number; import: ContactListImportView<Date> };
  }
}

export {};
