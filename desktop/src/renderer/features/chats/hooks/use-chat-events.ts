import { useEffect, useRef } from 'react';
import { useMatch } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useRealtimeEvent } from '../../../api/socket';
import { notify, setUnreadPart } from '../../../platform';
import { useCurrentUser } from '../../../stores/auth-store';
import { usePreferences } from '../../../stores/preferences-store';
import type { ChatEvent, ChatMessage, Chat } from '../api/chats';
import { useChatCache, useUnreadChatCount } from './use-chats';

/** The text of a chat message's notification: the sender and the text, or the file's name. */
export const notificationBody = (message: ChatMessage, fileLabel: (name: string) => string): string =>
  `${message.sender?.name ?? ''}: ${message.message || fileLabel(message.mediaName ?? '')}`;

/** Whether the user is looking at this chat right now (its route, in a focused window). */
const isViewing = (chat: Chat, routeId: string | undefined): boolean =>
  routeId !== undefined &&
  (routeId === chat.uuid || routeId === String(chat.id)) &&
  typeof document !== 'undefined' &&
  document.hasFocus();

/**
 * The internal chat's realtime side, mounted once (by the top bar's chat bell): company-{id}-chat events
 * keep the list and open conversations current, a colleague's message raises a system notification and
 * the sound, and the chats with unread messages are this feature's part of the tray badge.
 */
export function useChatEvents() {
  const user = useCurrentUser();
  const { t } = useTranslation('chats');
  const volume = usePreferences((s) => s.volume);
  const routeId = useMatch('/chats/:id')?.params.id;
  const cache = useChatCache();
  const unread = useUnreadChatCount();
  const latest = useRef({ routeId, volume });
  latest.current = { routeId, volume };

  useRealtimeEvent<ChatEvent>('chat', (event) => {
    if (event.action === 'delete') {
      cache.remove(event.id);
      return;
    }
    const chat = event.chat;
    cache.upsert(chat);
    if (event.action !== 'new-message') return;
    cache.addMessage(event.newMessage);
    if (!user || event.newMessage.senderId === user.id || isViewing(chat, latest.current.routeId)) return;
    void notify(
      {
        title: chat.title,
        body: notificationBody(event.newMessage, (name) => t('notification.file', { name })),
        chatUuid: chat.uuid,
      },
      latest.current.volume,
    );
  });

  useEffect(() => {
    void setUnreadPart('chats', unread);
  }, [unread]);
  useEffect(() => () => void setUnreadPart('chats', 0), []);
}
