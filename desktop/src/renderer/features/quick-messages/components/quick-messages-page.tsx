import { Badge, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { queryClient, usePagedQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import {
  DataTable,
  DeleteDialog,
  EditDeleteActions,
  InfiniteList,
  ListHeader,
  useListDialogs,
  useSearch,
  type Column,
} from '../../../components/list-kit';
import { PageContainer, PageContent } from '../../../components/page-container';
import { useCurrentUser } from '../../../stores/auth-store';
import { QUICK_MESSAGES_KEY, quickMessagesApi, type QuickMessage } from '../api/quick-messages';
import { QuickMessageModal } from './quick-message-modal';

const useStyles = makeStyles({
  cell: { minWidth: 0, overflow: 'hidden', paddingBlock: '4px' },
  // On a narrow screen the badges go under the shortcode instead of squeezing it.
  shortcode: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS, rowGap: '2px', minWidth: 0 },
  code: { fontWeight: tokens.fontWeightSemibold, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '100%' },
  badge: { flexShrink: 0 },
  preview: {
    display: 'block',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
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
  const { search, setSearch, searchParam } = useSearch();
  const list = usePagedQuery<QuickMessage>([...QUICK_MESSAGES_KEY, 'page', { searchParam }], (page) => quickMessagesApi.page(searchParam, page));
  const dialogs = useListDialogs<QuickMessage>();
  // Another tab or colleague changed one: read the list again.
  useRealtimeEvent('quickmessage', () => void queryClient.invalidateQueries({ queryKey: QUICK_MESSAGES_KEY }));

  /** The server lets the owner or an admin change one. */
  const mayEdit = (q: QuickMessage) => isAdmin || q.userId === user?.id;

  const columns: Column<QuickMessage>[] = [
    {
      id: 'shortcode',
      header: t('columns.shortcode'),
      cell: (q) => (
        <div className={styles.cell}>
          <span className={styles.shortcode}>
            <span className={styles.code} data-testid={`quick-message-shortcode-${q.id}`}>
              /{q.shortcode}
            </span>
            {q.geral ? (
              <Badge className={styles.badge} appearance="tint" size="small" data-testid={`quick-message-shared-${q.id}`}>
                {t('shared')}
              </Badge>
            ) : null}
            {q.status ? null : (
              <Badge className={styles.badge} appearance="outline" color="informative" size="small" data-testid={`quick-message-inactive-${q.id}`}>
                {t('inactive')}
              </Badge>
            )}
          </span>
          <span className={styles.preview} title={q.message}>
            {q.message}
          </span>
        </div>
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
    <PageContainer>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, label: t('search'), testId: 'quick-messages-search' }}
        add={{ label: t('add'), onClick: dialogs.openAdd, testId: 'quick-messages-add' }}
      />
      <PageContent>
        <InfiniteList
          list={list}
          emptyTitle={t('empty')}
          testId="quick-messages-scroller"
        >
          <DataTable
            label={t('title')}
            rows={list.items}
            columns={columns}
            rowKey={(q) => q.id}
            rowTestId={(q) => `quick-message-row-${q.id}`}
            actionsHeader={t('columns.actions')}
            actions={(q) =>
              mayEdit(q) ? (
                <EditDeleteActions testIdPrefix="quick-message" id={q.id} onEdit={() => dialogs.openEdit(q)} onDelete={() => dialogs.askDelete(q)} />
              ) : null
            }
          />
        </InfiniteList>
      </PageContent>
      {dialogs.editing ? (
        <QuickMessageModal key={dialogs.edited?.id ?? 'new'} quickMessage={dialogs.edited} canShare={isAdmin} onClose={dialogs.closeForm} />
      ) : null}
      <DeleteDialog
        item={dialogs.deleting}
        onClose={dialogs.closeDelete}
        title={(q) => t('confirmDelete.title', { shortcode: `/${q.shortcode}` })}
        body={t('confirmDelete.body')}
        remove={(q) => quickMessagesApi.remove(q.id)}
        listKey={QUICK_MESSAGES_KEY}
        deletedMessage={t('toasts.deleted')}
      />
    </PageContainer>
  );
}
