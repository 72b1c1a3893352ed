import { useCallback, useEffect, useRef } from 'react';
import { Button, makeStyles, mergeClasses, Text, tokens, Tooltip } from '@fluentui/react-components';
import { ArrowLeft20Regular, Delete20Regular, Edit20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../api/errors';
import { chatsApi, type Chat } from '../api/chats';
import { useChatMessages } from '../hooks/use-chat-messages';
import { useChatCache } from '../hooks/use-chats';
import { othersOf, unreadsOf } from '../lib/chat-rules';
import { ChatComposer } from './chat-composer';
import { ChatMessages } from './chat-messages';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', flex: 1, minWidth: 0, minHeight: 0 },
  header: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    minWidth: 0,
  },
  titles: { flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground3 },
});

export interface ChatConversationProps {
  chat: Chat;
  userId: number | undefined;
  /** Narrow windows: back to the list tab. */
  onBack?: () => void;
  onEdit: (chat: Chat) => void;
  onDelete: (chat: Chat) => void;
}

/** One chat: its title and people, the messages, and the composer; opening it (or what arrives while it is open) marks it read. */
export function ChatConversation({ chat, userId, onBack, onEdit, onDelete }: ChatConversationProps) {
  const styles = useStyles();
  const { t } = useTranslation('chats');
  const cache = useChatCache();
  const { messages, isLoading, hasNextPage, isFetchingNextPage, fetchNextPage } = useChatMessages(chat.id);
  const unread = unreadsOf(chat, userId);
  const marking = useRef(false);

  // The unread counter is cleared when the chat is open and the window has the focus (spec 02 section 4).
  const markRead = useCallback(async () => {
    if (marking.current || unread === 0 || !document.hasFocus()) return;
    marking.current = true;
    try {
      cache.upsert(await chatsApi.markRead(chat.id));
    } catch (err) {
      toastError(err);
    } finally {
      marking.current = false;
    }
  }, [cache, chat.id, unread]);
  useEffect(() => {
    void markRead();
    window.addEventListener('focus', markRead);
    return () => window.removeEventListener('focus', markRead);
  }, [markRead]);

  const send = async (message: string, file?: File) => {
    try {
      cache.addMessage(await chatsApi.send(chat.id, message, file));
    } catch (err) {
      toastError(err);
      throw err;
    }
  };

  const owner = chat.ownerId === userId;
  return (
    <section className={styles.root} aria-label={chat.title} data-testid="chat-conversation">
      <header className={styles.header}>
        {onBack ? (
          <Tooltip content={t('conversation.back')} relationship="label">
            <Button appearance="subtle" icon={<ArrowLeft20Regular />} onClick={onBack} data-testid="chat-back" />
          </Tooltip>
        ) : null}
        <div className={styles.titles}>
          <Text weight="semibold" size={400} className={styles.ellipsis} data-testid="chat-title-shown">
            {chat.title}
          </Text>
          <Text size={200} className={mergeClasses(styles.ellipsis, styles.muted)}>
            {t('conversation.participants', { names: [t('conversation.you'), othersOf(chat, userId)].filter(Boolean).join(', ') })}
          </Text>
        </div>
        {owner ? (
          <>
            <Tooltip content={t('conversation.edit')} relationship="label">
              <Button appearance="subtle" icon={<Edit20Regular />} onClick={() => onEdit(chat)} data-testid="conversation-edit" />
            </Tooltip>
            <Tooltip content={t('conversation.delete')} relationship="label">
              <Button appearance="subtle" icon={<Delete20Regular />} onClick={() => onDelete(chat)} data-testid="conversation-delete" />
            </Tooltip>
          </>
        ) : null}
      </header>
      <ChatMessages
        messages={messages}
        userId={userId}
        loading={isLoading}
        hasOlder={!!hasNextPage}
        loadingOlder={isFetchingNextPage}
        loadOlder={() => fetchNextPage()}
      />
      <ChatComposer onSend={send} />
    </section>
  );
}
