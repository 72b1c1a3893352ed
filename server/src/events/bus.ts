import { EventEmitter } from 'node:events';
import type { Logger } from '../logger.js';

/**
 * Domain events. Services announce what happened; listeners (realtime, jobs, automation) react.
 * A listener's failure is logged and never reaches the service that emitted the event.
 */
export interface DomainEvents {
  'auth.login': { companyId: number; userId: number; email: string };
  'user.saved': { companyId: number; action: 'create' | 'update'; user: object };
  'user.deleted': { companyId: number; userId: number };
  'settings.updated': { companyId: number; key: string; value: string };
  'company.saved': { companyId: number; action: 'create' | 'update'; company: object };
  'company.deleted': { companyId: number };
}

export type DomainEventName = keyof DomainEvents;
type Listener<K extends DomainEventName> = (payload: DomainEvents[K]) => void | Promise<void>;

export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor(private readonly logger: Logger) {
    this.emitter.setMaxListeners(100);
  }

  on<K extends DomainEventName>(name: K, listener: Listener<K>): void {
    this.emitter.on(name, (payload: DomainEvents[K]) => {
      try {
        const result = listener(payload);
        if (result instanceof Promise) result.catch((err: unknown) => this.logger.error({ err, event: name }, 'event listener failed'));
      } catch (err) {
        this.logger.error({ err, event: name }, 'event listener failed');
      }
    });
  }

  emit<K extends DomainEventName>(name: K, payload: DomainEvents[K]): void {
    this.emitter.emit(name, payload);
  }
}
