import { useRef, useState } from 'react';
import { Button, Link, MessageBar, MessageBarBody, ProgressBar, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowSync20Regular, ArrowUpload20Regular } from '@fluentui/react-icons';
import { CONTACT_LIST_IMPORT_ACCEPT, CONTACT_LIST_IMPORT_EXTENSIONS, type ContactListImportView } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../../api/errors';
import { toast } from '../../../components/toasts';
import { contactListsApi, type ContactList, type ContactListImport } from '../api/contact-lists';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, marginBlock: tokens.spacingVerticalS },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  hint: { color: tokens.colorNeutralForeground3 },
});

/** The import and check buttons of a list's page (header). */
export function ImportButtons({ list, onStarted }: { list: ContactList | undefined; onStarted: (started: ContactListImport) => void }) {
  const { t } = useTranslation('contact-lists');
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState<number | null>(null);
  const running = list?.lastImport && (list.lastImport.status === 'pending' || list.lastImport.status === 'running');

  const pick = async (file: File | undefined) => {
    if (!file || !list) return;
    if (!CONTACT_LIST_IMPORT_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext))) {
      toast.error(t('import.wrongType'));
      return;
    }
    setUploading(0);
    try {
      onStarted(await contactListsApi.upload(list.id, file, setUploading));
    } catch (err) {
      toastError(err);
    } finally {
      setUploading(null);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        hidden
        disabled={!list || uploading !== null}
        accept={CONTACT_LIST_IMPORT_ACCEPT}
        data-testid="contact-list-import-input"
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      <Button
        icon={<ArrowUpload20Regular />}
        disabled={!list || uploading !== null || !!running}
        data-testid="contact-list-import"
        onClick={() => input.current?.click()}
      >
        {uploading !== null ? t('import.uploading') : t('import.button')}
      </Button>
      <Button
        icon={<ArrowSync20Regular />}
        disabled={!list || list.contactsCount === 0}
        data-testid="contact-list-check"
        onClick={() =>
          list &&
          contactListsApi
            .check(list.id, true)
            .then(() => toast.success(t('check.started')))
            .catch(toastError)
        }
      >
        {t('check.button')}
      </Button>
    </>
  );
}

const reasonOf = (t: (key: string) => string, code: string | null) =>
  code === 'ERR_SPREADSHEET_UNREADABLE' || code === 'ERR_PAYLOAD_TOO_LARGE' ? t(`import.reasons.${code}`) : t('import.reasons.other');

/** Where the list's import and WhatsApp check stand: a progress bar while they run, the outcome after. */
export function ImportPanel({ list, current }: { list: ContactList | undefined; current: ContactListImportView | null }) {
  const styles = useStyles();
  const { t } = useTranslation('contact-lists');
  if (!list) return null;
  const job = current ?? list.lastImport;
  return (
    <div className={styles.root} data-testid="contact-list-import-panel">
      <Text size={200} className={styles.hint}>
        {t('import.hint')}
      </Text>
      {job && (job.status === 'pending' || job.status === 'running') ? (
        <div data-testid="contact-list-import-progress">
          <Text size={300}>{job.status === 'pending' ? t('import.pending') : t('import.running', { processed: job.processed, total: job.total })}</Text>
          <ProgressBar value={job.total > 0 ? job.processed / job.total : undefined} thickness="large" />
        </div>
      ) : null}
      {job?.status === 'done' ? (
        <MessageBar layout="multiline" intent={job.invalid > 0 ? 'warning' : 'success'} data-testid="contact-list-import-done">
          <MessageBarBody>
            {t('import.done', { fileName: job.fileName, created: job.created, duplicates: job.duplicates, invalid: job.invalid })}{' '}
            {job.invalid > 0 ? (
              <Link as="button" data-testid="contact-list-import-invalid" onClick={() => contactListsApi.downloadInvalid(list.id, job.id).catch(toastError)}>
                {t('import.invalidReport')}
              </Link>
            ) : null}
          </MessageBarBody>
        </MessageBar>
      ) : null}
      {job?.status === 'failed' ? (
        <MessageBar layout="multiline" intent="error" data-testid="contact-list-import-failed">
          <MessageBarBody>{t('import.failed', { fileName: job.fileName, reason: reasonOf(t, job.error) })}</MessageBarBody>
        </MessageBar>
      ) : null}
      {list.checkState === 'checking' && list.uncheckedCount > 0 ? (
        <div className={styles.row} data-testid="contact-list-checking">
          <Text size={300}>{t('check.checking', { unchecked: list.uncheckedCount })}</Text>
          <ProgressBar value={list.contactsCount ? 1 - list.uncheckedCount / list.contactsCount : undefined} />
        </div>
      ) : null}
      {list.checkState === 'noConnection' && list.uncheckedCount > 0 ? (
        <MessageBar layout="multiline" intent="info" data-testid="contact-list-no-connection">
          <MessageBarBody>{t('check.noConnection', { unchecked: list.uncheckedCount })}</MessageBarBody>
        </MessageBar>
      ) : null}
    </div>
  );
}
