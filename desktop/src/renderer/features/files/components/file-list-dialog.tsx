import { useRef, useState } from 'react';
import { Button, Field, Input, ProgressBar, Text, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Attach20Regular, Delete20Regular, Dismiss16Regular } from '@fluentui/react-icons';
import {
  FILE_LIST_ACCEPT,
  FILE_LIST_MAX_OPTIONS,
  FILE_LIST_MEDIA_MAX_BYTES,
  FILE_LIST_MEDIA_TYPES,
  fileListFormSchema,
  type CreateFileListInput,
} from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../../api/query';
import { FormDialog, type FormState } from '../../../components/list-kit';
import { toast } from '../../../components/toasts';
import { FILES_KEY, acceptsFile, filesApi, type FileList } from '../api/files';

const useStyles = makeStyles({
  options: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  option: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  optionName: { flex: '1 1 180px', minWidth: 0 },
  file: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, minWidth: 0, flex: '1 1 200px' },
  fileName: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  header: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalS },
  error: { color: tokens.colorPaletteRedForeground1 },
});

const MAX_MB = FILE_LIST_MEDIA_MAX_BYTES / (1024 * 1024);

/** An option as the dialog edits it: the stored one (if any), its name, and a file picked or dropped. */
interface OptionDraft {
  key: string;
  id?: number;
  name: string;
  /** The stored file's display name. */
  mediaName: string | null;
  file: File | null;
  dropFile: boolean;
}

type Values = { name: string; message: string; options: OptionDraft[] };

let draftSeq = 0;
const draftOf = (o?: FileList['options'][number]): OptionDraft => ({
  key: `o${++draftSeq}`,
  id: o?.id,
  name: o?.name ?? '',
  mediaName: o?.mediaName ?? null,
  file: null,
  dropFile: false,
});

export interface FileListDialogProps {
  fileList?: FileList;
  onClose: () => void;
}

/** Add or edit a file list (spec 02 "File list"): name, message, and options each with an optional file; upload progress. */
export function FileListDialog({ fileList, onClose }: FileListDialogProps) {
  const { t } = useTranslation('files');
  const [progress, setProgress] = useState<number | null>(null);
  /** Saved by an earlier attempt whose upload failed: saving again updates it. */
  const [saved, setSaved] = useState<FileList | null>(null);
  const target = fileList ?? saved;

  return (
    <FormDialog<Values, CreateFileListInput>
      title={fileList ? t('dialog.editTitle') : t('dialog.addTitle')}
      schema={fileListFormSchema}
      initialValues={{ name: fileList?.name ?? '', message: fileList?.message ?? '', options: (fileList?.options ?? []).map(draftOf) }}
      toPayload={({ name, message, options }) => ({ name, message, options: options.map((o) => ({ ...(o.id ? { id: o.id } : {}), name: o.name })) })}
      messages={{ options: { required: t('dialog.optionNameRequired'), tooShort: t('dialog.optionNameRequired'), invalid: t('dialog.optionNameRequired') } }}
      width={640}
      testId="file-list-dialog"
      saveTestId="file-list-save"
      cancelTestId="file-list-cancel"
      onClose={onClose}
      onSubmit={async (data, values) => {
        const payload = {
          ...data,
          // An option whose file was removed (and not replaced) goes with an empty path: the server drops the file.
          options: data.options.map((o, i) => (values.options[i].dropFile && !values.options[i].file ? { ...o, path: '' } : o)),
        };
        const list = target ? await filesApi.update(target.id, payload) : await filesApi.create(payload);
        setSaved(list);
        // The server answers the options in the order sent.
        const uploads = values.options.flatMap((o, i) => (o.file && list.options[i] ? [{ optionId: list.options[i].id, file: o.file }] : []));
        try {
          if (uploads.length > 0) {
            setProgress(0);
            await filesApi.upload(list.id, uploads, setProgress);
          }
        } finally {
          setProgress(null);
          void queryClient.invalidateQueries({ queryKey: FILES_KEY });
        }
        toast.success(t('toasts.saved'));
      }}
    >
      {(form) => <FileListFields form={form} progress={progress} />}
    </FormDialog>
  );
}

function FileListFields({ form, progress }: { form: FormState<Values>; progress: number | null }) {
  const styles = useStyles();
  const { t } = useTranslation('files');
  const fileInputs = useRef(new Map<string, HTMLInputElement>());
  const options = form.values.options;
  const setOptions = (next: OptionDraft[]) => form.set('options', next);
  const change = (key: string, patch: Partial<OptionDraft>) => setOptions(options.map((o) => (o.key === key ? { ...o, ...patch } : o)));

  const pick = (key: string, picked: File | undefined) => {
    if (!picked) return;
    if (picked.size > FILE_LIST_MEDIA_MAX_BYTES || !acceptsFile(picked, FILE_LIST_MEDIA_TYPES)) {
      toast.error(t('invalidFile', { max: MAX_MB }));
      return;
    }
    change(key, { file: picked, dropFile: false });
  };

  return (
    <>
      <Field label={t('dialog.name')} required {...form.field('name')}>
        <Input maxLength={100} autoFocus data-testid="file-list-name" {...form.text('name')} />
      </Field>
      <Field label={t('dialog.message')} required {...form.field('message')}>
        <Textarea rows={4} resize="vertical" data-testid="file-list-message" {...form.text('message')} />
      </Field>
      <div className={styles.header}>
        <Text weight="semibold">{t('dialog.options')}</Text>
        <Button
          icon={<Add20Regular />}
          size="small"
          disabled={options.length >= FILE_LIST_MAX_OPTIONS || form.saving}
          data-testid="file-list-add-option"
          onClick={() => setOptions([...options, draftOf()])}
        >
          {t('dialog.addOption')}
        </Button>
      </div>
      {form.errors.options ? (
        <Text role="alert" className={styles.error}>
          {form.errors.options}
        </Text>
      ) : null}
      <div className={styles.options}>
        {options.length === 0 ? <Text className={styles.muted}>{t('dialog.noOptions')}</Text> : null}
        {options.map((o, i) => {
          const shown = o.file?.name ?? (o.dropFile ? null : o.mediaName);
          return (
            <div key={o.key} className={styles.option} data-testid={`file-option-${i}`}>
              <Input
                className={styles.optionName}
                value={o.name}
                maxLength={200}
                placeholder={t('dialog.optionName')}
                aria-label={t('dialog.optionName')}
                data-testid={`file-option-name-${i}`}
                onChange={(_, d) => change(o.key, { name: d.value })}
              />
              <div className={styles.file}>
                <input
                  ref={(el) => {
                    if (el) fileInputs.current.set(o.key, el);
                    else fileInputs.current.delete(o.key);
                  }}
                  type="file"
                  hidden
                  accept={FILE_LIST_ACCEPT}
                  data-testid={`file-option-file-${i}`}
                  onChange={(e) => {
                    pick(o.key, e.target.files?.[0]);
                    e.target.value = '';
                  }}
                />
                <Button size="small" icon={<Attach20Regular />} onClick={() => fileInputs.current.get(o.key)?.click()}>
                  {shown ? t('dialog.replaceFile') : t('dialog.chooseFile')}
                </Button>
                {shown ? (
                  <>
                    <Text className={styles.fileName} title={shown} data-testid={`file-option-media-${i}`}>
                      {shown}
                    </Text>
                    <Button
                      size="small"
                      appearance="subtle"
                      icon={<Dismiss16Regular />}
                      aria-label={t('dialog.removeFile')}
                      data-testid={`file-option-remove-file-${i}`}
                      onClick={() => change(o.key, { file: null, dropFile: true })}
                    />
                  </>
                ) : (
                  <Text className={styles.muted}>{t('dialog.noFile')}</Text>
                )}
              </div>
              <Button
                size="small"
                appearance="subtle"
                icon={<Delete20Regular />}
                aria-label={t('dialog.removeOption')}
                data-testid={`file-option-remove-${i}`}
                onClick={() => setOptions(options.filter((x) => x.key !== o.key))}
              />
            </div>
          );
        })}
      </div>
      {progress !== null ? (
        <Field label={t('dialog.uploading', { percent: Math.round(progress * 100) })} data-testid="file-list-progress">
          <ProgressBar value={progress} max={1} thickness="large" />
        </Field>
      ) : null}
    </>
  );
}
