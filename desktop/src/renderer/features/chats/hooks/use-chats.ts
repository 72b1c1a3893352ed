import { useInfiniteQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { usePlanFlags } from '../../../api/company';
import { useCurrentUser } from '../../../stores/auth-store';
import { CHAT_LIST_KEY, CHAT_ONE_KEY, chatMessagesKey, chatsApi, type Chat, type ChatMessage, type Page } from '../api/chats';
import { byActivity, chatsWithUnread } from '../lib/chat-rules';

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

/** How many chats have unread messages for the signed-in user. */
export function useUnreadChatCount(): number {
  const user = useCurrentUser();
  const { chats } = useChatList();
  return useMemo(() => chatsWithUnread(chats, user?.id), [chats, user?.id]);
}

/**
 * Whether the user has unread internal-chat messages: the side menu's dot on /chats and the chat bell
 * read it (GET /chats users[].unreads, kept live by company-{id}-chat events).
 */
export function useUnreadChats(): boolean {
  return useUnreadChatCount() > 0;
}

/** Cache edits the realtime events and the screen's own calls share. */
export const chatCache = (client: QueryClient) => ({
  /** Puts a chat (new or changed) at the top of the list. */
  upsert(chat: Chat) {
    client.setQueryData<ChatPages>(CHAT_LIST_KEY, (old) => {
      if (!old) return old;
      const pages = old.pages.map((p) => ({ ...p, records: p.records.filter((c) => c.id !== chat.id) }));
      const [first, ...rest] = pages;
      return { ...old, pages: [{ ...first, records: byActivity([chat, ...first.records]) }, ...rest] };
    });
    client.setQueriesData<Chat>({ queryKey: CHAT_ONE_KEY }, (old) => (old && old.id === chat.id ? chat : old));
  },
  remove(chatId: number) {
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
  return useMemo(() => chatCache(client), [client]);
}
