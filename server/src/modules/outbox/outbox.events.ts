/** The outbox module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    /** A message was queued in the outbox: its connection's sender wakes. */
    'outbox.queued': { companyId: number; whatsappId: number };
    /** An outbox row reached its end: sent, or failed with an error code. */
    'outbox.settled': { companyId: number; outboxId: number; wid: string; status: 'sent' | 'failed'; error: string | null };
  }
}

export {};
