import type { ContactView } from '@atrium/shared';
import type { OutboxSourceKind } from './outbound-message.entity.js';

/** The outbox module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    /** A message was queued in the outbox: its connection's sender wakes. */
    'outbox.queued': { companyId: number; whatsappId: number };
    /**
     * Several messages were queued on a ticket at once (queueManyOnTicket): the outbox module announces them
     * (message.created each) and then wakes the sender (outbox.queued).
     */
    'outbox.queuedOnTicket': { companyId: number; whatsappId: number; ticketId: number; messageIds: number[]; contact: ContactView<Date> };
    /**
     * Every outcome of an outbox row, each once: sent, failed (by the sender, a late error receipt or a
     * withdrawal; `error` says why), delivered, read. With the row's correlation (`source`), whether or not
     * the message has a ticket; the row's columns (status, sent_at, failed_at, delivered_at, read_at) say the same.
     */
    'outbox.settled': {
      companyId: number;
      whatsappId: number;
      outboxId: number;
      messageId: number | null;
      /** The contact it went to (a bulk row's, found or created when it settled). */
      contactId: number | null;
      wid: string;
      status: 'sent' | 'failed' | 'delivered' | 'read';
      error: string | null;
      source: { kind: OutboxSourceKind; id: number | null };
    };
  }
}

export {};
