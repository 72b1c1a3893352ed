import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatch } from 'react-router';
import { queryClient, useQuery } from '../../../api/query';
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

/** Whether the automation (the queue chatbot, an integration, a prompt) is talking with the customer. */
export const heldByBot = (ticket: Pick<UnreadTicket, 'chatbot' | 'useIntegration' | 'promptId'>): boolean =>
  !!ticket.chatbot || !!ticket.useIntegration || !!ticket.promptId;

/**
 * Whether this user's bell shows the ticket (the server's withUnreadMessages rule, spec 03 section 1): their
 * own or a waiting one, in their queues (queue-less ones with allTicket), with unread customer messages.
 */
export const inBell = (user: SessionUser, ticket: UnreadTicket): boolean => {
  if (ticket.unreadMessages <= 0 || ticket.status === 'closed') return false;
  if (ticket.userId === user.id) return true;
  if (ticket.status !== 'pending' || ticket.userId) return false;
  if (user.profile === 'admin') return true;
  return ticket.queueId ? user.queues.some((q) => q.id === ticket.queueId) : user.allTicket === 'enabled';
};

/**
 * Whether a new customer message should notify this user: a ticket of their bell (theirs, or waiting in
 * their queues; queue-less ones only with allTicket) that no automation is handling. While the chatbot
 * talks with the customer nobody is called; the handoff is announced once (see announces).
 */
export const shouldNotify = (user: SessionUser, event: AppMessageEvent): boolean => {
  const { message, ticket } = event;
  if (event.action !== 'create' || !ticket || message.fromMe) return false;
  return inBell(user, { ...ticket, unreadMessages: Math.max(1, ticket.unreadMessages) }) && !heldByBot(ticket);
};

/**
 * Whether a ticket update announces a conversation to this user: it has just come to wait for a person
 * (the chatbot handed it over, or it moved into the user's queue) with the customer's messages unread, and
 * the bell did not already have it waiting for a person. `before` is the bell's entry before the update.
 */
export const announces = (user: SessionUser, ticket: UnreadTicket, before: UnreadTicket | undefined): boolean =>
  inBell(user, ticket) && !heldByBot(ticket) && (!before || heldByBot(before));

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
  const { t: i18n } = useTranslation('notifications');
  const volume = usePreferences((s) => s.volume);
  const viewing = useMatch('/tickets/:ticketId')?.params.ticketId;
  const query = useQuery(['notifications', 'unread-tickets'], fetchUnreadTickets, { enabled: !!user, silent: true });
  useRealtimeRoom('notification', undefined, !!user);

  const bellNow = () => queryClient.getQueryData<UnreadTicket[]>(['notifications', 'unread-tickets']);
  const alert = (ticket: UnreadTicket, notification: ReturnType<typeof notificationOf>) => {
    const focused = typeof document !== 'undefined' && document.hasFocus();
    if (viewing === ticket.uuid && focused) return;
    void notify(notification, volume);
  };

  useRealtimeEvent<TicketEvent>('ticket', (event) => {
    if (!user) return;
    if (event.action === 'update') {
      const t = event.ticket;
      const before = bellNow()?.find((o) => o.id === t.id);
      // A conversation the chatbot handed over (or one moved into the user's queue) is announced once.
      if (announces(user, t, before)) {
        const body = t.queue ? i18n('handoff', { queue: t.queue.name }) : i18n('handoffNoQueue');
        alert(t, { title: t.contact?.name ?? '', body, ticketUuid: t.uuid });
      }
    }
    query.setData((old) => {
      if (!old) return old;
      if (event.action === 'update') {
        const t = event.ticket;
        const rest = old.filter((o) => o.id !== t.id);
        return inBell(user, t) ? [t, ...rest] : rest;
      }
      return old.filter((o) => o.id !== event.ticketId);
    });
  });

  useRealtimeEvent<AppMessageEvent>('appMessage', (event) => {
    if (!user || !event.ticket || !shouldNotify(user, event)) return;
    const ticket = event.ticket;
    // In the bell before the notification: the update that follows this message finds it there.
    query.setData((old) => [ticket, ...(old ?? []).filter((o) => o.id !== ticket.id)]);
    alert(ticket, notificationOf(event, ticket));
  });

  const tickets = query.data ?? [];
  useEffect(() => {
    void setUnreadPart('tickets', tickets.length);
  }, [tickets.length]);
  return tickets;
}
