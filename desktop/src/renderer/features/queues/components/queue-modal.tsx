import { useState } from 'react';
import { Field, Input, Select, Tab, TabList, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { SETTINGS, createQueueSchema, updateQueueSchema, type UpdateQueueInput } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { usePlanFlags } from '../../../api/company';
import { queryClient, useQuery } from '../../../api/query';
import { ColorInput } from '../../../components/form/color-input';
import { FormDialog, type FormState } from '../../../components/list-kit';
import { toast } from '../../../components/toasts';
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

const useStyles = makeStyles({
  content: { minHeight: '360px' },
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
});

type TabId = 'data' | 'schedules' | 'options';

type FormValues = {
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: string;
  integrationId: string;
  promptId: string;
  schedules: QueueSchedule[];
};

const initialValues = (q?: Queue): FormValues => ({
  name: q?.name ?? '',
  color: q?.color ?? '',
  greetingMessage: q?.greetingMessage ?? '',
  outOfHoursMessage: q?.outOfHoursMessage ?? '',
  orderQueue: q?.orderQueue === null || q?.orderQueue === undefined ? '' : String(q.orderQueue),
  integrationId: q?.integrationId ? String(q.integrationId) : '',
  promptId: q?.promptId ? String(q.promptId) : '',
  schedules: fillQueueWeek(q?.schedules),
});

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

/** A select of what the server lists (integrations, prompts), "none" first. */
function ChoiceSelect({
  form,
  name,
  label,
  choices,
  testId,
}: {
  form: FormState<FormValues>;
  name: 'integrationId' | 'promptId';
  label: string;
  choices: readonly { id: number; name: string }[] | undefined;
  testId: string;
}) {
  const { t } = useTranslation('queues');
  return (
    <Field label={label} {...form.field(name)}>
      <Select value={form.values[name]} data-testid={testId} onChange={(_, d) => form.set(name, d.value)}>
        <option value="">{t('modal.none')}</option>
        {(choices ?? []).map((choice) => (
          <option key={choice.id} value={String(choice.id)}>
            {choice.name}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** Add or edit a queue: its data, its attendance time (scheduleType queue) and its chatbot options. */
export function QueueModal({ queue, onClose }: QueueModalProps) {
  const styles = useStyles();
  const { t } = useTranslation('queues');
  const { t: tc } = useTranslation();
  const [tab, setTab] = useState<TabId>('data');
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

  const toPayload = (values: FormValues) => {
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
    if (withSchedules) payload.schedules = values.schedules.map(({ weekday, weekdayEn, startTime, endTime }) => ({ weekday, weekdayEn, startTime, endTime }));
    return payload;
  };

  return (
    <FormDialog<FormValues, UpdateQueueInput>
      title={queue ? t('modal.editTitle') : t('modal.addTitle')}
      schema={queue ? updateQueueSchema : createQueueSchema}
      initialValues={initialValues(queue)}
      toPayload={toPayload}
      messages={{ schedules: t('schedules.invalid') }}
      // The other queues are not in the form: the schema cannot know them.
      check={(values) =>
        !values.greetingMessage.trim() && greetingRequired(queues.data, queue?.id) ? { greetingMessage: t('modal.greetingRequired') } : {}
      }
      onInvalid={(errors) => setTab(Object.keys(errors).some((k) => k !== 'schedules') ? 'data' : 'schedules')}
      testId="queue-modal"
      saveTestId="queue-save"
      cancelTestId="queue-cancel"
      cancelLabel={tc('actions.close')}
      width={760}
      contentClassName={styles.content}
      onClose={onClose}
      onSubmit={async (data) => {
        const saved = queue ? await queuesApi.update(queue.id, data) : await queuesApi.create(data as Parameters<typeof queuesApi.create>[0]);
        if (saved && typeof saved === 'object' && 'id' in saved) {
          queryClient.setQueryData<Queue[]>(QUEUES_KEY, (old) => (old ? [...old.filter((q) => q.id !== saved.id), saved] : old));
        }
        void queryClient.invalidateQueries({ queryKey: QUEUES_KEY });
        toast.success(t('toasts.saved'));
      }}
    >
      {(form) => (
        <>
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
                <Field label={t('modal.name')} required {...form.field('name')}>
                  <Input maxLength={50} autoFocus data-testid="queue-name" {...form.text('name')} />
                </Field>
                <Field label={t('modal.color')} required {...form.field('color')} hint={form.errors.color ? undefined : t('modal.colorHint')}>
                  <ColorInput
                    value={form.values.color}
                    onChange={(color) => form.set('color', color)}
                    label={t('modal.color')}
                    pickerLabel={t('modal.colorPicker')}
                    testId="queue-color"
                  />
                </Field>
                <Field label={t('modal.orderQueue')} {...form.field('orderQueue')}>
                  <Input type="number" min={0} data-testid="queue-order" {...form.text('orderQueue')} />
                </Field>
              </div>
              <Field label={t('modal.greetingMessage')} {...form.field('greetingMessage')}>
                <Textarea resize="vertical" rows={3} data-testid="queue-greeting" {...form.text('greetingMessage')} />
              </Field>
              <Field label={t('modal.outOfHoursMessage')} {...form.field('outOfHoursMessage')}>
                <Textarea resize="vertical" rows={2} data-testid="queue-out-of-hours" {...form.text('outOfHoursMessage')} />
              </Field>
              {withIntegrations || withPrompts ? (
                <div className={styles.row}>
                  {withIntegrations ? (
                    <ChoiceSelect form={form} name="integrationId" label={t('modal.integration')} choices={integrations.data} testId="queue-integration" />
                  ) : null}
                  {withPrompts ? <ChoiceSelect form={form} name="promptId" label={t('modal.prompt')} choices={prompts.data} testId="queue-prompt" /> : null}
                </div>
              ) : null}
            </div>
          ) : shownTab === 'schedules' ? (
            <div className={styles.body}>
              <QueueSchedules week={form.values.schedules} error={form.errors.schedules} onChange={(week) => form.set('schedules', week)} />
            </div>
          ) : (
            <div className={styles.body}>
              <QueueOptionsEditor queueId={queue?.id} />
            </div>
          )}
        </>
      )}
    </FormDialog>
  );
}
