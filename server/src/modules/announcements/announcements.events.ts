/** The announcements module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    /** Announcements are global: every socket of every company hears them. */
    'announcement.changed': { action: 'create' | 'update'; record: object };
    'announcement.deleted': { id: number };
  }
}

export {};
