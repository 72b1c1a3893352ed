import { Chat20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { BellButton } from '../../../components/bell-button';
import { useUnreadChats } from '../hooks/use-unread-chats';

/** The internal-chat bell (chats with unread messages); filled in by this feature. */
export function ChatsBell() {
  const { t } = useTranslation();
  const unread = useUnreadChats();
  return <BellButton label={t('layout.chats')} icon={<Chat20Regular />} dot={unread} emptyText={t('layout.nothingHere')} />;
}
