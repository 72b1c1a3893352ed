import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { CrudListPage, RecordCell, type Column } from '../../../components/list-kit';
import { useCurrentUser } from '../../../stores/auth-store';
import { QUICK_MESSAGES_KEY, quickMessagesApi, type QuickMessage } from '../api/quick-messages';
import { QuickMessageModal } from './quick-message-modal';

const useStyles = makeStyles({
  muted: { color: tokens.colorNeutralForeground3 },
  attachment: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', display: 'block' },
});

/**
 * /quick-messages: the user's own quick messages and the company's shared active ones (admins also see
 * shared ones switched off); shared and inactive ones are marked (spec 02 section 2, spec 04 section 5).
 */
export default function QuickMessagesPage() {
  const styles = useStyles();
  const { t } = useTranslation('quick-messages');
  const user = useCurrentUser();
  const isAdmin = user?.profile === 'admin' || !!user?.super;

  /** The server lets the owner or an admin change one. */
  const mayEdit = (q: QuickMessage) => isAdmin || q.userId === user?.id;

  const columns: Column<QuickMessage>[] = [
    {
      id: 'shortcode',
      header: t('columns.shortcode'),
      cell: (q) => (
        <RecordCell
          name={`/${q.shortcode}`}
          nameTestId={`quick-message-shortcode-${q.id}`}
          badges={
            <>
              {q.geral ? (
                <Badge appearance="tint" size="small" data-testid={`quick-message-shared-${q.id}`}>
                  {t('shared')}
                </Badge>
              ) : null}
              {q.status ? null : (
                <Badge appearance="outline" color="informative" size="small" data-testid={`quick-message-inactive-${q.id}`}>
                  {t('inactive')}
                </Badge>
              )}
            </>
          }
          preview={q.message}
        />
      ),
    },
    {
      id: 'attachment',
      header: t('columns.attachment'),
      width: '35%',
      cell: (q) => (
        <span
          className={q.mediaName ? styles.attachment : `${styles.attachment} ${styles.muted}`}
          title={q.mediaName ?? undefined}
          data-testid={`quick-message-media-${q.id}`}
        >
          {q.mediaName ?? t('noMedia')}
        </span>
      ),
    },
  ];

  return (
    <CrudListPage<QuickMessage>
      namespace="quick-messages"
      queryKey={[...QUICK_MESSAGES_KEY, 'page']}
      listKey={QUICK_MESSAGES_KEY}
      api={quickMessagesApi}
      testIds={{ page: 'quick-messages', row: 'quick-message' }}
      columns={columns}
      canEdit={mayEdit}
      canDelete={mayEdit}
      // Another tab or colleague changed one: read the list again.
      realtime={{ resource: 'quickmessage' }}
      deleteTitleValues={(q) => ({ shortcode: `/${q.shortcode}` })}
      dialog={({ item, onClose }) => <QuickMessageModal quickMessage={item} canShare={isAdmin} onClose={onClose} />}
    />
  );
}
