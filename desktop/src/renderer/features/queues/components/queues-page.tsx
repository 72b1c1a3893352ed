import { makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { ListBody } from '../../../components/list-body';
import { DataTable, DeleteDialog, EditDeleteActions, ListHeader, useListDialogs, type Column } from '../../../components/list-kit';
import { PageContainer, PageContent } from '../../../components/page-container';
import { useCurrentUser } from '../../../stores/auth-store';
import { QUEUES_KEY, queuesApi, type Queue } from '../api/queues';
import { useQueues } from '../hooks/use-queues';
import { QueueModal } from './queue-modal';

const useStyles = makeStyles({
  swatch: {
    display: 'inline-block',
    width: '18px',
    height: '18px',
    borderRadius: tokens.borderRadiusCircular,
    verticalAlign: 'middle',
    marginRight: tokens.spacingHorizontalS,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
  },
  greeting: { display: 'block', maxWidth: '360px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** Table cells show this much of the greeting; the full text is in the tooltip. */
export const GREETING_PREVIEW = 60;
export const truncate = (text: string | null | undefined, max = GREETING_PREVIEW): string => {
  const value = (text ?? '').replace(/\s+/g, ' ').trim();
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
};

/** /queues: the company's queues; admins add, edit and delete them (the server allows writes to admins only). */
export default function QueuesPage() {
  const styles = useStyles();
  const { t } = useTranslation('queues');
  const user = useCurrentUser();
  const canEdit = user?.profile === 'admin' || !!user?.super;
  const { data, isLoading } = useQueues();
  const queues = data ?? [];
  const dialogs = useListDialogs<Queue>();

  const columns: Column<Queue>[] = [
    { id: 'id', header: t('columns.id'), width: 70, secondary: true, cellStyle: { color: tokens.colorNeutralForeground3 }, cell: (q) => q.id },
    { id: 'name', header: t('columns.name'), cellTestId: (q) => `queue-name-${q.id}`, cell: (q) => q.name },
    {
      id: 'color',
      header: t('columns.color'),
      width: 140,
      cell: (q) => (
        <>
          <span className={styles.swatch} style={{ backgroundColor: q.color }} data-testid={`queue-color-${q.id}`} />
          <span className={styles.muted}>{q.color}</span>
        </>
      ),
    },
    { id: 'order', header: t('columns.order'), width: 90, cellTestId: (q) => `queue-order-${q.id}`, cell: (q) => q.orderQueue ?? '' },
    {
      id: 'greeting',
      header: t('columns.greeting'),
      secondary: true,
      cell: (q) => (
        <span className={styles.greeting} title={q.greetingMessage ?? undefined} data-testid={`queue-greeting-${q.id}`}>
          {truncate(q.greetingMessage)}
        </span>
      ),
    },
  ];

  return (
    <PageContainer>
      <ListHeader title={t('title')} add={canEdit ? { label: t('add'), onClick: dialogs.openAdd, testId: 'queues-add' } : undefined} />
      <PageContent>
        <ListBody loading={isLoading} empty={queues.length === 0} emptyTitle={t('empty')}>
          <DataTable
            label={t('title')}
            rows={queues}
            columns={columns}
            rowKey={(q) => q.id}
            rowTestId={(q) => `queue-row-${q.id}`}
            actionsHeader={t('columns.actions')}
            actions={
              canEdit
                ? (q) => <EditDeleteActions testIdPrefix="queue" id={q.id} onEdit={() => dialogs.openEdit(q)} onDelete={() => dialogs.askDelete(q)} />
                : undefined
            }
          />
        </ListBody>
      </PageContent>
      {dialogs.editing ? <QueueModal key={dialogs.edited?.id ?? 'new'} queue={dialogs.edited} onClose={dialogs.closeForm} /> : null}
      <DeleteDialog
        item={dialogs.deleting}
        onClose={dialogs.closeDelete}
        title={(q) => t('confirmDelete.title', { name: q.name })}
        body={t('confirmDelete.body')}
        remove={(q) => queuesApi.remove(q.id)}
        listKey={QUEUES_KEY}
        deletedMessage={t('toasts.deleted')}
      />
    </PageContainer>
  );
}
