import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '../../../api/types';
import { AppLink } from '../../../components/app-link';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, maxWidth: '420px', margin: '0 auto' },
  hint: { color: tokens.colorNeutralForeground3 },
  links: { display: 'flex', gap: tokens.spacingHorizontalL, justifyContent: 'center', flexWrap: 'wrap' },
});

/**
 * Why the inbox is empty, when the reason is the company's set-up rather than a quiet day. An agent sees
 * only the conversations of their queues (queue-less ones with "see tickets without a queue", off by
 * default), so a company that connects a number without queues leaves its agents with empty inboxes: the
 * agent is told to ask the admin; the admin gets the two places to fix it. Null when nothing explains it.
 */
export function inboxEmptyReason(user: SessionUser | null | undefined, isAdmin: boolean, subTab: 'open' | 'pending'): 'admin' | 'noQueue' | 'queueLess' | null {
  if (!user) return null;
  if (isAdmin) return subTab === 'pending' ? 'admin' : null;
  if (user.queues.length === 0) return 'noQueue';
  return user.allTicket === 'enabled' ? null : 'queueLess';
}

export function InboxEmpty({ reason, queues }: { reason: 'admin' | 'noQueue' | 'queueLess'; queues: string[] }) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  return (
    <div className={styles.root} data-testid="inbox-empty" data-reason={reason}>
      <Text weight="semibold">{t('list.empty')}</Text>
      {reason === 'admin' ? (
        <>
          <Text size={200} className={styles.hint}>
            {t('inboxEmpty.admin')}
          </Text>
          <div className={styles.links}>
            <AppLink to="/connections">{t('inboxEmpty.connections')}</AppLink>
            <AppLink to="/users">{t('inboxEmpty.users')}</AppLink>
          </div>
        </>
      ) : (
        <>
          <Text size={200} className={styles.hint}>
            {reason === 'noQueue' ? t('inboxEmpty.noQueue') : t('inboxEmpty.queueLess', { queues: queues.join(', ') })}
          </Text>
          <Text size={200} className={styles.hint}>
            {t('inboxEmpty.askAdmin')}
          </Text>
        </>
      )}
    </div>
  );
}
