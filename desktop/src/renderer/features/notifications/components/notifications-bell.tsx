import { Alert20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { BellButton } from '../../../components/bell-button';

/**
 * The notification bell: tickets with unread messages, a system notification and the sound (at the
 * stored volume, platform/notify) for new messages. The notifications feature fills it in; it needs
 * useRealtimeRoom('notification') and the company-{id}-appMessage events.
 */
export function NotificationsBell() {
  const { t } = useTranslation();
  return <BellButton label={t('layout.notifications')} icon={<Alert20Regular />} emptyText={t('layout.nothingHere')} />;
}
