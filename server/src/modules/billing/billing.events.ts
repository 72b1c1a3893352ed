/** The billing module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    /** An invoice was paid: `company` carries its new dueDate. */
    'payment.concluded': { companyId: number; company: object };
  }
}

export {};
