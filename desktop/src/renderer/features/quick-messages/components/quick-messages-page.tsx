import { useState } from 'react';
import {
  Badge,
  Button,
  Input,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Edit20Regular, Search20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { queryClient, usePagedQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { ListBody } from '../../../components/list-body';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { RowAction } from '../../../components/row-action';
import { removeRow } from '../../../hooks/remove-row';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { useCurrentUser } from '../../../stores/auth-store';
import { QUICK_MESSAGES_KEY, quickMessagesApi, type QuickMessage } from '../api/quick-messages';
import { QuickMessageModal } from './quick-message-modal';

const useStyles = makeStyles({
  scroller: { height: '100%', overflow: 'auto' },
  shortcode: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minWidth: 0 },
  code: { fontWeight: tokens.fontWeightSemibold, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  preview: {
    display: 'block',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  cell: { minWidth: 0, overflow: 'hidden' },
  muted: { color: tokens.colorNeutralForeground3 },
  attachment: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', display: 'block' },
  search: { minWidth: '0', maxWidth: '240px' },
});

/** /quick-messages: the user's quick messages and the company's shared ones (spec 02 section 2). */
export default function QuickMessagesPage() {
  const styles = useStyles();
  const { t } = useTranslation('quick-messages');
  const { t: tc } = useTranslation();
  const user = useCurrentUser();
  const isAdmin = user?.profile === 'admin' || !!user?.super;
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const { items, hasMore, isLoading, loadMore } = usePagedQuery<QuickMessage>([...QUICK_MESSAGES_KEY, 'page', { searchParam }], (page) =>
    quickMessagesApi.page(searchParam, page),
  );
  const [editing, setEditing] = useState<QuickMessage | 'new' | null>(null);
  const [deleting, setDeleting] = useState<QuickMessage | null>(null);
  // Another tab or colleague changed one: read the list again.
  useRealtimeEvent('quickmessage', () => void queryClient.invalidateQueries({ queryKey: QUICK_MESSAGES_KEY }));

  /** The server lets the owner or an admin change one. */
  const mayEdit = (q: QuickMessage) => isAdmin || q.userId === user?.id;

  const onScroll = (e: React.UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (hasMore && el.scrollHeight - (el.scrollTop + el.clientHeight) < 100) void loadMore();
  };

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        actions={
          <>
            <Input
              className={styles.search}
              contentBefore={<Search20Regular />}
              placeholder={t('search')}
              aria-label={t('search')}
              value={search}
              data-testid="quick-messages-search"
              onChange={(_, d) => setSearch(d.value)}
            />
            <Button appearance="primary" icon={<Add20Regular />} data-testid="quick-messages-add" onClick={() => setEditing('new')}>
              {t('add')}
            </Button>
          </>
        }
      />
      <PageContent>
        <div className={styles.scroller} onScroll={onScroll} data-testid="quick-messages-scroller">
          <ListBody loading={isLoading} empty={items.length === 0} emptyTitle={t('empty')}>
            <Table aria-label={t('title')} style={{ tableLayout: 'fixed' }}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t('columns.shortcode')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: '35%' }}>{t('columns.attachment')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 96 }}>{t('columns.actions')}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {items.map((q) => (
                  <TableRow key={q.id} data-testid={`quick-message-row-${q.id}`}>
                    <TableCell className={styles.cell}>
                      <div className={styles.cell}>
                        <span className={styles.shortcode}>
                          <span className={styles.code} data-testid={`quick-message-shortcode-${q.id}`}>
                            /{q.shortcode}
                          </span>
                          {q.geral ? (
                            <Badge appearance="tint" size="small">
                              {t('shared')}
                            </Badge>
                          ) : null}
                        </span>
                        <span className={styles.preview} title={q.message}>
                          {q.message}
                        </span>
                      </div>
                    </TableCell>
                    <TableCell className={styles.cell}>
                      <span
                        className={q.mediaName ? styles.attachment : `${styles.attachment} ${styles.muted}`}
                        title={q.mediaName ?? undefined}
                        data-testid={`quick-message-media-${q.id}`}
                      >
                        {q.mediaName ?? t('noMedia')}
                      </span>
                    </TableCell>
                    <TableCell>
                      {mayEdit(q) ? (
                        <>
                          <RowAction label={tc('actions.edit')} icon={<Edit20Regular />} testId={`quick-message-edit-${q.id}`} onClick={() => setEditing(q)} />
                          <RowAction
                            label={tc('actions.delete')}
                            icon={<Delete20Regular />}
                            testId={`quick-message-delete-${q.id}`}
                            onClick={() => setDeleting(q)}
                          />
                        </>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ListBody>
        </div>
      </PageContent>
      {editing ? (
        <QuickMessageModal
          key={editing === 'new' ? 'new' : editing.id}
          quickMessage={editing === 'new' ? undefined : editing}
          canShare={isAdmin}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('confirmDelete.title', { shortcode: deleting ? `/${deleting.shortcode}` : '' })}
        confirmLabel={tc('actions.delete')}
        destructive
        onConfirm={() =>
          deleting ? removeRow(() => quickMessagesApi.remove(deleting.id), QUICK_MESSAGES_KEY, t('toasts.deleted')) : undefined
        }
      >
        {t('confirmDelete.body')}
      </ConfirmationDialog>
    </PageContainer>
  );
}
