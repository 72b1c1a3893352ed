import { useState } from 'react';
import {
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  Input,
  Option,
  Select,
  Switch,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { createConnectionSchema, updateConnectionSchema } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient, useQuery } from '../../../api/query';
import { toast } from '../../../components/toasts';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { CONNECTIONS_KEY, PROVIDERS, QUEUES_KEY, connectionsApi, type Connection } from '../api/connections';
import { useSaving } from '../../../hooks/use-saving';
import { fieldRow } from '../../../components/form/field-row';
import { SaveActions } from '../../../components/form/save-actions';

const useStyles = makeStyles({
  surface: { maxWidth: '720px', width: '100%' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: fieldRow('200px'),
});

interface FormValues {
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
}

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
});

export interface ConnectionModalProps {
  /** The connection to edit; none to add one. */
  connection?: Connection;
  onClose: () => void;
}

/** Add or edit a connection (name 2-50; greeting required with more than one queue). */
export function ConnectionModal({ connection, onClose }: ConnectionModalProps) {
  const styles = useStyles();
  const { t } = useTranslation('connections');
  const { t: tc } = useTranslation();
  const [values, setValues] = useState<FormValues>(() => initialValues(connection));
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();
  const queues = useQuery(QUEUES_KEY, connectionsApi.queues, { staleTime: 30_000 });
  const queueList = queues.data ?? [];

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => {
      if (!e[key]) return e;
      const next = { ...e };
      delete next[key];
      return next;
    });
  };

  const submit = async () => {
    const payload = {
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
    };
    const result = connection
      ? validate(updateConnectionSchema, payload, tc)
      : validate(createConnectionSchema, { ...payload, provider: values.provider }, tc);
    const fieldErrors: FieldErrors = { ...result.errors };
    if (values.queueIds.length > 1 && !values.greetingMessage.trim()) fieldErrors.greetingMessage = t('modal.greetingRequired');
    if (!result.ok || Object.keys(fieldErrors).length > 0) {
      setErrors(fieldErrors);
      return;
    }
    await run(async () => {
      if (connection) await connectionsApi.update(connection.id, result.data);
      else await connectionsApi.create(result.data as Parameters<typeof connectionsApi.create>[0]);
      void queryClient.invalidateQueries({ queryKey: CONNECTIONS_KEY });
      toast.success(t('toasts.saved'));
      onClose();
    });
  };

  const queueName = (id: number) => queueList.find((q) => q.id === id)?.name ?? String(id);

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && !saving && onClose()}>
      <DialogSurface className={styles.surface} data-testid="connection-modal">
        <form noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{connection ? t('modal.editTitle') : t('modal.addTitle')}</DialogTitle>
            <DialogContent className={styles.content}>
              <div className={styles.row}>
                <Field label={t('modal.name')} required validationMessage={errors.name}>
                  <Input
                    value={values.name}
                    maxLength={50}
                    autoFocus
                    data-testid="connection-name"
                    onChange={(_, d) => set('name', d.value)}
                  />
                </Field>
                <Field label={t('modal.provider')} validationMessage={errors.provider}>
                  <Select
                    value={values.provider}
                    disabled={!!connection}
                    data-testid="connection-provider"
                    onChange={(_, d) => set('provider', d.value)}
                  >
                    {PROVIDERS.map((p) => (
                      <option key={p} value={p}>
                        {t(`modal.providers.${p}`)}
                      </option>
                    ))}
                  </Select>
                </Field>
                <Field label={t('modal.isDefault')}>
                  <Switch checked={values.isDefault} data-testid="connection-default" onChange={(_, d) => set('isDefault', d.checked)} />
                </Field>
              </div>
              <Field label={t('modal.greetingMessage')} validationMessage={errors.greetingMessage}>
                <Textarea resize="vertical" rows={3} value={values.greetingMessage} onChange={(_, d) => set('greetingMessage', d.value)} />
              </Field>
              <Field label={t('modal.complationMessage')} validationMessage={errors.complationMessage}>
                <Textarea resize="vertical" rows={2} value={values.complationMessage} onChange={(_, d) => set('complationMessage', d.value)} />
              </Field>
              <Field label={t('modal.outOfHoursMessage')} validationMessage={errors.outOfHoursMessage}>
                <Textarea resize="vertical" rows={2} value={values.outOfHoursMessage} onChange={(_, d) => set('outOfHoursMessage', d.value)} />
              </Field>
              <div className={styles.row}>
                <Field label={t('modal.ratingMessage')} validationMessage={errors.ratingMessage}>
                  <Textarea resize="vertical" rows={2} value={values.ratingMessage} onChange={(_, d) => set('ratingMessage', d.value)} />
                </Field>
                <Field label={t('modal.expiresInactiveMessage')} validationMessage={errors.expiresInactiveMessage}>
                  <Textarea
                    resize="vertical"
                    rows={2}
                    value={values.expiresInactiveMessage}
                    onChange={(_, d) => set('expiresInactiveMessage', d.value)}
                  />
                </Field>
              </div>
              <Field label={t('modal.queues')} validationMessage={errors.queueIds}>
                <Dropdown
                  multiselect
                  placeholder={t('modal.noQueues')}
                  selectedOptions={values.queueIds.map(String)}
                  value={values.queueIds.map(queueName).join(', ')}
                  onOptionSelect={(_, d) => set('queueIds', d.selectedOptions.map(Number))}
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
                <Field label={t('modal.expiresTicket')} validationMessage={errors.expiresTicket}>
                  <Input type="number" min={0} value={values.expiresTicket} data-testid="connection-expires-ticket" onChange={(_, d) => set('expiresTicket', d.value)} />
                </Field>
                <Field label={t('modal.maxUseBotQueues')} validationMessage={errors.maxUseBotQueues}>
                  <Input type="number" min={0} value={values.maxUseBotQueues} data-testid="connection-max-bot-queues" onChange={(_, d) => set('maxUseBotQueues', d.value)} />
                </Field>
                <Field label={t('modal.timeUseBotQueues')} validationMessage={errors.timeUseBotQueues}>
                  <Input type="number" min={0} value={values.timeUseBotQueues} data-testid="connection-time-bot-queues" onChange={(_, d) => set('timeUseBotQueues', d.value)} />
                </Field>
              </div>
              <div className={styles.row}>
                <Field label={t('modal.timeToTransfer')} validationMessage={errors.timeToTransfer}>
                  <Input type="number" min={0} value={values.timeToTransfer} data-testid="connection-time-to-transfer" onChange={(_, d) => set('timeToTransfer', d.value)} />
                </Field>
                <Field label={t('modal.transferQueueId')} validationMessage={errors.transferQueueId}>
                  <Select value={values.transferQueueId} data-testid="connection-transfer-queue" onChange={(_, d) => set('transferQueueId', d.value)}>
                    <option value="">{t('modal.none')}</option>
                    {queueList.map((q) => (
                      <option key={q.id} value={String(q.id)}>
                        {q.name}
                      </option>
                    ))}
                  </Select>
                </Field>
              </div>
            </DialogContent>
            <SaveActions saving={saving} onCancel={onClose} saveTestId="connection-save" />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
