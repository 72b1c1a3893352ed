import { Link, Switch } from '@fluentui/react-components';
import { CopyRegular, FlowchartRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toastError } from '../../../api/errors';
import { queryClient } from '../../../api/query';
import { CrudListPage, mergeRecordEvent, type Column } from '../../../components/list-kit';
import { RowAction } from '../../../components/row-action';
import { toast } from '../../../components/toasts';
import { useIsAdmin } from '../../../stores/auth-store';
import { FLOWS_KEY, flowsApi, type Flow } from '../api/flows';
import { FlowNameDialog } from './flow-name-dialog';

/**
 * /flowbuilders, 'Fluxos de conversa': search, add, and per flow its name (opens the canvas), its status,
 * and Editar nome, Editar fluxo, Duplicar, Excluir (spec 02). Changing flows is for admins (the server
 * refuses the others); everyone may look.
 */
export default function FlowBuildersPage() {
  const { t } = useTranslation('flowbuilder');
  const navigate = useNavigate();
  const isAdmin = useIsAdmin();

  const reload = () => void queryClient.invalidateQueries({ queryKey: FLOWS_KEY });
  const columns: Column<Flow>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      cell: (flow) => (
        <Link data-testid={`flow-open-${flow.id}`} onClick={() => navigate(`/flowbuilder/${flow.id}`)}>
          {flow.name}
        </Link>
      ),
    },
    {
      id: 'status',
      header: t('columns.status'),
      width: 140,
      cell: (flow) => (
        <Switch
          checked={flow.active}
          disabled={!isAdmin}
          label={flow.active ? t('status.active') : t('status.inactive')}
          data-testid={`flow-active-${flow.id}`}
          onChange={(_, d) => {
            flowsApi.update(flow.id, { active: d.checked }).then(reload, toastError);
          }}
        />
      ),
    },
  ];

  return (
    <CrudListPage<Flow, { action: string; record?: Flow; id?: number }>
      namespace="flowbuilder"
      queryKey={[...FLOWS_KEY, 'page']}
      listKey={FLOWS_KEY}
      api={flowsApi}
      testIds={{ page: 'flows', row: 'flow' }}
      columns={columns}
      canAdd={isAdmin}
      canEdit={isAdmin}
      canDelete={isAdmin}
      actionsWidth={160}
      realtime={{ resource: 'flowbuilder', merge: (items, event) => mergeRecordEvent(items, event, { onlyCreated: true }) }}
      rowActions={(flow) => (
        <>
          <RowAction label={t('actions.editFlow')} icon={<FlowchartRegular />} testId={`flow-canvas-${flow.id}`} onClick={() => navigate(`/flowbuilder/${flow.id}`)} />
          {isAdmin ? (
            <RowAction
              label={t('actions.duplicate')}
              icon={<CopyRegular />}
              testId={`flow-duplicate-${flow.id}`}
              onClick={() => {
                flowsApi.duplicate(flow.id).then(() => {
                  toast.success(t('toasts.duplicated'));
                  reload();
                }, toastError);
              }}
            />
          ) : null}
        </>
      )}
      deleteTitleValues={(flow) => ({ name: flow.name })}
      dialog={({ item, onClose }) => <FlowNameDialog flow={item} onClose={onClose} />}
    />
  );
}
