/** The contacts module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'contact.changed': { companyId: number; action: 'create' | 'update'; contact: object };
    'contact.deleted': { companyId: number; contactId: number };
  }
}

export {};
