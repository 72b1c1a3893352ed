import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { chatMessagesKey, chatsApi, type ChatMessage, type Page } from '../api/chats';
import { inScreenOrder } from '../lib/chat-rules';

/** A conversation's messages: page 1 is the newest, older pages load as the user scrolls up. */
export function useChatMessages(chatId: number | undefined) {
  const query = useInfiniteQuery({
    queryKey: chatMessagesKey(chatId ?? 0),
    queryFn: ({ pageParam }) => chatsApi.messages(chatId as number, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: Page<ChatMessage>, pages: Page<ChatMessage>[]) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: chatId !== undefined,
  });
  const messages = useMemo(() => inScreenOrder(query.data?.pages ?? []), [query.data]);
  return { ...query, messages };
}
