import type { TicketPlacement, TicketView } from '../../events/bus.js';
import type { TicketActor } from './actor.js';

/** The tickets module's domain events (merged into the bus's DomainEvents). */
declare module '../../events/bus.js' {
  interface DomainEvents {
    /**
     * A ticket changed; `previous` is where it was (status, queue, user) so lists can drop it; `actor` who
     * changed it, when a transition did.
     */
    'ticket.changed': { companyId: number; ticket: TicketView; previous?: TicketPlacement; actor?: TicketActor };
    'ticket.deleted': { companyId: number; ticketId: number; previous: TicketPlacement };
    'ticket.read': { companyId: number; ticketId: number; placement: TicketPlacement };
  }
}
