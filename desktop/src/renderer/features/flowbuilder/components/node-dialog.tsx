import { useState } from 'react';
import { Button, Dropdown, Field, Input, Option, Slider, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular, DeleteRegular, EyeOffRegular, EyeRegular } from '@fluentui/react-icons';
import { FLOW_CONDITION_OPERATORS, FLOW_MENU_MAX_OPTIONS, FLOW_VOICES, type FlowNodeType } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { FormDialog } from '../../../components/list-kit';
import type { Schema } from '../../../components/form/validation';
import { flowsApi } from '../api/flows';
import { nodeDataSchema } from '../lib/graph';

/**
 * The dialog of each node type (spec 02 "Flow builder screen"), in create mode (adding a node) and edit
 * mode (double-click). The fields are flat; the node's data is built from them and checked with the
 * server's own schema for that type, whose complaints land under the field they are about.
 */
export type DialogNodeType = Exclude<FlowNodeType, 'start' | 'singleBlock' | 'img' | 'audio' | 'video'>;
export const DIALOG_TYPES: readonly FlowNodeType[] = ['message', 'interval', 'condition', 'menu', 'randomizer', 'ticket', 'typebot', 'openai', 'question'];

type Values = Record<string, unknown>;
type Data = Record<string, unknown>;
type Settings = Record<string, unknown>;

const optionalNumber = (v: unknown) => (v === '' || v === undefined || v === null ? undefined : v);

/** The dialog's fields from a node's data. */
export const valuesOf = (type: DialogNodeType, data: Data): Values => {
  const s = (data.typebotIntegration ?? {}) as Settings;
  switch (type) {
    case 'message':
      return { label: data.label ?? '' };
    case 'interval':
      return { sec: String(data.sec ?? '') };
    case 'condition':
      return { key: data.key ?? '', condition: data.condition ?? 'equals', value: data.value ?? '' };
    case 'menu':
      return {
        message: data.message ?? '',
        options: ((data.arrayOption as { value: string }[]) ?? [{ value: '' }]).map((o) => o.value),
        retries: String(data.retries ?? ''),
        timeoutMinutes: String(data.timeoutMinutes ?? ''),
      };
    case 'question':
      return { message: s.message ?? '', answerKey: s.answerKey ?? '', retries: String(data.retries ?? ''), timeoutMinutes: String(data.timeoutMinutes ?? '') };
    case 'randomizer':
      return { percent: Number(data.percent ?? 50) };
    case 'ticket':
      return { queueId: (data.queue as { id?: number })?.id || 0, queueName: (data.queue as { name?: string })?.name ?? '' };
    case 'typebot':
      return { id: Number(s.id) || 0, name: s.name ?? '' };
    case 'openai':
      return {
        name: s.name ?? '',
        // A key is never shown back: the server keeps the saved one (`hasApiKey`); one typed in this
        // session and not saved yet stays in the node (`pendingKey`) until the canvas is saved.
        apiKey: '',
        pendingKey: s.apiKey ?? '',
        hasApiKey: !!s.hasApiKey,
        prompt: s.prompt ?? '',
        voice: s.voice ?? 'texto',
        temperature: String(s.temperature ?? 1),
        maxTokens: String(s.maxTokens ?? 100),
        maxMessages: String(s.maxMessages ?? 10),
      };
  }
};

/** A node's data from the dialog's fields (what the schema checks and the canvas keeps). */
export const dataOf = (type: DialogNodeType, v: Values): Data => {
  switch (type) {
    case 'message':
      return { label: v.label };
    case 'interval':
      return { sec: v.sec };
    case 'condition':
      return { key: v.key, condition: v.condition, value: v.value };
    case 'menu':
      return {
        message: v.message,
        arrayOption: (v.options as string[]).map((value, i) => ({ number: i + 1, value })),
        retries: optionalNumber(v.retries),
        timeoutMinutes: optionalNumber(v.timeoutMinutes),
      };
    case 'question':
      return { typebotIntegration: { message: v.message, answerKey: v.answerKey }, retries: optionalNumber(v.retries), timeoutMinutes: optionalNumber(v.timeoutMinutes) };
    case 'randomizer':
      return { percent: v.percent };
    case 'ticket':
      return { queue: { id: v.queueId, name: v.queueName } };
    case 'typebot':
      return { typebotIntegration: { id: v.id, name: v.name } };
    case 'openai':
      // projectName is the name (spec 02 "Node data by type").
      return {
        typebotIntegration: {
          name: v.name,
          projectName: v.name,
          apiKey: v.apiKey || v.pendingKey || '',
          hasApiKey: !!v.hasApiKey,
          prompt: v.prompt,
          voice: v.voice,
          temperature: v.temperature,
          maxTokens: v.maxTokens,
          maxMessages: v.maxMessages,
        },
      };
  }
};

/** Where an issue of the node's data shows: under the flat field it came from. */
const fieldOf = (path: PropertyKey[]): string => {
  const [first, second] = path.map(String);
  if (first === 'typebotIntegration') return second ?? first;
  if (first === 'arrayOption') return 'options';
  if (first === 'queue') return 'queueId';
  return first ?? '';
};

/** The type's data schema, read through the dialog's flat fields. */
export const dialogSchema = (type: DialogNodeType): Schema<Data> => ({
  safeParse(values: unknown) {
    const v = values as Values;
    const result = nodeDataSchema(type).safeParse(dataOf(type, v));
    const issues = result.success ? [] : result.error.issues.map((issue) => ({ ...issue, path: [fieldOf(issue.path)] }));
    // An OpenAI node runs with its own key: one is typed, or the server keeps one (spec 02: required).
    if (type === 'openai' && !v.hasApiKey && !String(v.apiKey ?? '').trim() && !v.pendingKey) {
      issues.push({ code: 'too_small', origin: 'string', minimum: 1, message: 'required', path: ['apiKey'] } as (typeof issues)[number]);
    }
    if (issues.length === 0 && result.success) return { success: true, data: result.data as Data };
    return { success: false, error: { issues } };
  },
});

const useStyles = makeStyles({
  // Side by side where there is room; one under the other on a narrow window (400 px).
  row: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'flex-start' },
  grow: { flex: '1 1 180px', minWidth: 0, '& .fui-Input': { width: '100%', minWidth: 0 } },
  option: { display: 'flex', gap: tokens.spacingHorizontalXS, alignItems: 'center' },
  number: { width: '2em', textAlign: 'right', color: tokens.colorNeutralForeground2 },
});

export interface NodeDialogProps {
  type: DialogNodeType;
  /** The node's data when editing it; none when adding one. */
  data?: Data;
  /** The node's saved data had an OpenAI key (not shown back). */
  onSubmit: (data: Data) => void;
  onClose: () => void;
}

export function NodeDialog({ type, data, onSubmit, onClose }: NodeDialogProps) {
  const styles = useStyles();
  const { t } = useTranslation('flowbuilder');
  const editing = !!data;
  const queues = useQuery(['flowbuilder', 'queues'], flowsApi.queues, { enabled: type === 'ticket', staleTime: 30_000 });
  const typebots = useQuery(['flowbuilder', 'typebots'], flowsApi.typebots, { enabled: type === 'typebot', staleTime: 30_000 });
  const [showKey, setShowKey] = useState(false);
  const initial = valuesOf(type, data ?? {});
  const messages = {
    sec: { required: t('validation.intervalRequired'), invalid: t('validation.intervalMax') },
    queueId: t('validation.queueRequired'),
    id: t('validation.typebotRequired'),
    apiKey: t('validation.apiKeyRequired'),
    label: { required: t('validation.messageRequired') },
    answerKey: { invalid: t('validation.variableName') },
    key: { invalid: t('validation.variableName') },
  };

  return (
    <FormDialog<Values, Data>
      title={t(editing ? `dialogs.${type}.edit` : `dialogs.${type}.add`)}
      schema={dialogSchema(type)}
      initialValues={initial}
      messages={messages}
      testId="flow-node-dialog"
      width={type === 'openai' || type === 'menu' ? 560 : 480}
      onClose={onClose}
      onSubmit={async (parsed, values) => {
        // The data as the server's schema reads it (numbers as numbers, defaults filled), so a saved canvas
        // comes back equal to the one drawn; a ticket node keeps its queue's name for the canvas.
        if (type === 'ticket') onSubmit({ queue: { id: values.queueId, name: queues.data?.find((q) => q.id === values.queueId)?.name ?? values.queueName } });
        else if (type === 'typebot') onSubmit({ typebotIntegration: { id: values.id, name: typebots.data?.find((i) => i.id === values.id)?.name ?? values.name } });
        else onSubmit(parsed);
      }}
    >
      {(form) => {
        const v = form.values;
        switch (type) {
          case 'message':
            return (
              <Field label={t('fields.message')} required {...form.field('label')}>
                <Textarea rows={5} autoFocus data-testid="flow-dialog-label" {...form.text('label')} />
              </Field>
            );
          case 'interval':
            return (
              <Field label={t('fields.seconds')} required {...form.field('sec')}>
                <Input type="number" min={1} max={120} autoFocus data-testid="flow-dialog-sec" {...form.text('sec')} />
              </Field>
            );
          case 'condition':
            return (
              <>
                <Field label={t('fields.variable')} required {...form.field('key')} hint={t('fields.variableHint')}>
                  <Input autoFocus data-testid="flow-dialog-key" {...form.text('key')} />
                </Field>
                <Field label={t('fields.operator')} {...form.field('condition')}>
                  <Dropdown
                    data-testid="flow-dialog-operator"
                    value={t(`operators.${String(v.condition)}`)}
                    selectedOptions={[String(v.condition)]}
                    onOptionSelect={(_, d) => form.set('condition', d.optionValue ?? 'equals')}
                  >
                    {FLOW_CONDITION_OPERATORS.map((op) => (
                      <Option key={op} value={op}>
                        {t(`operators.${op}`)}
                      </Option>
                    ))}
                  </Dropdown>
                </Field>
                <Field label={t('fields.value')} {...form.field('value')}>
                  <Input data-testid="flow-dialog-value" {...form.text('value')} />
                </Field>
              </>
            );
          case 'menu':
          case 'question': {
            const options = (v.options as string[]) ?? [];
            return (
              <>
                <Field label={t('fields.message')} required {...form.field('message')}>
                  <Textarea rows={4} autoFocus data-testid="flow-dialog-message" {...form.text('message')} />
                </Field>
                {type === 'question' ? (
                  <Field label={t('fields.answerKey')} required {...form.field('answerKey')} hint={t('fields.answerKeyHint')}>
                    <Input data-testid="flow-dialog-answer-key" {...form.text('answerKey')} />
                  </Field>
                ) : (
                  <Field label={t('fields.options')} required {...form.field('options')}>
                    {options.map((option, i) => (
                      <div key={i} className={styles.option}>
                        <span className={styles.number}>{i + 1}.</span>
                        <Input
                          className={styles.grow}
                          value={option}
                          data-testid={`flow-dialog-option-${i + 1}`}
                          onChange={(_, d) => form.set('options', options.map((o, k) => (k === i ? d.value : o)))}
                        />
                        {/* Options are numbered in order: only the last can go (spec 02 section 5). */}
                        {i === options.length - 1 && options.length > 1 ? (
                          <Button
                            appearance="subtle"
                            icon={<DeleteRegular />}
                            aria-label={t('fields.removeOption')}
                            data-testid="flow-dialog-remove-option"
                            onClick={() => form.set('options', options.slice(0, -1))}
                          />
                        ) : null}
                      </div>
                    ))}
                    <Button
                      appearance="subtle"
                      icon={<AddRegular />}
                      disabled={options.length >= FLOW_MENU_MAX_OPTIONS}
                      data-testid="flow-dialog-add-option"
                      onClick={() => form.set('options', [...options, ''])}
                    >
                      {t('fields.addOption')}
                    </Button>
                  </Field>
                )}
                <div className={styles.row}>
                  <Field className={styles.grow} label={t('fields.retries')} hint={t('fields.retriesHint')} {...form.field('retries')}>
                    <Input type="number" min={0} max={10} data-testid="flow-dialog-retries" {...form.text('retries')} />
                  </Field>
                  <Field className={styles.grow} label={t('fields.timeout')} hint={t('fields.timeoutHint')} {...form.field('timeoutMinutes')}>
                    <Input type="number" min={0} data-testid="flow-dialog-timeout" {...form.text('timeoutMinutes')} />
                  </Field>
                </div>
              </>
            );
          }
          case 'randomizer':
            return (
              <Field label={t('fields.percent', { a: v.percent, b: 100 - Number(v.percent) })}>
                <Slider
                  min={0}
                  max={100}
                  step={10}
                  value={Number(v.percent)}
                  data-testid="flow-dialog-percent"
                  onChange={(_, d) => form.set('percent', d.value)}
                />
              </Field>
            );
          case 'ticket':
            return (
              <Field label={t('fields.queue')} required {...form.field('queueId')}>
                <Dropdown
                  data-testid="flow-dialog-queue"
                  placeholder={t('fields.queuePlaceholder')}
                  value={queues.data?.find((q) => q.id === v.queueId)?.name ?? String(v.queueName ?? '')}
                  selectedOptions={v.queueId ? [String(v.queueId)] : []}
                  onOptionSelect={(_, d) => form.set('queueId', Number(d.optionValue))}
                >
                  {(queues.data ?? []).map((q) => (
                    <Option key={q.id} value={String(q.id)}>
                      {q.name}
                    </Option>
                  ))}
                </Dropdown>
              </Field>
            );
          case 'typebot': {
            const known = typebots.data ?? [];
            return (
              <Field
                label={t('fields.typebot')}
                required
                {...form.field('id')}
                hint={(typebots.data && known.length === 0) || typebots.error ? t('fields.noTypebots') : t('fields.typebotHint')}
              >
                <Dropdown
                  autoFocus
                  data-testid="flow-dialog-integration"
                  placeholder={t('fields.typebotPlaceholder')}
                  value={known.find((i) => i.id === v.id)?.name ?? String(v.name ?? '')}
                  selectedOptions={v.id ? [String(v.id)] : []}
                  onOptionSelect={(_, d) => form.set('id', Number(d.optionValue))}
                >
                  {known.map((i) => (
                    <Option key={i.id} value={String(i.id)}>
                      {i.name}
                    </Option>
                  ))}
                </Dropdown>
              </Field>
            );
          }
          case 'openai':
            return (
              <>
                <Field label={t('fields.name')} required {...form.field('name')}>
                  <Input autoFocus data-testid="flow-dialog-name" {...form.text('name')} />
                </Field>
                <Field
                  label={t('fields.apiKey')}
                  required={!v.hasApiKey && !v.pendingKey}
                  {...form.field('apiKey')}
                  hint={v.hasApiKey || v.pendingKey ? t('fields.apiKeyKept') : t('fields.openaiHint')}
                >
                  <Input
                    type={showKey ? 'text' : 'password'}
                    autoComplete="off"
                    data-testid="flow-dialog-api-key"
                    contentAfter={
                      <Button
                        appearance="transparent"
                        size="small"
                        icon={showKey ? <EyeOffRegular /> : <EyeRegular />}
                        aria-label={t(showKey ? 'fields.hideKey' : 'fields.showKey')}
                        onClick={() => setShowKey((s) => !s)}
                      />
                    }
                    {...form.text('apiKey')}
                  />
                </Field>
                <Field label={t('fields.prompt')} required {...form.field('prompt')}>
                  <Textarea rows={5} data-testid="flow-dialog-prompt" {...form.text('prompt')} />
                </Field>
                <Field label={t('fields.voice')} {...form.field('voice')}>
                  <Dropdown value={String(v.voice)} selectedOptions={[String(v.voice)]} onOptionSelect={(_, d) => form.set('voice', d.optionValue ?? 'texto')}>
                    {FLOW_VOICES.map((voice) => (
                      <Option key={voice} value={voice}>
                        {voice}
                      </Option>
                    ))}
                  </Dropdown>
                </Field>
                <div className={styles.row}>
                  <Field className={styles.grow} label={t('fields.temperature')} {...form.field('temperature')}>
                    <Input type="number" step={0.1} min={0} max={2} {...form.text('temperature')} />
                  </Field>
                  <Field className={styles.grow} label={t('fields.maxTokens')} {...form.field('maxTokens')}>
                    <Input type="number" min={1} {...form.text('maxTokens')} />
                  </Field>
                  <Field className={styles.grow} label={t('fields.maxMessages')} {...form.field('maxMessages')}>
                    <Input type="number" min={1} {...form.text('maxMessages')} />
                  </Field>
                </div>
              </>
            );
        }
      }}
    </FormDialog>
  );
}
