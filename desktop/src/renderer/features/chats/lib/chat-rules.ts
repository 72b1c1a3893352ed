import type { Chat, ChatMessage } from '../api/chats';

/** The caller's unread counter in a chat (0 when they are not listed). */
export const unreadsOf = (chat: Chat, userId: number | undefined): number => chat.users.find((u) => u.userId === userId)?.unreads ?? 0;

/** The chats in the order the list shows them: most recently active first. */
export const byActivity = (chats: Chat[]): Chat[] =>
  [...chats].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id - a.id);

/** Adds or replaces a chat in a list, keeping it in activity order. */
export const upsertChat = (chats: Chat[], chat: Chat): Chat[] => byActivity([chat, ...chats.filter((c) => c.id !== chat.id)]);

/** The other participants' names, for a chat's second line. */
export const othersOf = (chat: Chat, userId: number | undefined): string =>
  chat.users
    .filter((u) => u.userId !== userId)
    .map((u) => u.user.name)
    .join(', ');

/**
 * Messages in screen order (oldest at the top, newest at the bottom) from pages that start at the newest:
 * each page comes oldest first, so the pages are laid out last page first. New messages may shift the
 * server's pages, so an id seen twice is kept once.
 */
export const inScreenOrder = (pages: { records: ChatMessage[] }[]): ChatMessage[] => {
  const seen = new Set<number>();
  const out: ChatMessage[] = [];
  for (const page of [...pages].reverse()) {
    for (const m of page.records) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      out.push(m);
    }
  }
  return out.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
};
