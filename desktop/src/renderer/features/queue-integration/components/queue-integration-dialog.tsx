import { useState } from 'react';
import { Button, Checkbox, Field, Input, makeStyles, MessageBar, MessageBarBody, Select, Spinner, Switch, Textarea, tokens } from '@fluentui/react-components';
import { PlugConnected20Regular } from '@fluentui/react-icons';
import {
  createQueueIntegrationSchema,
  DIALOGFLOW_LANGUAGES,
  integrationIssues,
  QUEUE_INTEGRATION_DEFAULTS,
  QUEUE_INTEGRATION_TYPES,
  updateQueueIntegrationSchema,
  URL_TYPES,
  WEBHOOK_AUTH_TYPES,
  type QueueIntegrationTestResult,
  type QueueIntegrationType,
  type UpdateQueueIntegrationInput,
  type WebhookAuthType,
} from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/errors';
import { SecretInput } from '../../../components/form/secret-input';
import { FormDialog, saveRecord, type FormState } from '../../../components/list-kit';
import { QUEUE_INTEGRATIONS_KEY, queueIntegrationsApi, type QueueIntegration } from '../api/queue-integrations';
import { TypeLogo } from './type-logo';

export type IntegrationValues = {
  type: QueueIntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: string;
  typebotDelayMessage: string;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotRestartMessage: string;
  typebotUnknownMessage: string;
  authType: WebhookAuthType;
  authUser: string;
  authHeaderName: string;
  authSecret: string;
  webhookSync: boolean;
  regenerateSigningSecret: boolean;
};

const useStyles = makeStyles({
  typeRow: { display: 'flex', alignItems: 'flex-end', gap: tokens.spacingHorizontalM },
  grow: { flexGrow: 1 },
  pair: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: tokens.spacingHorizontalM, alignItems: 'start' },
  test: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM },
});

const initialValuesOf = (item: QueueIntegration | undefined): IntegrationValues => ({
  type: item?.type ?? 'typebot',
  name: item?.name ?? '',
  projectName: item?.projectName ?? '',
  jsonContent: '',
  language: item?.language || QUEUE_INTEGRATION_DEFAULTS.language,
  urlN8N: item?.urlN8N ?? '',
  typebotSlug: item?.typebotSlug ?? '',
  typebotExpires: String(item?.typebotExpires ?? QUEUE_INTEGRATION_DEFAULTS.typebotExpires),
  typebotDelayMessage: String(item?.typebotDelayMessage ?? QUEUE_INTEGRATION_DEFAULTS.typebotDelayMessage),
  typebotKeywordFinish: item?.typebotKeywordFinish ?? '',
  typebotKeywordRestart: item?.typebotKeywordRestart ?? '',
  typebotRestartMessage: item?.typebotRestartMessage ?? '',
  typebotUnknownMessage: item?.typebotUnknownMessage ?? '',
  authType: item?.authType ?? 'none',
  authUser: item?.authUser ?? '',
  authHeaderName: item?.authHeaderName ?? '',
  authSecret: '',
  webhookSync: item?.webhookSync ?? false,
  regenerateSigningSecret: false,
});

const isHook = (type: QueueIntegrationType) => type === 'n8n' || type === 'webhook';

/**
 * What the dialog sends: the name and the fields of its type only (another type's leftovers are not
 * saved); the write-only secrets only when typed, so an edit keeps the stored ones.
 */
export const payloadOf = (v: IntegrationValues, editing: boolean): Record<string, unknown> => {
  const payload: Record<string, unknown> = { type: v.type, name: v.name };
  if (v.type === 'dialogflow') {
    Object.assign(payload, { projectName: v.projectName, language: v.language });
    if (!editing || v.jsonContent.trim()) payload.jsonContent = v.jsonContent;
  }
  if (URL_TYPES.includes(v.type)) payload.urlN8N = v.urlN8N.trim();
  if (v.type === 'typebot') {
    Object.assign(payload, {
      typebotSlug: v.typebotSlug,
      typebotExpires: v.typebotExpires,
      typebotDelayMessage: v.typebotDelayMessage,
      typebotKeywordFinish: v.typebotKeywordFinish,
      typebotKeywordRestart: v.typebotKeywordRestart,
      typebotRestartMessage: v.typebotRestartMessage,
      typebotUnknownMessage: v.typebotUnknownMessage,
    });
  }
  if (isHook(v.type)) {
    Object.assign(payload, { authType: v.authType, authUser: v.authUser, authHeaderName: v.authHeaderName, webhookSync: v.webhookSync });
    if (v.authType !== 'none' && (!editing || v.authSecret)) payload.authSecret = v.authSecret;
    if (editing && v.regenerateSigningSecret) payload.regenerateSigningSecret = true;
  }
  return payload;
};

/** The "Test" button: tries what the form holds (a saved integration lends its stored secrets). */
function TestButton({ form, item }: { form: FormState<IntegrationValues>; item: QueueIntegration | undefined }) {
  const { t } = useTranslation('queue-integration');
  const styles = useStyles();
  const [state, setState] = useState<{ running: boolean; result?: QueueIntegrationTestResult; failure?: string }>({ running: false });
  const run = async () => {
    setState({ running: true });
    try {
      const { regenerateSigningSecret: _r, ...fields } = payloadOf(form.values, !!item);
      setState({ running: false, result: await queueIntegrationsApi.test({ ...fields, ...(item ? { id: item.id } : {}) }) });
    } catch (err) {
      setState({ running: false, failure: errorMessage(err) });
    }
  };
  const failed = state.failure ?? (state.result && !state.result.ok ? (state.result.error ?? '') : undefined);
  return (
    <div className={styles.test}>
      <Button
        type="button"
        icon={state.running ? <Spinner size="tiny" /> : <PlugConnected20Regular />}
        disabled={state.running || form.saving}
        onClick={() => void run()}
        data-testid="queue-integration-test"
      >
        {t('dialog.test')}
      </Button>
      {state.result?.ok ? (
        <MessageBar intent="success" data-testid="queue-integration-test-result" data-ok="true">
          <MessageBarBody>{t('dialog.testOk')}</MessageBarBody>
        </MessageBar>
      ) : failed !== undefined ? (
        <MessageBar intent="error" data-testid="queue-integration-test-result" data-ok="false">
          <MessageBarBody>{t('dialog.testFailed', { error: t(`errors.${failed}`, { ns: 'common', defaultValue: failed }) })}</MessageBarBody>
        </MessageBar>
      ) : null}
    </div>
  );
}

/**
 * Add or edit a queue integration (spec 02 section 5): the type, then its own fields — Dialogflow's
 * project, credentials and language; the URL of n8n, webhooks and Typebot; Typebot's slug, expiry, delay
 * and keywords; a webhook's authentication and synchronous mode. Credentials are write-only (left empty on
 * edit, the stored ones stay). A new webhook signing secret is shown once, by the page (`onSigningSecret`).
 */
export function QueueIntegrationDialog({
  item,
  onClose,
  onSigningSecret,
}: {
  item?: QueueIntegration;
  onClose: () => void;
  onSigningSecret: (secret: string) => void;
}) {
  const { t } = useTranslation('queue-integration');
  const styles = useStyles();
  const editing = !!item;
  return (
    <FormDialog<IntegrationValues, UpdateQueueIntegrationInput>
      title={editing ? t('dialog.editTitle') : t('dialog.addTitle')}
      schema={editing ? updateQueueIntegrationSchema : createQueueIntegrationSchema}
      initialValues={initialValuesOf(item)}
      width={640}
      toPayload={(v) => payloadOf(v, editing)}
      check={(v) => {
        // On edit the schema cannot know what is stored: the merged record's required fields are checked here.
        if (!editing) return {};
        const issues = integrationIssues({ ...v, hasJsonContent: v.jsonContent.trim() !== '' || (item.type === 'dialogflow' && item.hasJsonContent) });
        return Object.fromEntries(issues.map((issue) => [issue.path, t('validation.required', { ns: 'common' })]));
      }}
      testId="queue-integration-dialog"
      saveTestId="queue-integration-save"
      onClose={onClose}
      onSubmit={async (data) => {
        const saved = await saveRecord(queueIntegrationsApi, item?.id, data, { listKey: QUEUE_INTEGRATIONS_KEY, savedMessage: t('toasts.saved') });
        if (saved.signingSecret) onSigningSecret(saved.signingSecret);
      }}
    >
      {(form) => {
        const { type } = form.values;
        return (
          <>
            <div className={styles.typeRow}>
              <TypeLogo type={type} />
              <Field label={t('dialog.type')} required className={styles.grow} {...form.field('type')}>
                <Select data-testid="queue-integration-type" value={type} onChange={(_, d) => form.set('type', d.value as QueueIntegrationType)}>
                  {QUEUE_INTEGRATION_TYPES.map((value) => (
                    <option key={value} value={value}>
                      {t(`types.${value}`)}
                    </option>
                  ))}
                </Select>
              </Field>
            </div>
            <Field label={t('dialog.name')} required {...form.field('name')}>
              <Input maxLength={50} autoFocus data-testid="queue-integration-name" {...form.text('name')} />
            </Field>

            {type === 'dialogflow' ? (
              <>
                <Field label={t('dialog.projectName')} required {...form.field('projectName')}>
                  <Input data-testid="queue-integration-project" {...form.text('projectName')} />
                </Field>
                <Field
                  label={t('dialog.jsonContent')}
                  required={!item?.hasJsonContent}
                  hint={
                    item?.hasJsonContent
                      ? t('dialog.jsonContentKept', { email: item.serviceAccountEmail || '…', last4: item.jsonContentLast4 })
                      : t('dialog.jsonContentHint')
                  }
                  {...form.field('jsonContent')}
                >
                  <Textarea rows={6} resize="vertical" data-testid="queue-integration-json" {...form.text('jsonContent')} />
                </Field>
                <Field label={t('dialog.language')} {...form.field('language')}>
                  <Select data-testid="queue-integration-language" value={form.values.language} onChange={(_, d) => form.set('language', d.value)}>
                    {DIALOGFLOW_LANGUAGES.map((value) => (
                      <option key={value} value={value}>
                        {t(`languages.${value}`)}
                      </option>
                    ))}
                  </Select>
                </Field>
              </>
            ) : null}

            {URL_TYPES.includes(type) ? (
              <Field label={type === 'typebot' ? t('dialog.typebotUrl') : t('dialog.url')} required hint={type === 'typebot' ? t('dialog.typebotUrlHint') : undefined} {...form.field('urlN8N')}>
                <Input type="url" data-testid="queue-integration-url" placeholder="https://" {...form.text('urlN8N')} />
              </Field>
            ) : null}

            {type === 'typebot' ? (
              <>
                <Field label={t('dialog.typebotSlug')} required {...form.field('typebotSlug')}>
                  <Input data-testid="queue-integration-slug" {...form.text('typebotSlug')} />
                </Field>
                <div className={styles.pair}>
                  <Field label={t('dialog.typebotExpires')} hint={t('dialog.typebotExpiresHint')} {...form.field('typebotExpires')}>
                    <Input type="number" min={0} data-testid="queue-integration-expires" {...form.text('typebotExpires')} />
                  </Field>
                  <Field label={t('dialog.typebotDelayMessage')} {...form.field('typebotDelayMessage')}>
                    <Input type="number" min={0} data-testid="queue-integration-delay" {...form.text('typebotDelayMessage')} />
                  </Field>
                  <Field label={t('dialog.typebotKeywordFinish')} {...form.field('typebotKeywordFinish')}>
                    <Input data-testid="queue-integration-keyword-finish" {...form.text('typebotKeywordFinish')} />
                  </Field>
                  <Field label={t('dialog.typebotKeywordRestart')} {...form.field('typebotKeywordRestart')}>
                    <Input data-testid="queue-integration-keyword-restart" {...form.text('typebotKeywordRestart')} />
                  </Field>
                </div>
                <Field label={t('dialog.typebotUnknownMessage')} {...form.field('typebotUnknownMessage')}>
                  <Input data-testid="queue-integration-unknown" {...form.text('typebotUnknownMessage')} />
                </Field>
                <Field label={t('dialog.typebotRestartMessage')} {...form.field('typebotRestartMessage')}>
                  <Input data-testid="queue-integration-restart-message" {...form.text('typebotRestartMessage')} />
                </Field>
              </>
            ) : null}

            {isHook(type) ? (
              <>
                <Field label={t('dialog.authType')} {...form.field('authType')}>
                  <Select data-testid="queue-integration-auth" value={form.values.authType} onChange={(_, d) => form.set('authType', d.value as WebhookAuthType)}>
                    {WEBHOOK_AUTH_TYPES.map((value) => (
                      <option key={value} value={value}>
                        {t(`auth.${value}`)}
                      </option>
                    ))}
                  </Select>
                </Field>
                {form.values.authType === 'basic' ? (
                  <Field label={t('dialog.authUser')} {...form.field('authUser')}>
                    <Input data-testid="queue-integration-auth-user" autoComplete="off" {...form.text('authUser')} />
                  </Field>
                ) : null}
                {form.values.authType === 'header' ? (
                  <Field label={t('dialog.authHeaderName')} required {...form.field('authHeaderName')}>
                    <Input data-testid="queue-integration-auth-header" placeholder="X-Api-Key" {...form.text('authHeaderName')} />
                  </Field>
                ) : null}
                {form.values.authType !== 'none' ? (
                  <Field
                    label={form.values.authType === 'basic' ? t('dialog.authPassword') : t('dialog.authSecret')}
                    hint={item?.hasAuthSecret ? t('dialog.secretKept', { last4: item.authSecretLast4 }) : undefined}
                    {...form.field('authSecret')}
                  >
                    <SecretInput data-testid="queue-integration-auth-secret" autoComplete="off" {...form.text('authSecret')} />
                  </Field>
                ) : null}
                <Switch label={t('dialog.webhookSync')} data-testid="queue-integration-sync" {...form.check('webhookSync')} />
                {item?.hasSigningSecret ? (
                  <Checkbox
                    label={t('dialog.regenerateSigningSecret', { last4: item.signingSecretLast4 })}
                    data-testid="queue-integration-regenerate"
                    {...form.check('regenerateSigningSecret')}
                  />
                ) : (
                  <MessageBar intent="info">
                    <MessageBarBody>{t('dialog.signingSecretHint')}</MessageBarBody>
                  </MessageBar>
                )}
              </>
            ) : null}

            {type === 'flowbuilder' ? (
              <MessageBar intent="info">
                <MessageBarBody>{t('dialog.flowbuilderHint')}</MessageBarBody>
              </MessageBar>
            ) : (
              <TestButton form={form} item={item} />
            )}
          </>
        );
      }}
    </FormDialog>
  );
}
