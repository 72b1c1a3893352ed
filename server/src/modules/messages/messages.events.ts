import type { MessageView, ContactView } from '@atrium/shared';
import type { TicketPlacement, TicketView } from '../../events/bus.js';

/** The messages module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    'message.created': {
      companyId: number;
      message: MessageView<Date>;
      ticket: TicketView;
      contact: ContactView<Date> | null;
      isNewTicket: boolean;
    };
    'message.updated': { companyId: number; message: MessageView<Date>; placement: TicketPlacement };
  }
}
