import { Dropdown, Field, Input, Option, Switch } from '@fluentui/react-components';
import { createFlowCampaignSchema, updateFlowCampaignSchema, type FlowPhraseMatch } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { FormDialog, saveRecord } from '../../../components/list-kit';
import { FLOW_CAMPAIGNS_KEY, flowCampaignsApi, type FlowCampaign } from '../api/flow-campaigns';

type Values = { name: string; flowId: number; whatsappId: number; phrase: string; status: boolean; matchType: FlowPhraseMatch };

/** Add or edit a flow campaign: name, flow, connection and phrase required (spec 02 section 5). */
export function FlowCampaignDialog({ campaign, onClose }: { campaign?: FlowCampaign; onClose: () => void }) {
  const { t } = useTranslation('phrase-lists');
  const flows = useQuery(['flowcampaign', 'flows'], flowCampaignsApi.flows, { staleTime: 30_000 });
  const connections = useQuery(['flowcampaign', 'connections'], flowCampaignsApi.connections, { staleTime: 30_000 });
  const initialValues: Values = {
    name: campaign?.name ?? '',
    flowId: campaign?.flowId ?? 0,
    whatsappId: campaign?.whatsappId ?? 0,
    phrase: campaign?.phrase ?? '',
    status: campaign?.status ?? true,
    matchType: campaign?.matchType ?? 'exact',
  };
  return (
    <FormDialog<Values, Partial<Values> & { id?: number }>
      title={campaign ? t('modal.editTitle') : t('modal.addTitle')}
      schema={campaign ? updateFlowCampaignSchema : createFlowCampaignSchema}
      initialValues={initialValues}
      toPayload={(v) => (campaign ? { id: campaign.id, ...v } : v)}
      messages={{ flowId: t('modal.required'), whatsappId: t('modal.required') }}
      testId="flow-campaign-dialog"
      onClose={onClose}
      onSubmit={(data) => {
        const { id: _id, ...input } = data;
        return saveRecord(flowCampaignsApi, campaign?.id, input, { listKey: FLOW_CAMPAIGNS_KEY, savedMessage: t('toasts.saved') });
      }}
    >
      {(form) => (
        <>
          <Field label={t('modal.name')} required {...form.field('name')}>
            <Input maxLength={100} autoFocus data-testid="flow-campaign-name" {...form.text('name')} />
          </Field>
          <Field label={t('modal.flow')} required {...form.field('flowId')}>
            <Dropdown
              data-testid="flow-campaign-flow"
              placeholder={t('modal.pick')}
              value={flows.data?.find((f) => f.id === form.values.flowId)?.name ?? campaign?.flow?.name ?? ''}
              selectedOptions={form.values.flowId ? [String(form.values.flowId)] : []}
              onOptionSelect={(_, d) => form.set('flowId', Number(d.optionValue))}
            >
              {(flows.data ?? []).map((f) => (
                <Option key={f.id} value={String(f.id)}>
                  {f.name}
                </Option>
              ))}
            </Dropdown>
          </Field>
          <Field label={t('modal.connection')} required {...form.field('whatsappId')}>
            <Dropdown
              data-testid="flow-campaign-connection"
              placeholder={t('modal.pick')}
              value={connections.data?.find((c) => c.id === form.values.whatsappId)?.name ?? campaign?.whatsapp?.name ?? ''}
              selectedOptions={form.values.whatsappId ? [String(form.values.whatsappId)] : []}
              onOptionSelect={(_, d) => form.set('whatsappId', Number(d.optionValue))}
            >
              {(connections.data ?? []).map((c) => (
                <Option key={c.id} value={String(c.id)}>
                  {c.name}
                </Option>
              ))}
            </Dropdown>
          </Field>
          <Field label={t('modal.phrase')} required hint={t('modal.phraseHint')} {...form.field('phrase')}>
            <Input maxLength={500} data-testid="flow-campaign-phrase" {...form.text('phrase')} />
          </Field>
          <Switch
            label={t('modal.contains')}
            checked={form.values.matchType === 'contains'}
            data-testid="flow-campaign-contains"
            onChange={(_, d) => form.set('matchType', d.checked ? 'contains' : 'exact')}
          />
          <Switch label={t('modal.active')} data-testid="flow-campaign-status" {...form.check('status')} />
        </>
      )}
    </FormDialog>
  );
}
