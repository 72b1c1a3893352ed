import { useCallback, useRef } from 'react';
import { useQuery } from '../../../api/query';
import { toastError } from '../../../api/errors';
import { useRealtimeEvent, useRealtimeRoom } from '../../../api/socket';
import { fetchMessages } from '../api/tickets';
import type { AppMessageEvent, Message } from '../api/types';

export interface MessagesData {
  items: Message[];
  hasMore: boolean;
  pageNumber: number;
}

/** Adds or replaces a message, keeping the list in time order. */
export const upsertMessage = (items: Message[], message: Message): Message[] => {
  const at = items.findIndex((m) => m.id === message.id);
  if (at >= 0) return items.map((m, i) => (i === at ? { ...m, ...message } : m));
  return [...items, message];
};

/** The conversation's messages: newest page first, older pages prepended, live through the chatBox room. */
export function useMessages(ticketId: number | undefined) {
  const key = ['messages', ticketId] as const;
  const query = useQuery<MessagesData>(
    key,
    async () => {
      const page = await fetchMessages(ticketId as number, 1);
      return { items: page.messages, hasMore: page.hasMore, pageNumber: 1 };
    },
    { enabled: ticketId !== undefined },
  );
  useRealtimeRoom('chatBox', ticketId === undefined ? undefined : String(ticketId), ticketId !== undefined);
  useRealtimeEvent<AppMessageEvent>('appMessage', (event) => {
    if (!event.message || event.message.ticketId !== ticketId) return;
    query.setData((old) => (old ? { ...old, items: upsertMessage(old.items, event.message) } : old));
  });

  const loading = useRef(false);
  const { data, setData } = query;
  const loadOlder = useCallback(async () => {
    if (loading.current || !data?.hasMore || ticketId === undefined) return false;
    loading.current = true;
    try {
      const next = data.pageNumber + 1;
      const page = await fetchMessages(ticketId, next);
      setData((old) =>
        old
          ? {
              items: [...page.messages.filter((m) => !old.items.some((o) => o.id === m.id)), ...old.items],
              hasMore: page.hasMore,
              pageNumber: next,
            }
          : old,
      );
      return true;
    } catch (err) {
      toastError(err);
      return false;
    } finally {
      loading.current = false;
    }
  }, [data, setData, ticketId]);

  return { ...query, items: data?.items ?? [], hasMore: data?.hasMore ?? false, loadOlder };
}
