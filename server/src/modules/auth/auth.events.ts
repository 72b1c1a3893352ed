/** The auth module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'auth.login': { companyId: number; userId: number; email: string };
  }
}

export {};
