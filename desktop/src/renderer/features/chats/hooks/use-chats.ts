import { useInfiniteQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { usePlanFlags } from '../../../api/company';
import { useCurrentUser } from '../../../stores/auth-store';
import { useQuery } from '../../../api/query';
import { CHAT_LIST_KEY, CHAT_ONE_KEY, CHAT_UNREAD_KEY, chatMessagesKey, chatsApi, type Chat, type ChatMessage, type Page } from '../api/chats';
import { byActivity, unreadsOf, upsertChat } from '../lib/chat-rules';

type ChatPages = InfiniteData<Page<Chat>, number>;
type MessagePages = InfiniteData<Page<ChatMessage>, number>;

/** Whether the company's plan has the internal chat (null while the plan loads). */
export function useChatsEnabled(): boolean | null {
  const plan = usePlanFlags();
  if (!plan) return null;
  return plan.useInternalChat !== false;
}

/** GET /chats, page by page (the list loads the next within 100 px of its bottom); shared by the page, the bell and the menu. */
export function useChatList() {
  const user = useCurrentUser();
  const enabled = useChatsEnabled() === true && !!user;
  const query = useInfiniteQuery({
    queryKey: CHAT_LIST_KEY,
    queryFn: ({ pageParam }) => chatsApi.list(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: Page<Chat>, pages: Page<Chat>[]) => (last.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
  const chats = useMemo(() => {
    const seen = new Map<number, Chat>();
    for (const page of query.data?.pages ?? []) for (const c of page.records) if (!seen.has(c.id)) seen.set(c.id, c);
    return byActivity([...seen.values()]);
  }, [query.data]);
  return { ...query, chats };
}

/**
 * The chats the signed-in user has not read, newest activity first, and how many there are in all (the
 * server counts them, so one far down the chat list counts too). Kept live by chatCache.
 */
export function useUnreadChatList(): { chats: Chat[]; count: number } {
  const user = useCurrentUser();
  const enabled = useChatsEnabled() === true && !!user;
  const { data } = useQuery<Page<Chat>>([...CHAT_UNREAD_KEY], chatsApi.unread, { enabled, silent: true });
  return useMemo(() => ({ chats: byActivity(data?.records ?? []), count: data?.count ?? 0 }), [data]);
}

/** How many chats have unread messages for the signed-in user. */
export function useUnreadChatCount(): number {
  return useUnreadChatList().count;
}

/**
 * Whether the user has unread internal-chat messages: the side menu's dot on /chats and the chat bell
 * read it (GET /chats?unread=true, kept live by company-{id}-chat events).
 */
export function useUnreadChats(): boolean {
  return useUnreadChatCount() > 0;
}

/** The unread list without a chat (read, or deleted), one fewer. */
const withoutUnread = (old: Page<Chat> | undefined, chatId: number): Page<Chat> | undefined =>
  old?.records.some((c) => c.id === chatId) ? { ...old, records: old.records.filter((c) => c.id !== chatId), count: Math.max(0, old.count - 1) } : old;

/** The unread list after a chat changed: in it while the user has unread messages there, counted once. */
const withUnread = (old: Page<Chat> | undefined, chat: Chat, userId: number | undefined): Page<Chat> | undefined => {
  if (!old) return old;
  if (unreadsOf(chat, userId) === 0) return withoutUnread(old, chat.id);
  const listed = old.records.some((c) => c.id === chat.id);
  return { ...old, records: upsertChat(old.records, chat), count: old.count + (listed ? 0 : 1) };
};

/** Cache edits the realtime events and the screen's own calls share; `userId` is the signed-in user. */
export const chatCache = (client: QueryClient, userId?: number) => ({
  /** Puts a chat (new or changed) at the top of the list, and in or out of the unread list. */
  upsert(chat: Chat) {
    client.setQueryData<Page<Chat>>(CHAT_UNREAD_KEY, (old) => withUnread(old, chat, userId));
    client.setQueryData<ChatPages>(CHAT_LIST_KEY, (old) => {
      if (!old) return old;
      const pages = old.pages.map((p) => ({ ...p, records: p.records.filter((c) => c.id !== chat.id) }));
      const [first, ...rest] = pages;
      return { ...old, pages: [{ ...first, records: byActivity([chat, ...first.records]) }, ...rest] };
    });
    client.setQueriesData<Chat>({ queryKey: CHAT_ONE_KEY }, (old) => (old && old.id === chat.id ? chat : old));
  },
  remove(chatId: number) {
    client.setQueryData<Page<Chat>>(CHAT_UNREAD_KEY, (old) => withoutUnread(old, chatId));
    client.setQueryData<ChatPages>(CHAT_LIST_KEY, (old) =>
      old ? { ...old, pages: old.pages.map((p) => ({ ...p, records: p.records.filter((c) => c.id !== chatId) })) } : old,
    );
    client.removeQueries({ queryKey: chatMessagesKey(chatId) });
    client.removeQueries({ queryKey: CHAT_ONE_KEY, predicate: (q) => (q.state.data as Chat | undefined)?.id === chatId });
  },
  /** Adds a message to a loaded conversation (at the newest end), once. */
  addMessage(message: ChatMessage) {
    client.setQueryData<MessagePages>(chatMessagesKey(message.chatId), (old) => {
      if (!old || old.pages.some((p) => p.records.some((m) => m.id === message.id))) return old;
      const [newest, ...older] = old.pages;
      return { ...old, pages: [{ ...newest, records: [...newest.records, message], count: newest.count + 1 }, ...older] };
    });
  },
});

export function useChatCache() {
  const client = useQueryClient();
  const userId = useCurrentUser()?.id;
  return useMemo(() => chatCache(client, userId), [client, userId]);
}
