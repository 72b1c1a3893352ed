import { useCallback, useEffect, useRef } from 'react';
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

const isBefore = (a: Message, b: Message): boolean => {
  const at = Date.parse(a.createdAt);
  const bt = Date.parse(b.createdAt);
  return at === bt ? a.id < b.id : at < bt;
};

/** Adds or replaces a message, keeping the list in time order (a new one usually goes last). */
export const upsertMessage = (items: Message[], message: Message): Message[] => {
  const at = items.findIndex((m) => m.id === message.id);
  if (at >= 0) return items.map((m, i) => (i === at ? { ...m, ...message } : m));
  let index = items.length;
  while (index > 0 && isBefore(message, items[index - 1])) index -= 1;
  return [...items.slice(0, index), message, ...items.slice(index)];
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

  /**
   * Reads the newest page again and merges it in (older pages already loaded stay). The server marks the
   * ticket read when its newest page is read: this is how an open conversation reads what arrives.
   */
  const refreshNewest = useCallback(async () => {
    if (ticketId === undefined) return;
    try {
      const page = await fetchMessages(ticketId, 1);
      setData((old) =>
        old
          ? { ...old, items: page.messages.reduce(upsertMessage, old.items) }
          : { items: page.messages, hasMore: page.hasMore, pageNumber: 1 },
      );
    } catch {
      // Best effort: the next arrival or focus tries again, and the list shows the unread count meanwhile.
    }
  }, [setData, ticketId]);

  return { ...query, items: data?.items ?? [], hasMore: data?.hasMore ?? false, loadOlder, refreshNewest };
}

const windowFocused = () => typeof document !== 'undefined' && document.hasFocus();

/**
 * The conversation on screen reads what arrives on it (the server counts every customer message unread
 * until GET /messages/{ticketId} reads the newest page). A customer message for this ticket is read at
 * once while the window has focus; otherwise when the window gets focus back.
 */
export function useReadWhileOpen(ticketId: number | undefined, unreadMessages: number, refreshNewest: () => Promise<void>) {
  const owed = useRef(false);
  const latest = useRef({ unreadMessages, refreshNewest });
  latest.current = { unreadMessages, refreshNewest };
  // A burst of messages costs one request out and at most one more after it.
  const running = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  const read = useCallback(() => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = latest.current.refreshNewest().finally(() => {
      running.current = null;
      if (again.current) {
        again.current = false;
        read();
      }
    });
  }, []);

  useRealtimeEvent<AppMessageEvent>('appMessage', (event) => {
    if (ticketId === undefined || event.action !== 'create' || !event.message) return;
    if (event.message.ticketId !== ticketId || event.message.fromMe) return;
    if (windowFocused()) read();
    else owed.current = true;
  });

  useEffect(() => {
    if (ticketId === undefined) return;
    owed.current = false;
    const onFocus = () => {
      if (!owed.current && latest.current.unreadMessages === 0) return;
      owed.current = false;
      read();
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [ticketId, read]);
}
