import { Switch } from '@fluentui/react-components';
import { can } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../api/errors';
import { queryClient } from '../../../api/query';
import { CrudListPage, type Column } from '../../../components/list-kit';
import { useCurrentUser } from '../../../stores/auth-store';
import { FLOW_CAMPAIGNS_KEY, flowCampaignsApi, type FlowCampaign } from '../api/flow-campaigns';
import { FlowCampaignDialog } from './flow-campaign-dialog';

/**
 * /phrase-lists (cshow): the phrase-triggered flow campaigns, with name, status toggle (Ativo /
 * Desativado), edit and delete; delete follows the contacts-delete permission (spec 02).
 */
export default function PhraseListsPage() {
  const { t } = useTranslation('phrase-lists');
  const user = useCurrentUser();
  const canDelete = can(user?.profile, 'contacts-page:deleteContact');
  const isAdmin = user?.profile === 'admin' || !!user?.super;

  const columns: Column<FlowCampaign>[] = [
    { id: 'name', header: t('columns.name'), cell: (c) => c.name },
    { id: 'phrase', header: t('columns.phrase'), cell: (c) => c.phrase },
    { id: 'flow', header: t('columns.flow'), cell: (c) => c.flow?.name ?? '' },
    { id: 'connection', header: t('columns.connection'), cell: (c) => c.whatsapp?.name ?? '' },
    {
      id: 'status',
      header: t('columns.status'),
      width: 150,
      cell: (c) => (
        <Switch
          checked={c.status}
          disabled={!isAdmin}
          label={c.status ? t('status.active') : t('status.inactive')}
          data-testid={`flow-campaign-status-${c.id}`}
          onChange={(_, d) => {
            flowCampaignsApi.update(c.id, { status: d.checked }).then(() => void queryClient.invalidateQueries({ queryKey: FLOW_CAMPAIGNS_KEY }), toastError);
          }}
        />
      ),
    },
  ];

  return (
    <CrudListPage<FlowCampaign>
      namespace="phrase-lists"
      queryKey={[...FLOW_CAMPAIGNS_KEY, 'page']}
      listKey={FLOW_CAMPAIGNS_KEY}
      api={flowCampaignsApi}
      testIds={{ page: 'flow-campaigns', row: 'flow-campaign' }}
      columns={columns}
      canAdd={isAdmin}
      canEdit={isAdmin}
      canDelete={canDelete}
      // Any change (or a flow deleted with its campaigns) reads the short list again.
      realtime={{ resource: 'flowcampaign' }}
      deleteTitleValues={(c) => ({ name: c.name })}
      dialog={({ item, onClose }) => <FlowCampaignDialog campaign={item} onClose={onClose} />}
    />
  );
}
