import type { TagView } from '@atrium/shared';

/** The tags module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    /** A tag was created or changed (name, colour, kanban, lane position). */
    'tag.changed': { companyId: number; action: 'create' | 'update'; tag: TagView<Date> };
    'tag.deleted': { companyId: number; tagId: number };
  }
}
