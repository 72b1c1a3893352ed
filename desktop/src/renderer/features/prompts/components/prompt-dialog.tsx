import { Combobox, Field, Input, Option, Select, Slider, Text, Textarea } from '@fluentui/react-components';
import { createPromptSchema, PROMPT_DEFAULTS, PROMPT_MODEL_SUGGESTIONS, updatePromptSchema, type UpdatePromptInput } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { SecretInput } from '../../../components/form/secret-input';
import { FormDialog, saveRecord } from '../../../components/list-kit';
import { useQuery } from '../../../api/query';
import { PROMPTS_KEY, promptsApi, type Prompt } from '../api/prompts';

type PromptValues = {
  name: string;
  prompt: string;
  model: string;
  maxTokens: string;
  temperature: number;
  apiKey: string;
  queueId: string;
  maxMessages: string;
};

/**
 * Add or edit a prompt (spec 02 section 5): name 5-100, instructions of 50 characters or more, the model
 * (free text with suggestions; the retiring ones say so), limits, the API key (write-only: kept when left
 * empty on edit) and the queue a conversation is handed to. Without a queue nothing is saved.
 */
export function PromptDialog({ prompt, onClose }: { prompt?: Prompt; onClose: () => void }) {
  const { t } = useTranslation('prompts');
  const queues = useQuery(['prompts', 'queues'], promptsApi.queues).data ?? [];
  const initialValues: PromptValues = {
    name: prompt?.name ?? '',
    prompt: prompt?.prompt ?? '',
    model: prompt?.model ?? PROMPT_DEFAULTS.model,
    maxTokens: String(prompt?.maxTokens ?? PROMPT_DEFAULTS.maxTokens),
    temperature: prompt?.temperature ?? PROMPT_DEFAULTS.temperature,
    apiKey: '',
    queueId: prompt?.queueId ? String(prompt.queueId) : '',
    maxMessages: String(prompt?.maxMessages ?? PROMPT_DEFAULTS.maxMessages),
  };
  return (
    <FormDialog<PromptValues, UpdatePromptInput>
      title={prompt ? t('dialog.editTitle') : t('dialog.addTitle')}
      schema={prompt ? updatePromptSchema : createPromptSchema}
      initialValues={initialValues}
      width={640}
      toPayload={(v) => ({
        name: v.name,
        prompt: v.prompt,
        model: v.model,
        maxTokens: v.maxTokens,
        temperature: v.temperature,
        queueId: v.queueId === '' ? undefined : v.queueId,
        maxMessages: v.maxMessages,
        ...(prompt && !v.apiKey ? {} : { apiKey: v.apiKey }),
      })}
      check={(v) => ({ queueId: v.queueId === '' ? t('dialog.queueRequired') : undefined })}
      testId="prompt-dialog"
      saveTestId="prompt-save"
      onClose={onClose}
      onSubmit={(data) => saveRecord(promptsApi, prompt?.id, data, { listKey: PROMPTS_KEY, savedMessage: t('toasts.saved') })}
    >
      {(form) => {
        const retiring = PROMPT_MODEL_SUGGESTIONS.find((m) => m.value === form.values.model && m.retires);
        return (
          <>
            <Field label={t('dialog.name')} required {...form.field('name')}>
              <Input maxLength={100} autoFocus data-testid="prompt-name" {...form.text('name')} />
            </Field>
            <Field label={t('dialog.prompt')} required hint={t('dialog.promptHint')} {...form.field('prompt')}>
              <Textarea rows={10} resize="vertical" data-testid="prompt-text" {...form.text('prompt')} />
            </Field>
            <Field
              label={t('dialog.model')}
              required
              {...form.field('model')}
              validationState={form.errors.model ? 'error' : retiring ? 'warning' : 'none'}
              validationMessage={form.errors.model ?? (retiring ? t('dialog.retires', { date: retiring.retires }) : undefined)}
            >
              <Combobox
                freeform
                data-testid="prompt-model"
                value={form.values.model}
                selectedOptions={[form.values.model]}
                onChange={(e) => form.set('model', e.target.value)}
                onOptionSelect={(_, d) => d.optionValue && form.set('model', d.optionValue)}
              >
                {PROMPT_MODEL_SUGGESTIONS.map((m) => (
                  <Option key={m.value} value={m.value} text={m.value}>
                    {m.retires ? t('dialog.modelRetiring', { label: m.label, date: m.retires }) : m.label}
                  </Option>
                ))}
              </Combobox>
            </Field>
            <Field label={t('dialog.apiKey')} required={!prompt} hint={prompt?.hasApiKey ? t('dialog.apiKeyKept', { last4: prompt.apiKeyLast4 }) : undefined} {...form.field('apiKey')}>
              <SecretInput data-testid="prompt-api-key" autoComplete="off" {...form.text('apiKey')} />
            </Field>
            <Field label={t('dialog.queue')} required {...form.field('queueId')}>
              <Select data-testid="prompt-queue" value={form.values.queueId} onChange={(_, d) => form.set('queueId', d.value)}>
                <option value="">{t('dialog.chooseQueue')}</option>
                {queues.map((q) => (
                  <option key={q.id} value={q.id}>
                    {q.name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label={t('dialog.temperature', { value: form.values.temperature.toFixed(1) })} {...form.field('temperature')}>
              <Slider min={0} max={1} step={0.1} data-testid="prompt-temperature" value={form.values.temperature} onChange={(_, d) => form.set('temperature', d.value)} />
            </Field>
            <Field label={t('dialog.maxTokens')} required {...form.field('maxTokens')}>
              <Input type="number" min={1} data-testid="prompt-max-tokens" {...form.text('maxTokens')} />
            </Field>
            <Field label={t('dialog.maxMessages')} required {...form.field('maxMessages')}>
              <Input type="number" min={1} data-testid="prompt-max-messages" {...form.text('maxMessages')} />
            </Field>
            <Text size={200}>{t('dialog.handoffHint')}</Text>
          </>
        );
      }}
    </FormDialog>
  );
}
