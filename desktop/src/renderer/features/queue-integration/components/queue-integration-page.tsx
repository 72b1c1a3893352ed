import { useState } from 'react';
import { History20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { CrudListPage, type Column } from '../../../components/list-kit';
import { RowAction } from '../../../components/row-action';
import { QUEUE_INTEGRATIONS_KEY, queueIntegrationsApi, type QueueIntegration } from '../api/queue-integrations';
import { DeliveriesDialog } from './deliveries-dialog';
import { QueueIntegrationDialog } from './queue-integration-dialog';
import { SigningSecretDialog } from './signing-secret-dialog';
import { TypeLogo } from './type-logo';

/**
 * /queue-integration (spec 02 "Queue integrations page", admins, plan flag useIntegrations): the type
 * logo, id and name, with add, edit, delete; n8n and webhook rows also open their delivery log.
 */
export default function QueueIntegrationPage() {
  const { t } = useTranslation('queue-integration');
  const [deliveriesOf, setDeliveriesOf] = useState<QueueIntegration | null>(null);
  const [signingSecret, setSigningSecret] = useState<string | null>(null);
  const columns: Column<QueueIntegration>[] = [
    { id: 'type', header: t('columns.type'), width: 64, cell: (i) => <TypeLogo type={i.type} testId={`queue-integration-type-${i.id}`} /> },
    { id: 'id', header: t('columns.id'), width: 64, cell: (i) => i.id },
    { id: 'name', header: t('columns.name'), cell: (i) => <span data-testid={`queue-integration-name-${i.id}`}>{i.name}</span> },
  ];
  return (
    <CrudListPage<QueueIntegration>
      namespace="queue-integration"
      queryKey={[...QUEUE_INTEGRATIONS_KEY, 'page']}
      listKey={QUEUE_INTEGRATIONS_KEY}
      api={queueIntegrationsApi}
      testIds={{ page: 'queue-integrations', row: 'queue-integration' }}
      columns={columns}
      realtime={{ resource: 'queueIntegration' }}
      deleteTitleValues={(i) => ({ name: i.name })}
      actionsWidth={124}
      rowActions={(i) =>
        i.type === 'n8n' || i.type === 'webhook' ? (
          <RowAction label={t('deliveries.open')} icon={<History20Regular />} testId={`queue-integration-deliveries-${i.id}`} onClick={() => setDeliveriesOf(i)} />
        ) : null
      }
      dialog={({ item, onClose }) => <QueueIntegrationDialog item={item} onClose={onClose} onSigningSecret={setSigningSecret} />}
    >
      {deliveriesOf ? <DeliveriesDialog integration={deliveriesOf} onClose={() => setDeliveriesOf(null)} /> : null}
      {signingSecret ? <SigningSecretDialog secret={signingSecret} onClose={() => setSigningSecret(null)} /> : null}
    </CrudListPage>
  );
}
