import { Badge, Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Spinner, Text } from '@fluentui/react-components';
import { ArrowClockwise20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { DataTable, type Column } from '../../../components/list-kit';
import { formatDateTime } from '../../../i18n/format';
import { QUEUE_INTEGRATIONS_KEY, queueIntegrationsApi, type QueueIntegration, type WebhookDelivery } from '../api/queue-integrations';

const STATUS_COLOR = { delivered: 'success', failed: 'danger', pending: 'warning' } as const;

/**
 * The delivery log of an n8n or webhook integration: the last events sent, newest first, with their
 * attempts, the last answer's status or error and how long it took (retries are pending until given up).
 */
export function DeliveriesDialog({ integration, onClose }: { integration: QueueIntegration; onClose: () => void }) {
  const { t } = useTranslation('queue-integration');
  const deliveries = useQuery([...QUEUE_INTEGRATIONS_KEY, 'deliveries', integration.id], () => queueIntegrationsApi.deliveries(integration.id));
  const columns: Column<WebhookDelivery>[] = [
    { id: 'createdAt', header: t('deliveries.when'), cell: (d) => formatDateTime(d.createdAt) },
    { id: 'event', header: t('deliveries.event'), cell: (d) => d.event },
    { id: 'ticket', header: t('deliveries.ticket'), cell: (d) => (d.ticketId ? `#${d.ticketId}` : '—'), secondary: true },
    {
      id: 'status',
      header: t('deliveries.status'),
      cell: (d) => (
        <Badge appearance="tint" color={STATUS_COLOR[d.status]} data-testid={`delivery-status-${d.id}`}>
          {t(`deliveries.statuses.${d.status}`)}
        </Badge>
      ),
    },
    { id: 'attempts', header: t('deliveries.attempts'), cell: (d) => d.attempts },
    { id: 'answer', header: t('deliveries.answer'), cell: (d) => d.error ?? (d.statusCode ? `HTTP ${d.statusCode}` : '—'), cellTestId: (d) => `delivery-answer-${d.id}` },
    { id: 'duration', header: t('deliveries.duration'), cell: (d) => (d.durationMs === null ? '—' : `${d.durationMs} ms`), secondary: true },
  ];
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface style={{ maxWidth: 900 }} data-testid="queue-integration-deliveries">
        <DialogBody>
          <DialogTitle>{t('deliveries.title', { name: integration.name })}</DialogTitle>
          <DialogContent>
            {deliveries.isLoading ? (
              <Spinner size="small" />
            ) : (deliveries.data ?? []).length === 0 ? (
              <Text>{t('deliveries.empty')}</Text>
            ) : (
              <DataTable
                label={t('deliveries.title', { name: integration.name })}
                rows={deliveries.data ?? []}
                columns={columns}
                rowKey={(d) => d.id}
                rowTestId={(d) => `delivery-row-${d.id}`}
              />
            )}
          </DialogContent>
          <DialogActions>
            <Button icon={<ArrowClockwise20Regular />} disabled={deliveries.isFetching} onClick={() => void deliveries.refetch()}>
              {t('actions.refresh', { ns: 'common' })}
            </Button>
            <Button appearance="primary" onClick={onClose}>
              {t('actions.close', { ns: 'common' })}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
