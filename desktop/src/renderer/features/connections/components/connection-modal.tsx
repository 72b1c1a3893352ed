import { useRef, useState } from 'react';
import { Dropdown, Field, Input, Option, Select, Switch, Textarea, makeStyles } from '@fluentui/react-components';
import { createConnectionFormSchema, updateConnectionFormSchema, type UpdateConnectionInput } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { usePlanFlags } from '../../../api/company';
import { useQuery } from '../../../api/query';
import { fieldRow } from '../../../components/form/field-row';
import { FormDialog, saveRecord } from '../../../components/list-kit';
import { CONNECTION_INTEGRATIONS_KEY, CONNECTION_PROMPTS_KEY, CONNECTIONS_KEY, PROVIDERS, QUEUES_KEY, connectionsApi, type Connection } from '../api/connections';
import { ApiTokenField, CreatedTokenDialog } from './api-token-field';

const useStyles = makeStyles({
  row: fieldRow('200px'),
});

type FormValues = {
  name: string;
  isDefault: boolean;
  provider: string;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  queueIds: number[];
  expiresTicket: string;
  timeToTransfer: string;
  transferQueueId: string;
  maxUseBotQueues: string;
  timeUseBotQueues: string;
  integrationId: string;
  promptId: string;
  flowIdWelcome: string;
  flowIdNotPhrase: string;
};

const initialValues = (c?: Connection): FormValues => ({
  name: c?.name ?? '',
  isDefault: c?.isDefault ?? false,
  provider: c?.provider ?? 'beta',
  greetingMessage: c?.greetingMessage ?? '',
  complationMessage: c?.complationMessage ?? '',
  outOfHoursMessage: c?.outOfHoursMessage ?? '',
  ratingMessage: c?.ratingMessage ?? '',
  expiresInactiveMessage: c?.expiresInactiveMessage ?? '',
  queueIds: c?.queueIds ?? c?.queues?.map((q) => q.id) ?? [],
  expiresTicket: String(c?.expiresTicket ?? 0),
  timeToTransfer: String(c?.timeToTransfer ?? 0),
  transferQueueId: c?.transferQueueId ? String(c.transferQueueId) : '',
  maxUseBotQueues: String(c?.maxUseBotQueues ?? 3),
  timeUseBotQueues: String(c?.timeUseBotQueues ?? 0),
  integrationId: c?.integrationId ? String(c.integrationId) : '',
  promptId: c?.promptId ? String(c.promptId) : '',
  flowIdWelcome: c?.flowIdWelcome ? String(c.flowIdWelcome) : '',
  flowIdNotPhrase: c?.flowIdNotPhrase ? String(c.flowIdNotPhrase) : '',
});

/**
 * What is sent: numbers left blank are 0; the provider is chosen once, when the connection is added; the
 * integration and prompt only when their selects show (the plan has them), so they keep what they hold.
 */
const toPayload = (values: FormValues, adding: boolean, shown: { integration: boolean; prompt: boolean }): Record<string, unknown> => ({
  name: values.name,
  isDefault: values.isDefault,
  greetingMessage: values.greetingMessage,
  complationMessage: values.complationMessage,
  outOfHoursMessage: values.outOfHoursMessage,
  ratingMessage: values.ratingMessage,
  expiresInactiveMessage: values.expiresInactiveMessage,
  queueIds: values.queueIds,
  expiresTicket: values.expiresTicket || '0',
  timeToTransfer: values.timeToTransfer || '0',
  transferQueueId: values.transferQueueId ? Number(values.transferQueueId) : null,
  maxUseBotQueues: values.maxUseBotQueues || '0',
  timeUseBotQueues: values.timeUseBotQueues || '0',
  flowIdWelcome: values.flowIdWelcome ? Number(values.flowIdWelcome) : null,
  flowIdNotPhrase: values.flowIdNotPhrase ? Number(values.flowIdNotPhrase) : null,
  ...(adding ? { provider: values.provider } : {}),
  ...(shown.integration ? { integrationId: values.integrationId ? Number(values.integrationId) : null } : {}),
  ...(shown.prompt ? { promptId: values.promptId ? Number(values.promptId) : null } : {}),
});

export interface ConnectionModalProps {
  /** The connection to edit; none to add one. */
  connection?: Connection;
  onClose: () => void;
}

/** Add or edit a connection (name 2-50; greeting required with more than one queue: the shared schema's rule). */
export function ConnectionModal({ connection, onClose }: ConnectionModalProps) {
  const styles = useStyles();
  const { t } = useTranslation('connections');
  const queues = useQuery(QUEUES_KEY, connectionsApi.queues, { staleTime: 30_000 });
  const queueList = queues.data ?? [];
  // Only for two optional choices: a failure leaves them empty rather than toasting.
  const flows = useQuery(['connections', 'flows'], connectionsApi.flows, { staleTime: 30_000, silent: true });
  const queueName = (id: number) => queueList.find((q) => q.id === id)?.name ?? String(id);
  // The connection-level automation of tickets without a queue: listed only when the plan has it.
  const plan = usePlanFlags();
  const integrations = useQuery(CONNECTION_INTEGRATIONS_KEY, connectionsApi.integrations, { silent: true, enabled: !!plan?.useIntegrations });
  const prompts = useQuery(CONNECTION_PROMPTS_KEY, connectionsApi.prompts, { silent: true, enabled: !!plan?.useOpenAi });
  const shown = { integration: integrations.status === 'success', prompt: prompts.status === 'success' };
  // A new connection's API token is answered once: shown before the dialog goes.
  const created = useRef<string | null>(null);
  const [createdToken, setCreatedToken] = useState<string | null>(null);
  if (createdToken) return <CreatedTokenDialog token={createdToken} onClose={onClose} />;

  return (
    <FormDialog<FormValues, UpdateConnectionInput>
      title={connection ? t('modal.editTitle') : t('modal.addTitle')}
      schema={connection ? updateConnectionFormSchema : createConnectionFormSchema}
      initialValues={initialValues(connection)}
      toPayload={(values) => toPayload(values, !connection, shown)}
      messages={{ greetingMessage: { required: t('modal.greetingRequired') } }}
      testId="connection-modal"
      saveTestId="connection-save"
      width={720}
      onClose={() => (created.current ? setCreatedToken(created.current) : onClose())}
      onSubmit={async (data) => {
        const saved = await saveRecord(connectionsApi, connection?.id, data, { listKey: CONNECTIONS_KEY, savedMessage: t('toasts.saved') });
        if (!connection && saved.token) created.current = saved.token;
      }}
    >
      {(form) => (
        <>
          <div className={styles.row}>
            <Field label={t('modal.name')} required {...form.field('name')}>
              <Input maxLength={50} autoFocus data-testid="connection-name" {...form.text('name')} />
            </Field>
            <Field label={t('modal.provider')} {...form.field('provider')}>
              <Select value={form.values.provider} disabled={!!connection} data-testid="connection-provider" onChange={(_, d) => form.set('provider', d.value)}>
                {PROVIDERS.map((p) => (
                  <option key={p} value={p}>
                    {t(`modal.providers.${p}`)}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label={t('modal.isDefault')}>
              <Switch data-testid="connection-default" {...form.check('isDefault')} />
            </Field>
          </div>
          <Field label={t('modal.greetingMessage')} {...form.field('greetingMessage')}>
            <Textarea resize="vertical" rows={3} {...form.text('greetingMessage')} />
          </Field>
          <Field label={t('modal.complationMessage')} {...form.field('complationMessage')}>
            <Textarea resize="vertical" rows={2} {...form.text('complationMessage')} />
          </Field>
          <Field label={t('modal.outOfHoursMessage')} {...form.field('outOfHoursMessage')}>
            <Textarea resize="vertical" rows={2} {...form.text('outOfHoursMessage')} />
          </Field>
          <div className={styles.row}>
            <Field label={t('modal.ratingMessage')} {...form.field('ratingMessage')}>
              <Textarea resize="vertical" rows={2} {...form.text('ratingMessage')} />
            </Field>
            <Field label={t('modal.expiresInactiveMessage')} {...form.field('expiresInactiveMessage')}>
              <Textarea resize="vertical" rows={2} {...form.text('expiresInactiveMessage')} />
            </Field>
          </div>
          <Field label={t('modal.queues')} {...form.field('queueIds')}>
            <Dropdown
              multiselect
              placeholder={t('modal.noQueues')}
              selectedOptions={form.values.queueIds.map(String)}
              value={form.values.queueIds.map(queueName).join(', ')}
              onOptionSelect={(_, d) => form.set('queueIds', d.selectedOptions.map(Number))}
            >
              {queueList.map((q) => (
                <Option key={q.id} value={String(q.id)} text={q.name}>
                  <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: q.color, marginRight: 6 }} />
                  {q.name}
                </Option>
              ))}
            </Dropdown>
          </Field>
          <div className={styles.row}>
            <Field label={t('modal.expiresTicket')} {...form.field('expiresTicket')}>
              <Input type="number" min={0} data-testid="connection-expires-ticket" {...form.text('expiresTicket')} />
            </Field>
            <Field label={t('modal.maxUseBotQueues')} {...form.field('maxUseBotQueues')}>
              <Input type="number" min={0} data-testid="connection-max-bot-queues" {...form.text('maxUseBotQueues')} />
            </Field>
            <Field label={t('modal.timeUseBotQueues')} {...form.field('timeUseBotQueues')}>
              <Input type="number" min={0} data-testid="connection-time-bot-queues" {...form.text('timeUseBotQueues')} />
            </Field>
          </div>
          <div className={styles.row}>
            <Field label={t('modal.timeToTransfer')} {...form.field('timeToTransfer')}>
              <Input type="number" min={0} data-testid="connection-time-to-transfer" {...form.text('timeToTransfer')} />
            </Field>
            <Field label={t('modal.transferQueueId')} {...form.field('transferQueueId')}>
              <Select value={form.values.transferQueueId} data-testid="connection-transfer-queue" onChange={(_, d) => form.set('transferQueueId', d.value)}>
                <option value="">{t('modal.none')}</option>
                {queueList.map((q) => (
                  <option key={q.id} value={String(q.id)}>
                    {q.name}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          {shown.integration || shown.prompt ? (
            <div className={styles.row}>
              {shown.integration ? (
                <Field label={t('modal.integration')} hint={t('modal.automationHint')} {...form.field('integrationId')}>
                  <Select value={form.values.integrationId} data-testid="connection-integration" onChange={(_, d) => form.set('integrationId', d.value)}>
                    <option value="">{t('modal.none')}</option>
                    {(integrations.data ?? []).map((i) => (
                      <option key={i.id} value={String(i.id)}>
                        {i.name}
                      </option>
                    ))}
                  </Select>
                </Field>
              ) : null}
              {shown.prompt ? (
                <Field label={t('modal.prompt')} {...form.field('promptId')}>
                  <Select value={form.values.promptId} data-testid="connection-prompt" onChange={(_, d) => form.set('promptId', d.value)}>
                    <option value="">{t('modal.none')}</option>
                    {(prompts.data ?? []).map((p) => (
                      <option key={p.id} value={String(p.id)}>
                        {p.name}
                      </option>
                    ))}
                  </Select>
                </Field>
              ) : null}
            </div>
          ) : null}
          {/* The flows of the flow builder: one greets a new or reopened conversation, one answers what nothing else did. */}
          <div className={styles.row}>
            {(['flowIdWelcome', 'flowIdNotPhrase'] as const).map((name) => (
              <Field key={name} label={t(`modal.${name}`)} {...form.field(name)}>
                <Select value={form.values[name]} data-testid={`connection-${name}`} onChange={(_, d) => form.set(name, d.value)}>
                  <option value="">{t('modal.none')}</option>
                  {(flows.data ?? []).map((f) => (
                    <option key={f.id} value={String(f.id)}>
                      {f.name}
                    </option>
                  ))}
                </Select>
              </Field>
            ))}
          </div>
          {connection ? <ApiTokenField connectionId={connection.id} hasToken={connection.hasToken} /> : null}
        </>
      )}
    </FormDialog>
  );
}
