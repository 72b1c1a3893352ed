import type { QueueView } from '@atrium/shared';

/** The queues module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'queue.changed': { companyId: number; action: 'create' | 'update'; queue: QueueView<Date> };
    'queue.deleted': { companyId: number; queueId: number };
  }
}

