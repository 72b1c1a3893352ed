/** The users module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'user.saved': { companyId: number; action: 'create' | 'update'; user: object };
    'user.deleted': { companyId: number; userId: number };
  }
}

export {};
