import { useState } from 'react';
import {
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Select,
  Tab,
  TabList,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { SETTINGS, createQueueSchema, updateQueueSchema } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { usePlanFlags } from '../../../api/company';
import { queryClient, useQuery } from '../../../api/query';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toast } from '../../../components/toasts';
import { useSaving } from '../../../hooks/use-saving';
import {
  QUEUES_KEY,
  QUEUE_INTEGRATIONS_KEY,
  QUEUE_PROMPTS_KEY,
  QUEUE_SETTINGS_KEY,
  queuesApi,
  type Queue,
  type QueueSchedule,
} from '../api/queues';
import { QueueOptionsEditor } from './queue-options-editor';
import { QueueSchedules, fillQueueWeek } from './queue-schedules';
import { SaveActions } from '../../../components/form/save-actions';

const useStyles = makeStyles({
  surface: { maxWidth: '760px', width: '100%' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minHeight: '360px' },
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, paddingTop: tokens.spacingVerticalS },
  // Inputs keep a native width of about 20 characters unless told otherwise: the colour ran under the order.
  row: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))',
    gap: tokens.spacingHorizontalM,
    alignItems: 'start',
    '& > *': { minWidth: 0 },
    '& input': { minWidth: 0 },
    '& .fui-Input': { width: '100%', minWidth: 0 },
  },
  color: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  picker: {
    width: '40px',
    height: '32px',
    padding: 0,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: 'transparent',
    cursor: 'pointer',
    flexShrink: 0,
  },
});

type TabId = 'data' | 'schedules' | 'options';

interface FormValues {
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: string;
  integrationId: string;
  promptId: string;
}

const initialValues = (q?: Queue): FormValues => ({
  name: q?.name ?? '',
  color: q?.color ?? '',
  greetingMessage: q?.greetingMessage ?? '',
  outOfHoursMessage: q?.outOfHoursMessage ?? '',
  orderQueue: q?.orderQueue === null || q?.orderQueue === undefined ? '' : String(q.orderQueue),
  integrationId: q?.integrationId ? String(q.integrationId) : '',
  promptId: q?.promptId ? String(q.promptId) : '',
});

/** The native colour input understands #rrggbb only; anything else shows black until a colour is picked. */
const pickerValue = (color: string): string => {
  const value = color.trim();
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase() : '#000000';
};

/**
 * Whether the greeting is required (spec 02 section 5): the company would have more than one queue
 * once this one is saved.
 */
export const greetingRequired = (queues: readonly Pick<Queue, 'id'>[] | undefined, editingId: number | undefined): boolean =>
  (queues ?? []).filter((q) => q.id !== editingId).length >= 1;

/** Whether the attendance-time tab shows (spec 02 section 2: the setting scheduleType is queue). */
export const showsQueueSchedules = (scheduleType: string | null | undefined): boolean =>
  (scheduleType ?? SETTINGS.scheduleType.default) === 'queue';

export interface QueueModalProps {
  /** The queue to edit; none to add one. */
  queue?: Queue;
  onClose: () => void;
}

/** Add or edit a queue: its data, its attendance time (scheduleType queue) and its chatbot options. */
export function QueueModal({ queue, onClose }: QueueModalProps) {
  const styles = useStyles();
  const { t } = useTranslation('queues');
  const { t: tc } = useTranslation();
  const [tab, setTab] = useState<TabId>('data');
  const [values, setValues] = useState<FormValues>(() => initialValues(queue));
  const [week, setWeek] = useState<QueueSchedule[]>(() => fillQueueWeek(queue?.schedules));
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();
  const queues = useQuery(QUEUES_KEY, queuesApi.list, { staleTime: 30_000 });
  const scheduleType = useQuery(QUEUE_SETTINGS_KEY, queuesApi.scheduleType, { silent: true });
  // Asked for only when the plan has integrations or AI (their pages exist only then); these endpoints
  // may not exist on the server yet: a failure (404) hides the select, silently.
  const plan = usePlanFlags();
  const integrations = useQuery(QUEUE_INTEGRATIONS_KEY, queuesApi.integrations, { silent: true, enabled: !!plan?.useIntegrations });
  const prompts = useQuery(QUEUE_PROMPTS_KEY, queuesApi.prompts, { silent: true, enabled: !!plan?.useOpenAi });
  const withSchedules = scheduleType.status === 'success' && showsQueueSchedules(scheduleType.data);
  const withIntegrations = integrations.status === 'success';
  const withPrompts = prompts.status === 'success';
  const shownTab: TabId = tab === 'schedules' && !withSchedules ? 'data' : tab;

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
    const payload: Record<string, unknown> = {
      name: values.name,
      color: values.color,
      greetingMessage: values.greetingMessage,
      outOfHoursMessage: values.outOfHoursMessage,
      orderQueue: values.orderQueue.trim(),
    };
    // Fields the screen does not show are not sent, so they keep what they hold.
    if (withIntegrations) payload.integrationId = values.integrationId;
    if (withPrompts) payload.promptId = values.promptId;
    if (withSchedules) payload.schedules = week.map(({ weekday, weekdayEn, startTime, endTime }) => ({ weekday, weekdayEn, startTime, endTime }));
    const result = queue ? validate(updateQueueSchema, payload, tc) : validate(createQueueSchema, payload, tc);
    const fieldErrors: FieldErrors = { ...result.errors };
    if (!values.greetingMessage.trim() && greetingRequired(queues.data, queue?.id)) fieldErrors.greetingMessage = t('modal.greetingRequired');
    if (fieldErrors.schedules) fieldErrors.schedules = t('schedules.invalid');
    if (!result.ok || Object.keys(fieldErrors).length > 0) {
      setErrors(fieldErrors);
      const onData = Object.keys(fieldErrors).some((k) => k !== 'schedules');
      setTab(onData ? 'data' : 'schedules');
      return;
    }
    await run(async () => {
      const saved = queue ? await queuesApi.update(queue.id, result.data) : await queuesApi.create(result.data as Parameters<typeof queuesApi.create>[0]);
      if (saved && typeof saved === 'object' && 'id' in saved) {
        queryClient.setQueryData<Queue[]>(QUEUES_KEY, (old) => (old ? [...old.filter((q) => q.id !== saved.id), saved] : old));
      }
      void queryClient.invalidateQueries({ queryKey: QUEUES_KEY });
      toast.success(t('toasts.saved'));
      onClose();
    });
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface className={styles.surface} data-testid="queue-modal">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{queue ? t('modal.editTitle') : t('modal.addTitle')}</DialogTitle>
            <DialogContent className={styles.content}>
              <TabList selectedValue={shownTab} onTabSelect={(_, d) => setTab(d.value as TabId)}>
                <Tab value="data" data-testid="queue-tab-data">
                  {t('modal.tabs.data')}
                </Tab>
                {withSchedules ? (
                  <Tab value="schedules" data-testid="queue-tab-schedules">
                    {t('modal.tabs.schedules')}
                  </Tab>
                ) : null}
                <Tab value="options" data-testid="queue-tab-options">
                  {t('modal.tabs.options')}
                </Tab>
              </TabList>
              {shownTab === 'data' ? (
                <div className={styles.body}>
                  <div className={styles.row}>
                    <Field label={t('modal.name')} required validationMessage={errors.name}>
                      <Input value={values.name} maxLength={50} autoFocus data-testid="queue-name" onChange={(_, d) => set('name', d.value)} />
                    </Field>
                    <Field label={t('modal.color')} required validationMessage={errors.color} hint={errors.color ? undefined : t('modal.colorHint')}>
                      <div className={styles.color}>
                        <input
                          type="color"
                          className={styles.picker}
                          aria-label={t('modal.colorPicker')}
                          data-testid="queue-color-picker"
                          value={pickerValue(values.color)}
                          onChange={(e) => set('color', e.target.value)}
                        />
                        <Input
                          value={values.color}
                          maxLength={9}
                          style={{ flex: 1 }}
                          aria-label={t('modal.color')}
                          data-testid="queue-color"
                          onChange={(_, d) => set('color', d.value)}
                        />
                      </div>
                    </Field>
                    <Field label={t('modal.orderQueue')} validationMessage={errors.orderQueue}>
                      <Input
                        type="number"
                        min={0}
                        value={values.orderQueue}
                        data-testid="queue-order"
                        onChange={(_, d) => set('orderQueue', d.value)}
                      />
                    </Field>
                  </div>
                  <Field label={t('modal.greetingMessage')} validationMessage={errors.greetingMessage}>
                    <Textarea
                      resize="vertical"
                      rows={3}
                      value={values.greetingMessage}
                      data-testid="queue-greeting"
                      onChange={(_, d) => set('greetingMessage', d.value)}
                    />
                  </Field>
                  <Field label={t('modal.outOfHoursMessage')} validationMessage={errors.outOfHoursMessage}>
                    <Textarea
                      resize="vertical"
                      rows={2}
                      value={values.outOfHoursMessage}
                      data-testid="queue-out-of-hours"
                      onChange={(_, d) => set('outOfHoursMessage', d.value)}
                    />
                  </Field>
                  {withIntegrations || withPrompts ? (
                    <div className={styles.row}>
                      {withIntegrations ? (
                        <Field label={t('modal.integration')} validationMessage={errors.integrationId}>
                          <Select value={values.integrationId} data-testid="queue-integration" onChange={(_, d) => set('integrationId', d.value)}>
                            <option value="">{t('modal.none')}</option>
                            {(integrations.data ?? []).map((i) => (
                              <option key={i.id} value={String(i.id)}>
                                {i.name}
                              </option>
                            ))}
                          </Select>
                        </Field>
                      ) : null}
                      {withPrompts ? (
                        <Field label={t('modal.prompt')} validationMessage={errors.promptId}>
                          <Select value={values.promptId} data-testid="queue-prompt" onChange={(_, d) => set('promptId', d.value)}>
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
                </div>
              ) : shownTab === 'schedules' ? (
                <div className={styles.body}>
                  <QueueSchedules
                    week={week}
                    error={errors.schedules}
                    onChange={(next) => {
                      setWeek(next);
                      setErrors((e) => {
                        if (!e.schedules) return e;
                        const rest = { ...e };
                        delete rest.schedules;
                        return rest;
                      });
                    }}
                  />
                </div>
              ) : (
                <div className={styles.body}>
                  <QueueOptionsEditor queueId={queue?.id} />
                </div>
              )}
            </DialogContent>
            <SaveActions saving={saving} onCancel={onClose} cancelLabel={tc('actions.close')} cancelTestId="queue-cancel" saveTestId="queue-save" />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
