import type { FileListView } from '@atrium/shared';

/** The files module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'filelist.changed': { companyId: number; action: 'create' | 'update'; record: FileListView<Date> };
    'filelist.deleted': { companyId: number; id: number };
  }
}

export {};
