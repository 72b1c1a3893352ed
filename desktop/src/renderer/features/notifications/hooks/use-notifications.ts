import { useEffect } from 'react';
import { useMatch } from 'react-router';
import { useQuery } from '../../../api/query';
import { useRealtimeEvent, useRealtimeRoom } from '../../../api/socket';
import type { SessionUser } from '../../../api/types';
import { stripWhatsApp } from '../../../components/whatsapp-format';
import { notify, setUnreadPart } from '../../../platform';
import { useCurrentUser } from '../../../stores/auth-store';
import { usePreferences } from '../../../stores/preferences-store';
import { fetchUnreadTickets, type NotificationMessage, type UnreadTicket } from '../api/notifications';

type TicketEvent =
  | { action: 'update'; ticket: UnreadTicket }
  | { action: 'delete' | 'updateUnread'; ticketId: number };

interface AppMessageEvent {
  action: 'create' | 'update';
  message: NotificationMessage;
  ticket?: UnreadTicket;
  contact?: { name: string };
}

/**
 * Whether a new customer message should notify this user: a ticket they may see (theirs or unassigned,
 * in their queues), pending ones only with allTicket enabled.
 */
export const shouldNotify = (user: SessionUser, event: AppMessageEvent): boolean => {
  const { message, ticket } = event;
  if (event.action !== 'create' || !ticket || message.fromMe) return false;
  if (ticket.userId && ticket.userId !== user.id) return false;
  const inQueue = !ticket.queueId || user.profile === 'admin' || user.queues.some((q) => q.id === ticket.queueId);
  if (!inQueue) return false;
  if (ticket.status === 'pending' && user.allTicket !== 'enabled') return false;
  return ticket.status !== 'closed';
};

/**
 * The system notification for a customer's message: who wrote and what, as plain text (a notification
 * cannot show WhatsApp's *bold* or _italic_, so the markers go rather than show).
 */
export const notificationOf = (event: AppMessageEvent, ticket: UnreadTicket) => ({
  title: event.contact?.name ?? ticket.contact?.name ?? '',
  body: stripWhatsApp(event.message.body),
  ticketUuid: ticket.uuid,
});

/** Tickets with unread messages, kept live; new customer messages raise a system notification and the sound. */
export function useNotifications() {
  const user = useCurrentUser();
  const volume = usePreferences((s) => s.volume);
  const viewing = useMatch('/tickets/:ticketId')?.params.ticketId;
  const query = useQuery(['notifications', 'unread-tickets'], fetchUnreadTickets, { enabled: !!user, silent: true });
  useRealtimeRoom('notification', undefined, !!user);

  useRealtimeEvent<TicketEvent>('ticket', (event) => {
    query.setData((old) => {
      if (!old) return old;
      if (event.action === 'update') {
        const t = event.ticket;
        const rest = old.filter((o) => o.id !== t.id);
        if (t.unreadMessages > 0 && (t.userId === user?.id || t.status === 'pending')) return [t, ...rest];
        return rest;
      }
      return old.filter((o) => o.id !== event.ticketId);
    });
  });

  useRealtimeEvent<AppMessageEvent>('appMessage', (event) => {
    if (!user || !event.ticket || !shouldNotify(user, event)) return;
    const focused = typeof document !== 'undefined' && document.hasFocus();
    if (viewing === event.ticket.uuid && focused) return;
    const ticket = event.ticket;
    query.setData((old) => [ticket, ...(old ?? []).filter((o) => o.id !== ticket.id)]);
    void notify(notificationOf(event, ticket), volume);
  });

  const tickets = query.data ?? [];
  useEffect(() => {
    void setUnreadPart('tickets', tickets.length);
  }, [tickets.length]);
  return tickets;
}
