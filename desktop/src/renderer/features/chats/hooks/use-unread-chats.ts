/**
 * Whether the user has unread internal-chat messages: the side menu's dot on /chats and the chat bell
 * read it. The chats feature computes it (GET /chats/ users[].unreads and company-{id}-chat events);
 * until then there is nothing unread.
 */
export function useUnreadChats(): boolean {
  return false;
}
