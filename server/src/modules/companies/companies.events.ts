/** The companies module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'company.saved': { companyId: number; action: 'create' | 'update'; company: object };
    'company.deleted': { companyId: number };
  }
}

export {};
