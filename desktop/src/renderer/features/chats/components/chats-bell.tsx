import { useState } from 'react';
import { Avatar, Button, CounterBadge, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Chat20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BellButton, useBellListStyles } from '../../../components/bell-button';
import { formatListTime } from '../../../i18n/format';
import { useCurrentUser } from '../../../stores/auth-store';
import { useChatEvents } from '../hooks/use-chat-events';
import { useChatsEnabled, useUnreadChatList } from '../hooks/use-chats';
import { unreadsOf } from '../lib/chat-rules';

const useOwnStyles = makeStyles({
  side: { display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: '2px' },
  footer: { display: 'flex', justifyContent: 'center', paddingTop: tokens.spacingVerticalS },
});

/** The live side of the chat bell: mounted only when the plan has the internal chat. */
function ChatsBellLive() {
  const styles = { ...useBellListStyles(), ...useOwnStyles() };
  const { t } = useTranslation('chats');
  const navigate = useNavigate();
  const user = useCurrentUser();
  const [open, setOpen] = useState(false);
  useChatEvents();
  const { chats: unread, count } = useUnreadChatList();
  const go = (path: string) => {
    setOpen(false);
    void navigate(path);
  };
  return (
    <span data-testid="chats-bell" style={{ display: 'inline-flex' }}>
      <BellButton label={t('bell.title')} icon={<Chat20Regular />} count={count} open={open} onOpenChange={setOpen}>
        <div className={styles.list} role="list">
          {unread.length === 0 ? <Text className={styles.ellipsis}>{t('bell.empty')}</Text> : null}
          {unread.map((chat) => (
            <button type="button" role="listitem" key={chat.id} className={styles.item} onClick={() => go(`/chats/${chat.uuid}`)} data-testid={`chats-bell-item-${chat.id}`}>
              <Avatar size={32} name={chat.title} color="colorful" />
              <span className={styles.body}>
                <Text weight="semibold">{chat.title}</Text>
                <Text size={200} className={styles.ellipsis}>
                  {chat.lastMessage}
                </Text>
              </span>
              <span className={styles.side}>
                <Text size={100} className={styles.ellipsis}>
                  {formatListTime(chat.updatedAt)}
                </Text>
                <CounterBadge size="small" count={unreadsOf(chat, user?.id)} />
              </span>
            </button>
          ))}
          <div className={styles.footer}>
            <Button appearance="subtle" onClick={() => go('/chats')} data-testid="chats-bell-open">
              {t('bell.openAll')}
            </Button>
          </div>
        </div>
      </BellButton>
    </span>
  );
}

/** The internal-chat bell: the chats with unread messages, live; hidden when the plan has no internal chat. */
export function ChatsBell() {
  return useChatsEnabled() ? <ChatsBellLive /> : null;
}
