import { EventEmitter } from 'node:events';
import type { ContactView, MessageView, TicketView as WireTicketView } from '@atrium/shared';
import type { Logger } from '../logger.js';
import { afterCommit } from './after-commit.js';

/**
 * Domain events. Services announce what happened; listeners (realtime, jobs, automation) react.
 * A listener's failure is logged and never reaches the service that emitted the event. An event raised
 * inside a database transaction is delivered when that transaction commits, never if it rolls back.
 */
export interface DomainEvents {
  'auth.login': { companyId: number; userId: number; email: string };
  'user.saved': { companyId: number; action: 'create' | 'update'; user: object };
  'user.deleted': { companyId: number; userId: number };
  'settings.updated': { companyId: number; key: string; value: string };
  'company.saved': { companyId: number; action: 'create' | 'update'; company: object };
  'company.deleted': { companyId: number };
  /** A ticket changed; `previous` is where it was (status, queue, user) so lists can drop it. */
  'ticket.changed': { companyId: number; ticket: TicketView; previous?: TicketPlacement };
  'ticket.deleted': { companyId: number; ticketId: number; previous: TicketPlacement };
  'ticket.read': { companyId: number; ticketId: number; placement: TicketPlacement };
  'message.created': {
    companyId: number;
    message: MessageView<Date>;
    ticket: TicketView;
    contact: ContactView<Date> | null;
    isNewTicket: boolean;
  };
  'message.updated': { companyId: number; message: MessageView<Date>; placement: TicketPlacement };
  'contact.changed': { companyId: number; action: 'create' | 'update'; contact: object };
  'contact.deleted': { companyId: number; contactId: number };
  'connection.changed': { companyId: number; action: 'create' | 'update'; whatsapp: { qrcode: string } };
  'connection.deleted': { companyId: number; whatsappId: number };
  'connection.session': { companyId: number; session: { qrcode: string } };
  /** `wasShared`: the record was visible company-wide (geral and active) before this change. */
  'quickmessage.changed': { companyId: number; action: 'create' | 'update'; record: QuickMessageView; wasShared: boolean };
  'quickmessage.deleted': { companyId: number; id: number; userId: number | null; wasShared: boolean };
  'queue.changed': { companyId: number; action: 'create' | 'update'; queue: object };
  'queue.deleted': { companyId: number; queueId: number };
  /** An invoice was paid: `company` carries its new dueDate. */
  'payment.concluded': { companyId: number; company: object };
  'schedule.changed': { companyId: number; action: 'create' | 'update'; record: object };
  'schedule.deleted': { companyId: number; id: number };
  /** A message was queued in the outbox: its connection's sender wakes. */
  'outbox.queued': { companyId: number; whatsappId: number };
  /** An outbox row reached its end: sent, or failed with an error code. */
  'outbox.settled': { companyId: number; outboxId: number; wid: string; status: 'sent' | 'failed'; error: string | null };
  /** Announcements are global: every socket of every company hears them. */
  'announcement.changed': { action: 'create' | 'update'; record: object };
  'announcement.deleted': { id: number };
}

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
