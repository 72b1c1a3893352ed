/** The settings module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'settings.updated': { companyId: number; key: string; value: string };
  }
}

export {};
