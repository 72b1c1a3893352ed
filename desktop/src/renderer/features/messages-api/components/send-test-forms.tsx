import { useRef, useState } from 'react';
import {
  Badge,
  Button,
  Field,
  Input,
  Spinner,
  Switch,
  Tab,
  TabList,
  Text,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, AttachRegular, EyeOffRegular, EyeRegular, SendRegular } from '@fluentui/react-icons';
import {
  API_MEDIA_ACCEPT,
  API_MEDIA_MAX_BYTES,
  API_MEDIA_MAX_FILES,
  apiSendMediaFieldsSchema,
  apiSendTextSchema,
  type ApiSendResponse,
} from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/errors';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { messagesApi, type TestReply } from '../api/messages-api';
import { CodeBlock } from './openapi-view';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  keyRow: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'end', minWidth: 0, '& > :first-child': { flex: 1, minWidth: 0 } },
  files: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', minWidth: 0 },
  fileNames: { overflowWrap: 'anywhere', color: tokens.colorNeutralForeground3 },
  hiddenInput: { display: 'none' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
  result: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, minWidth: 0 },
  resultTitle: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
});

type Mode = 'text' | 'media';

const newKey = () => (globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`);

function ReplyView({ reply, title, testId }: { reply: TestReply; title: string; testId: string }) {
  const styles = useStyles();
  const { t } = useTranslation('messages-api');
  const ok = reply.status >= 200 && reply.status < 300;
  const error = !ok && reply.data && typeof reply.data === 'object' && 'error' in reply.data ? errorMessage(reply.data) : null;
  return (
    <div className={styles.result} data-testid={testId} data-status={reply.status}>
      <div className={styles.resultTitle}>
        <Text weight="semibold">{title}</Text>
        <Badge appearance="filled" color={ok ? 'success' : 'danger'}>
          {reply.status}
        </Badge>
      </div>
      {error ? <Text>{error}</Text> : null}
      {reply.headers['idempotent-replayed'] === 'true' ? <Text size={200}>{t('test.replayed')}</Text> : null}
      <CodeBlock code={JSON.stringify(reply.data, null, 2)} />
    </div>
  );
}

/**
 * The screen's test forms (spec 02: text and media): the real POST /api/messages/send with a connection
 * token typed here, the answer as it came, and the sent message's status on request.
 */
export function SendTestForms() {
  const styles = useStyles();
  const { t } = useTranslation('messages-api');
  const { t: tc } = useTranslation();
  const [mode, setMode] = useState<Mode>('text');
  const [token, setToken] = useState('');
  const [showToken, setShowToken] = useState(false);
  const [key, setKey] = useState('');
  const [values, setValues] = useState({ number: '', body: '', closeTicket: false });
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sending, setSending] = useState(false);
  const [reply, setReply] = useState<TestReply | null>(null);
  const [status, setStatus] = useState<{ id: number; reply: TestReply } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const set = <K extends keyof typeof values>(field: K, value: (typeof values)[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: '' }));
  };

  const submit = async () => {
    const result = mode === 'text' ? validate(apiSendTextSchema, values, tc) : validate(apiSendMediaFieldsSchema, values, tc);
    const fieldErrors: FieldErrors = { ...result.errors };
    if (!token.trim()) fieldErrors.token = t('test.tokenRequired');
    if (mode === 'media' && files.length === 0) fieldErrors.files = t('test.filesRequired');
    if (!result.ok || Object.values(fieldErrors).some(Boolean)) {
      setErrors(fieldErrors);
      return;
    }
    setSending(true);
    setStatus(null);
    try {
      const idempotencyKey = key.trim() || undefined;
      setReply(
        mode === 'text'
          ? await messagesApi.sendText(token, values, idempotencyKey)
          : await messagesApi.sendMedia(token, { ...values, files }, idempotencyKey),
      );
    } catch (err) {
      setReply({ status: 0, data: { error: errorMessage(err) }, headers: {} });
    } finally {
      setSending(false);
    }
  };

  const sentId = reply && reply.status === 200 ? (reply.data as ApiSendResponse).messageId : null;
  const checkStatus = async () => {
    if (!sentId) return;
    setStatus({ id: sentId, reply: await messagesApi.status(token, sentId) });
  };

  return (
    <section className={styles.root} data-testid="api-test" aria-labelledby="api-test-title">
      <Text as="h2" size={500} weight="semibold" id="api-test-title" style={{ margin: 0 }}>
        {t('test.title')}
      </Text>
      <Field label={t('test.token')} hint={t('test.tokenHint')} required validationMessage={errors.token || undefined}>
        <Input
          type={showToken ? 'text' : 'password'}
          value={token}
          autoComplete="off"
          data-testid="api-test-token"
          onChange={(_, d) => {
            setToken(d.value);
            setErrors((e) => ({ ...e, token: '' }));
          }}
          contentAfter={
            <Button
              appearance="transparent"
              size="small"
              icon={showToken ? <EyeOffRegular /> : <EyeRegular />}
              aria-label={showToken ? t('test.hideToken') : t('test.showToken')}
              onClick={() => setShowToken((s) => !s)}
            />
          }
        />
      </Field>
      <div className={styles.keyRow}>
        <Field label={t('test.idempotencyKey')}>
          <Input value={key} data-testid="api-test-key" onChange={(_, d) => setKey(d.value)} />
        </Field>
        <Button icon={<ArrowClockwiseRegular />} data-testid="api-test-new-key" onClick={() => setKey(newKey())}>
          {t('test.newKey')}
        </Button>
      </div>

      <TabList selectedValue={mode} onTabSelect={(_, d) => setMode(d.value as Mode)}>
        <Tab value="text" data-testid="api-test-tab-text">
          {t('test.textTab')}
        </Tab>
        <Tab value="media" data-testid="api-test-tab-media">
          {t('test.mediaTab')}
        </Tab>
      </TabList>

      <form
        className={styles.form}
        noValidate
        data-testid={`api-test-form-${mode}`}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field label={t('test.number')} hint={t('test.numberHint')} required validationMessage={errors.number || undefined}>
          <Input value={values.number} inputMode="tel" data-testid="api-test-number" onChange={(_, d) => set('number', d.value)} />
        </Field>
        <Field label={mode === 'text' ? t('test.body') : t('test.caption')} required={mode === 'text'} validationMessage={errors.body || undefined}>
          <Textarea resize="vertical" rows={3} value={values.body} data-testid="api-test-body" onChange={(_, d) => set('body', d.value)} />
        </Field>
        {mode === 'media' ? (
          <Field
            label={t('test.files')}
            hint={t('test.filesHint', { count: API_MEDIA_MAX_FILES, mb: API_MEDIA_MAX_BYTES / (1024 * 1024) })}
            required
            validationMessage={errors.files || undefined}
          >
            <div className={styles.files}>
              <input
                ref={fileInput}
                className={styles.hiddenInput}
                type="file"
                multiple
                accept={API_MEDIA_ACCEPT}
                data-testid="api-test-files"
                onChange={(e) => {
                  setFiles(Array.from(e.target.files ?? []));
                  setErrors((er) => ({ ...er, files: '' }));
                }}
              />
              <Button icon={<AttachRegular />} onClick={() => fileInput.current?.click()}>
                {t('test.chooseFiles')}
              </Button>
              <Text size={200} className={styles.fileNames} data-testid="api-test-file-names">
                {files.length > 0 ? files.map((f) => f.name).join(', ') : t('test.noFiles')}
              </Text>
            </div>
          </Field>
        ) : null}
        <Switch checked={values.closeTicket} label={t('test.closeTicket')} data-testid="api-test-close" onChange={(_, d) => set('closeTicket', d.checked)} />
        <div className={styles.actions}>
          <Button
            type="submit"
            appearance="primary"
            icon={sending ? <Spinner size="tiny" /> : <SendRegular />}
            disabled={sending}
            data-testid="api-test-send"
          >
            {sending ? t('test.sending') : t('test.send')}
          </Button>
          {sentId ? (
            <Button data-testid="api-test-status" onClick={() => void checkStatus()}>
              {t('test.checkStatus')}
            </Button>
          ) : null}
        </div>
      </form>

      {reply ? <ReplyView reply={reply} title={t('test.result')} testId="api-test-reply" /> : null}
      {status ? <ReplyView reply={status.reply} title={t('test.status', { id: status.id })} testId="api-test-status-reply" /> : null}
    </section>
  );
}
