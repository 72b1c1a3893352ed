import { Button, Text, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowClockwise20Regular, DataBarVertical20Regular, Settings20Regular, Stop20Regular } from '@fluentui/react-icons';
import type { CampaignEvent } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { queryClient } from '../../../api/query';
import { toastError } from '../../../api/errors';
import { CrudListPage, RecordCell, type Column } from '../../../components/list-kit';
import { toast } from '../../../components/toasts';
import { formatDateTime } from '../../../i18n/format';
import { CAMPAIGNS_KEY, campaignsApi, type Campaign } from '../api/campaigns';
import { CampaignDialog } from './campaign-dialog';
import { CampaignStatusBadge } from './campaign-status';

const useStyles = makeStyles({
  status: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: tokens.spacingVerticalXXS },
  progress: { color: tokens.colorNeutralForeground3 },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', display: 'block' },
});

/**
 * Follows `company-{id}-campaign`: a whole record (create, update) replaces or adds its row; progress while
 * it runs (counts and status only, at most one a second) patches the row; delete drops it.
 */
export const mergeCampaignEvent = (rows: Campaign[], event: CampaignEvent): Campaign[] => {
  if (event.action === 'delete') return rows.filter((r) => r.id !== event.id);
  const index = rows.findIndex((r) => r.id === event.record.id);
  if (index < 0) return event.action === 'create' && 'name' in event.record ? [event.record, ...rows] : rows;
  const next = [...rows];
  next[index] = { ...next[index], ...event.record };
  return next;
};

/** /campaigns (spec 02 "Campaigns page"): name, status, list, connection, dates; stop, restart, report, edit, delete. */
export default function CampaignsPage() {
  const styles = useStyles();
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();

  const act = (run: () => Promise<void>, done: string) =>
    run()
      .then(() => {
        toast.success(done);
        void queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
      })
      // Spec 02 section 8: a refused stop or restart says why in an error toast.
      .catch(toastError);

  const columns: Column<Campaign>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      cell: (c) => <RecordCell name={c.name} nameTestId={`campaign-name-${c.id}`} />,
    },
    {
      id: 'status',
      header: t('columns.status'),
      width: 150,
      cell: (c) => (
        <div className={styles.status}>
          <CampaignStatusBadge status={c.status} testId={`campaign-status-${c.id}`} />
          {c.counts.total > 0 ? (
            <Text size={200} className={styles.progress} data-testid={`campaign-progress-${c.id}`}>
              {t('progress', { done: c.counts.sent + c.counts.failed, total: c.counts.total })}
            </Text>
          ) : null}
        </div>
      ),
    },
    {
      id: 'contactList',
      header: t('columns.contactList'),
      secondary: true,
      cell: (c) => <span className={styles.ellipsis}>{c.contactList?.name ?? c.tag?.name ?? t('none')}</span>,
    },
    {
      id: 'whatsapp',
      header: t('columns.whatsapp'),
      secondary: true,
      cell: (c) => <span className={styles.ellipsis}>{c.whatsapp?.name ?? t('none')}</span>,
    },
    { id: 'scheduledAt', header: t('columns.scheduledAt'), width: 140, secondary: true, cell: (c) => formatDateTime(c.scheduledAt) },
    { id: 'completedAt', header: t('columns.completedAt'), width: 140, secondary: true, cell: (c) => formatDateTime(c.completedAt) },
  ];

  return (
    <CrudListPage<Campaign, CampaignEvent>
      namespace="campaigns"
      queryKey={[...CAMPAIGNS_KEY, 'page']}
      listKey={CAMPAIGNS_KEY}
      api={campaignsApi}
      testIds={{ page: 'campaigns', row: 'campaign' }}
      columns={columns}
      realtime={{ resource: 'campaign', merge: mergeCampaignEvent }}
      // Delete is refused while the campaign runs (spec 04 section 1): stop it first.
      canDelete={(c) => c.status !== 'EM_ANDAMENTO'}
      actionsWidth={180}
      rowActions={(c) => (
        <>
          {c.status === 'EM_ANDAMENTO' ? (
            <Tooltip content={t('actions.stop', { name: c.name })} relationship="label">
              <Button
                appearance="subtle"
                size="small"
                icon={<Stop20Regular />}
                data-testid={`campaign-stop-${c.id}`}
                onClick={() => void act(() => campaignsApi.cancel(c.id), t('toasts.stopped'))}
              />
            </Tooltip>
          ) : null}
          {c.status === 'CANCELADA' ? (
            <Tooltip content={t('actions.restart', { name: c.name })} relationship="label">
              <Button
                appearance="subtle"
                size="small"
                icon={<ArrowClockwise20Regular />}
                data-testid={`campaign-restart-${c.id}`}
                onClick={() => void act(() => campaignsApi.restart(c.id), t('toasts.restarted'))}
              />
            </Tooltip>
          ) : null}
          <Tooltip content={t('actions.report', { name: c.name })} relationship="label">
            <Button
              appearance="subtle"
              size="small"
              icon={<DataBarVertical20Regular />}
              data-testid={`campaign-report-${c.id}`}
              onClick={() => void navigate(`/campaign/${c.id}/report`)}
            />
          </Tooltip>
        </>
      )}
      headerExtra={
        <Button icon={<Settings20Regular />} data-testid="campaigns-settings" onClick={() => void navigate('/campaigns-config')}>
          {t('actions.settings')}
        </Button>
      }
      deleteTitleValues={(c) => ({ name: c.name })}
      dialog={({ item, onClose }) => <CampaignDialog campaign={item} onClose={onClose} />}
    />
  );
}
