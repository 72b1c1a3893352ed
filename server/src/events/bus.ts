import { EventEmitter } from 'node:events';
import type { TicketView as WireTicketView } from '@atrium/shared';
import type { Logger } from '../logger.js';
import { afterCommit } from './after-commit.js';

/**
 * Domain events. Services announce what happened; listeners (realtime, jobs, automation) react.
 * A listener's failure is logged and never reaches the service that emitted the event. An event raised
 * inside a database transaction is delivered when that transaction commits, never if it rolls back.
 * Each module declares its own events in its `<module>.events.ts`, merged into this interface.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the modules' declarations
export interface DomainEvents {}

/** A quick message as the API shows it; who hears about it follows from its owner, geral and status. */
export type QuickMessageView = { id: number; userId: number | null; geral: boolean; status: boolean } & Record<string, unknown>;

/** Where a ticket sits, which decides who hears about it. */
export interface TicketPlacement {
  id: number;
  companyId: number;
  status: string;
  queueId: number | null;
  userId: number | null;
}

/** A ticket as the clients see it (the wire contract), with where it sits. */
export type TicketView = WireTicketView<Date> & TicketPlacement;

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
    afterCommit(() => this.emitter.emit(name, payload));
  }
}
