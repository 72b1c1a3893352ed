import type { QueueIntegrationView } from '@atrium/shared';

/** The queue-integrations module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'queueIntegration.changed': { companyId: number; action: 'create' | 'update'; record: QueueIntegrationView<Date> };
    'queueIntegration.deleted': { companyId: number; id: number };
  }
}

export {};
