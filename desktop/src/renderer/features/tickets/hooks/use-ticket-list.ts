import { useCallback, useRef } from 'react';
import { queryClient, useQuery } from '../../../api/query';
import { toastError } from '../../../api/errors';
import { useRealtimeEvent, useRealtimeRoom } from '../../../api/socket';
import { fetchTickets, type TicketFilters } from '../api/tickets';
import type { AppMessageEvent, Message, TicketEvent } from '../api/types';
import { applyTicketEvent, type ListScope, type TicketListData } from '../lib/ticket-rules';

/** One ticket list (a tab): page 1 cached under ['tickets', filters], further pages appended, live updates. */
export function useTicketList(filters: TicketFilters, scope: ListScope, enabled = true) {
  const key = ['tickets', filters] as const;
  const query = useQuery<TicketListData>(
    key,
    async () => {
      const page = await fetchTickets(filters, 1);
      return { items: page.tickets, hasMore: page.hasMore, pageNumber: 1, count: page.count };
    },
    { enabled },
  );
  useRealtimeRoom('tickets', filters.status ?? 'search', enabled && !!filters.status);
  const scopeRef = useRef(scope);
  scopeRef.current = scope;
  useRealtimeEvent<TicketEvent>('ticket', (event) => {
    if (!enabled) return;
    query.setData((old) => applyTicketEvent(old, event, scopeRef.current));
  });

  // A deleted message that is the ticket's last one: its preview says so, as the conversation does.
  useRealtimeEvent<AppMessageEvent>('appMessage', (event) => {
    const message = event.message;
    if (!enabled || event.action !== 'update' || !message?.isDeleted) return;
    query.setData((old) => markLastMessageDeleted(old, message));
  });

  const loading = useRef(false);
  const { data, setData } = query;
  const loadMore = useCallback(async () => {
    if (loading.current || !data?.hasMore) return;
    loading.current = true;
    try {
      const next = data.pageNumber + 1;
      const page = await fetchTickets(filters, next);
      setData((old) =>
        old
          ? {
              ...old,
              items: [...old.items, ...page.tickets.filter((t) => !old.items.some((o) => o.id === t.id))],
              hasMore: page.hasMore,
              pageNumber: next,
            }
          : old,
      );
    } catch (err) {
      toastError(err);
    } finally {
      loading.current = false;
    }
  }, [data, setData, JSON.stringify(filters)]);

  return { ...query, items: data?.items ?? [], count: data?.count, hasMore: data?.hasMore ?? false, loadMore };
}

/** The list with the ticket's preview marked deleted, when the deleted message is the one it shows. */
export const markLastMessageDeleted = (old: TicketListData | undefined, message: Message): TicketListData | undefined => {
  if (!old) return old;
  const shows = (last: string | null) => !!last && !!message.body && (last === message.body || last.endsWith(`\n${message.body}`));
  const target = old.items.find((t) => t.id === message.ticketId && shows(t.lastMessage));
  if (!target) return old;
  return { ...old, items: old.items.map((t) => (t === target ? { ...t, lastMessageDeleted: true } : t)) };
};

export const invalidateTickets = () => void queryClient.invalidateQueries({ queryKey: ['tickets'] });
