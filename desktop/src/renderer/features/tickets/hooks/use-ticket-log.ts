import { useRef } from 'react';
import { useQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { fetchTicketLog } from '../api/tickets';
import type { Ticket, TicketEvent, TicketLog } from '../api/types';

const placement = (t: Pick<Ticket, 'status' | 'queueId' | 'userId'>) => `${t.status}/${t.queueId ?? ''}/${t.userId ?? ''}`;

/**
 * The open ticket's activity trail. Every transition (transfer, accept, the chatbot's move, close, reopen)
 * announces the ticket on its room (`ticket` update) with a new place (status, queue, user): the trail is
 * read again then, not on the updates every message brings. Failures are silent: the trail is a courtesy,
 * the conversation works without it.
 */
export function useTicketLog(ticket: Pick<Ticket, 'id' | 'status' | 'queueId' | 'userId'> | undefined): TicketLog[] {
  const ticketId = ticket?.id;
  const query = useQuery<TicketLog[]>(['ticket-log', ticketId], () => fetchTicketLog(ticketId as number), {
    enabled: ticketId !== undefined,
    silent: true,
  });
  // Where the ticket on screen was last seen (another ticket opened starts over).
  const known = useRef<{ id: number; at: string } | undefined>(undefined);
  if (ticket && known.current?.id !== ticket.id) known.current = { id: ticket.id, at: placement(ticket) };
  useRealtimeEvent<TicketEvent>('ticket', (event) => {
    if (ticketId === undefined || event.action !== 'update' || event.ticket.id !== ticketId) return;
    const at = placement(event.ticket);
    if (at === known.current?.at) return;
    known.current = { id: ticketId, at };
    void query.refetch();
  });
  return query.data ?? [];
}
