import { useState } from 'react';
import { Avatar, CounterBadge, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Alert20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BellButton, useBellListStyles } from '../../../components/bell-button';
import { FormattedText } from '../../../components/formatted-text';
import { previewLine } from '../../../components/whatsapp-format';
import { formatListTime } from '../../../i18n/format';
import { requestNotificationPermission } from '../../../platform';
import { useNotifications } from '../hooks/use-notifications';

const useOwnStyles = makeStyles({
  time: { color: tokens.colorNeutralForeground3 },
});

/** The notification bell: tickets with unread messages; system notification and sound on new customer messages. */
export function NotificationsBell() {
  const styles = { ...useBellListStyles(), ...useOwnStyles() };
  const { t } = useTranslation('notifications');
  const navigate = useNavigate();
  const tickets = useNotifications();
  const [open, setOpen] = useState(false);
  return (
    <span data-testid="notifications-bell" style={{ display: 'inline-flex' }}>
      <BellButton
        label={t('title')}
        icon={<Alert20Regular />}
        count={tickets.length}
        emptyText={t('empty')}
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) void requestNotificationPermission();
        }}
      >
        {tickets.length > 0 ? (
          <div className={styles.list} role="list">
            {tickets.map((ticket) => (
              <button
                type="button"
                role="listitem"
                key={ticket.id}
                className={styles.item}
                onClick={() => {
                  setOpen(false);
                  void navigate(`/tickets/${ticket.uuid}`);
                }}
              >
                <Avatar size={32} name={ticket.contact?.name} />
                <span className={styles.body}>
                  <Text weight="semibold">{ticket.contact?.name}</Text>
                  <Text size={200} className={styles.ellipsis} data-testid={`notification-last-${ticket.id}`}>
                    {ticket.lastMessage ? <FormattedText text={previewLine(ticket.lastMessage)} /> : null}
                  </Text>
                </span>
                <span style={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: 2 }}>
                  <Text size={100} className={styles.time}>
                    {formatListTime(ticket.lastMessageAt ?? ticket.updatedAt)}
                  </Text>
                  <CounterBadge size="small" count={ticket.unreadMessages} />
                </span>
              </button>
            ))}
          </div>
        ) : undefined}
      </BellButton>
    </span>
  );
}
