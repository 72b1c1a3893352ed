import { useRef, useState } from 'react';
import {
  Button,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Select,
  Switch,
  Text,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Attach20Regular, Dismiss16Regular } from '@fluentui/react-icons';
import {
  ANNOUNCEMENT_MEDIA_EXTENSIONS,
  ANNOUNCEMENT_PRIORITIES,
  createAnnouncementSchema,
  updateAnnouncementSchema,
} from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../../api/query';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toast } from '../../../components/toasts';
import { useSaving } from '../../../hooks/use-saving';
import { ANNOUNCEMENTS_KEY, announcementsApi, type Announcement } from '../api/announcements';
import { MEDIA_MAX_MB, isAcceptedImage, priorityKey } from '../hooks/announcement-rules';
import { SaveActions } from '../../../components/form/save-actions';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))', gap: tokens.spacingHorizontalM, alignItems: 'end' },
  file: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  fileName: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '260px' },
});

/** Add or edit an announcement: title and text required, priority (default 3), status (default active), an image. */
export function AnnouncementModal({ announcement, onClose }: { announcement?: Announcement; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('announcements');
  const { t: tc } = useTranslation();
  const [title, setTitle] = useState(announcement?.title ?? '');
  const [text, setText] = useState(announcement?.text ?? '');
  const [priority, setPriority] = useState(String(announcement?.priority ?? 3));
  const [status, setStatus] = useState(announcement?.status ?? true);
  const [file, setFile] = useState<File | null>(null);
  /** The stored image is to be removed on save. */
  const [dropMedia, setDropMedia] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const { saving, run } = useSaving();
  /** Created by an earlier attempt whose image upload failed: saving again updates it. */
  const [created, setCreated] = useState<Announcement | null>(null);
  const target = announcement ?? created;

  const currentMedia = file?.name ?? (dropMedia ? null : (announcement?.mediaName ?? null));

  const pick = (picked: File | undefined) => {
    if (!picked) return;
    if (!isAcceptedImage(picked)) {
      toast.error(t('invalidFile', { max: MEDIA_MAX_MB }));
      return;
    }
    setFile(picked);
  };

  const submit = async () => {
    const values = { title, text, priority: Number(priority), status };
    const result = target ? validate(updateAnnouncementSchema, values, tc) : validate(createAnnouncementSchema, values, tc);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    await run(async () => {
      const saved = target
        ? await announcementsApi.update(target.id, result.data)
        : await announcementsApi.create(result.data as Parameters<typeof announcementsApi.create>[0]);
      if (!target) setCreated(saved);
      try {
        if (file) await announcementsApi.uploadMedia(saved.id, file);
        else if (dropMedia && saved.mediaPath) await announcementsApi.removeMedia(saved.id);
      } finally {
        // The announcement itself is saved even when its image is refused: the lists show it either way.
        void queryClient.invalidateQueries({ queryKey: ANNOUNCEMENTS_KEY });
      }
      toast.success(t('toasts.saved'));
      onClose();
    });
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface data-testid="announcement-modal">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{announcement ? t('modal.editTitle') : t('modal.addTitle')}</DialogTitle>
            <DialogContent className={styles.content}>
              <Field label={t('fields.title')} required validationMessage={errors.title}>
                <Input value={title} maxLength={200} autoFocus data-testid="announcement-title" onChange={(_, d) => setTitle(d.value)} />
              </Field>
              <Field label={t('fields.text')} required validationMessage={errors.text}>
                <Textarea value={text} rows={5} resize="vertical" data-testid="announcement-text" onChange={(_, d) => setText(d.value)} />
              </Field>
              <div className={styles.row}>
                <Field label={t('fields.priority')} validationMessage={errors.priority}>
                  <Select value={priority} data-testid="announcement-priority" onChange={(_, d) => setPriority(d.value)}>
                    {ANNOUNCEMENT_PRIORITIES.map((p) => (
                      <option key={p} value={String(p)}>
                        {t(`priorities.${priorityKey(p)}`)}
                      </option>
                    ))}
                  </Select>
                </Field>
                <Field validationMessage={errors.status}>
                  <Switch
                    checked={status}
                    data-testid="announcement-status"
                    label={status ? t('status.active') : t('status.inactive')}
                    onChange={(_, d) => setStatus(d.checked)}
                  />
                </Field>
              </div>
              <Field label={t('fields.attachment')}>
                <div className={styles.file}>
                  <input
                    ref={fileInput}
                    type="file"
                    hidden
                    accept={[...ANNOUNCEMENT_MEDIA_EXTENSIONS, 'image/png', 'image/jpeg'].join(',')}
                    data-testid="announcement-file"
                    onChange={(e) => {
                      pick(e.target.files?.[0]);
                      e.target.value = '';
                    }}
                  />
                  <Button icon={<Attach20Regular />} onClick={() => fileInput.current?.click()}>
                    {t('fields.attach')}
                  </Button>
                  {currentMedia ? (
                    <>
                      <Text className={styles.fileName} data-testid="announcement-media-name">
                        {currentMedia}
                      </Text>
                      <Button
                        size="small"
                        appearance="subtle"
                        icon={<Dismiss16Regular />}
                        aria-label={t('fields.removeAttachment')}
                        onClick={() => {
                          setFile(null);
                          setDropMedia(true);
                        }}
                      />
                    </>
                  ) : null}
                </div>
              </Field>
            </DialogContent>
            <SaveActions saving={saving} onCancel={onClose} saveTestId="announcement-save" />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
