import { useState } from 'react';
import {
  Button,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Edit20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../api/errors';
import { queryClient } from '../../../api/query';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { RowAction } from '../../../components/row-action';
import { ListBody } from '../../../components/list-body';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { toast } from '../../../components/toasts';
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
  const { t: tc } = useTranslation();
  const user = useCurrentUser();
  const canEdit = user?.profile === 'admin' || !!user?.super;
  const { data, isLoading } = useQueues();
  const queues = data ?? [];
  const [editing, setEditing] = useState<Queue | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Queue | null>(null);

  const remove = async (queue: Queue) => {
    try {
      await queuesApi.remove(queue.id);
      queryClient.setQueryData<Queue[]>(QUEUES_KEY, (old) => old?.filter((q) => q.id !== queue.id));
      void queryClient.invalidateQueries({ queryKey: QUEUES_KEY });
      toast.success(t('toasts.deleted'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        actions={
          canEdit ? (
            <Button appearance="primary" icon={<Add20Regular />} data-testid="queues-add" onClick={() => setEditing('new')}>
              {t('add')}
            </Button>
          ) : null
        }
      />
      <PageContent>
        <ListBody loading={isLoading} empty={queues.length === 0} emptyTitle={t('empty')}>
          <Table aria-label={t('title')}>
            <TableHeader>
              <TableRow>
                <TableHeaderCell style={{ width: 70 }}>{t('columns.id')}</TableHeaderCell>
                <TableHeaderCell>{t('columns.name')}</TableHeaderCell>
                <TableHeaderCell style={{ width: 140 }}>{t('columns.color')}</TableHeaderCell>
                <TableHeaderCell style={{ width: 90 }}>{t('columns.order')}</TableHeaderCell>
                <TableHeaderCell>{t('columns.greeting')}</TableHeaderCell>
                {canEdit ? <TableHeaderCell style={{ width: 110 }}>{t('columns.actions')}</TableHeaderCell> : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {queues.map((q) => (
                <TableRow key={q.id} data-testid={`queue-row-${q.id}`}>
                  <TableCell className={styles.muted}>{q.id}</TableCell>
                  <TableCell data-testid={`queue-name-${q.id}`}>{q.name}</TableCell>
                  <TableCell>
                    <span className={styles.swatch} style={{ backgroundColor: q.color }} data-testid={`queue-color-${q.id}`} />
                    <span className={styles.muted}>{q.color}</span>
                  </TableCell>
                  <TableCell data-testid={`queue-order-${q.id}`}>{q.orderQueue ?? ''}</TableCell>
                  <TableCell>
                    <span className={styles.greeting} title={q.greetingMessage ?? undefined} data-testid={`queue-greeting-${q.id}`}>
                      {truncate(q.greetingMessage)}
                    </span>
                  </TableCell>
                  {canEdit ? (
                    <TableCell>
                      <RowAction label={tc('actions.edit')} icon={<Edit20Regular />} testId={`queue-edit-${q.id}`} onClick={() => setEditing(q)} />
                      <RowAction label={tc('actions.delete')} icon={<Delete20Regular />} testId={`queue-delete-${q.id}`} onClick={() => setDeleting(q)} />
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ListBody>
      </PageContent>
      {editing ? (
        <QueueModal
          key={editing === 'new' ? 'new' : editing.id}
          queue={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('confirmDelete.title', { name: deleting?.name ?? '' })}
        confirmLabel={tc('actions.delete')}
        destructive
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
      >
        {t('confirmDelete.body')}
      </ConfirmationDialog>
    </PageContainer>
  );
}
