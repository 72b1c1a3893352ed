import { useState } from 'react';
import { Field, Input, Select, Switch, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import {
  ANNOUNCEMENT_MEDIA_EXTENSIONS,
  ANNOUNCEMENT_PRIORITIES,
  createAnnouncementSchema,
  updateAnnouncementSchema,
  type UpdateAnnouncementInput,
} from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../../api/query';
import { AttachmentField } from '../../../components/form/attachment-field';
import { FormDialog } from '../../../components/list-kit';
import { toast } from '../../../components/toasts';
import { ANNOUNCEMENTS_KEY, announcementsApi, type Announcement } from '../api/announcements';
import { MEDIA_MAX_MB, isAcceptedImage, priorityKey } from '../hooks/announcement-rules';

const useStyles = makeStyles({
  row: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))', gap: tokens.spacingHorizontalM, alignItems: 'end' },
});

type AnnouncementValues = { title: string; text: string; priority: string; status: boolean };

/** Add or edit an announcement: title and text required, priority (default 3), status (default active), an image. */
export function AnnouncementModal({ announcement, onClose }: { announcement?: Announcement; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('announcements');
  const [file, setFile] = useState<File | null>(null);
  /** The stored image is to be removed on save. */
  const [dropMedia, setDropMedia] = useState(false);
  /** Created by an earlier attempt whose image upload failed: saving again updates it. */
  const [created, setCreated] = useState<Announcement | null>(null);
  const target = announcement ?? created;

  const currentMedia = file?.name ?? (dropMedia ? null : (announcement?.mediaName ?? null));

  const pick = (picked: File) => {
    if (!isAcceptedImage(picked)) {
      toast.error(t('invalidFile', { max: MEDIA_MAX_MB }));
      return;
    }
    setFile(picked);
  };

  return (
    <FormDialog<AnnouncementValues, UpdateAnnouncementInput>
      title={announcement ? t('modal.editTitle') : t('modal.addTitle')}
      schema={target ? updateAnnouncementSchema : createAnnouncementSchema}
      initialValues={{
        title: announcement?.title ?? '',
        text: announcement?.text ?? '',
        priority: String(announcement?.priority ?? 3),
        status: announcement?.status ?? true,
      }}
      toPayload={(values) => ({ ...values, priority: Number(values.priority) })}
      testId="announcement-modal"
      saveTestId="announcement-save"
      width={600}
      onClose={onClose}
      onSubmit={async (data) => {
        const saved = target
          ? await announcementsApi.update(target.id, data)
          : await announcementsApi.create(data as Parameters<typeof announcementsApi.create>[0]);
        if (!target) setCreated(saved);
        try {
          if (file) await announcementsApi.uploadMedia(saved.id, file);
          else if (dropMedia && saved.mediaPath) await announcementsApi.removeMedia(saved.id);
        } finally {
          // The announcement itself is saved even when its image is refused: the lists show it either way.
          void queryClient.invalidateQueries({ queryKey: ANNOUNCEMENTS_KEY });
        }
        toast.success(t('toasts.saved'));
      }}
    >
      {(form) => (
        <>
          <Field label={t('fields.title')} required {...form.field('title')}>
            <Input maxLength={200} autoFocus data-testid="announcement-title" {...form.text('title')} />
          </Field>
          <Field label={t('fields.text')} required {...form.field('text')}>
            <Textarea rows={5} resize="vertical" data-testid="announcement-text" {...form.text('text')} />
          </Field>
          <div className={styles.row}>
            <Field label={t('fields.priority')} {...form.field('priority')}>
              <Select value={form.values.priority} data-testid="announcement-priority" onChange={(_, d) => form.set('priority', d.value)}>
                {ANNOUNCEMENT_PRIORITIES.map((p) => (
                  <option key={p} value={String(p)}>
                    {t(`priorities.${priorityKey(p)}`)}
                  </option>
                ))}
              </Select>
            </Field>
            <Field {...form.field('status')}>
              <Switch
                data-testid="announcement-status"
                label={form.values.status ? t('status.active') : t('status.inactive')}
                {...form.check('status')}
              />
            </Field>
          </div>
          <AttachmentField
            label={t('fields.attachment')}
            attachLabel={t('fields.attach')}
            removeLabel={t('fields.removeAttachment')}
            accept={[...ANNOUNCEMENT_MEDIA_EXTENSIONS, 'image/png', 'image/jpeg'].join(',')}
            fileName={currentMedia}
            onPick={pick}
            onRemove={() => {
              setFile(null);
              setDropMedia(true);
            }}
            testIdPrefix="announcement"
          />
        </>
      )}
    </FormDialog>
  );
}
