/** The schedules module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'schedule.changed': { companyId: number; action: 'create' | 'update'; record: object };
    'schedule.deleted': { companyId: number; id: number };
  }
}

export {};
