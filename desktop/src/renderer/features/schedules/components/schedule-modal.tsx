import { useEffect, useRef, useState } from 'react';
import {
  Button,
  Combobox,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Link,
  MessageBar,
  MessageBarBody,
  Option,
  Text,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Attach20Regular, Delete20Regular } from '@fluentui/react-icons';
import { createScheduleSchema } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient, useQuery } from '../../../api/query';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toast } from '../../../components/toasts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { useSaving } from '../../../hooks/use-saving';
import { formatDateTime } from '../../../i18n/format';
import { useIsAdmin } from '../../../stores/auth-store';
import { SCHEDULES_KEY, mediaHref, schedulesApi, type Schedule, type ScheduleContact } from '../api/schedules';
import { defaultSendAt, fromLocalInput, isAttachable, isSent, toLocalInput } from '../lib/rules';
import { SaveActions } from '../../../components/form/save-actions';
import { DateTimeInput } from '../../../components/form/date-time-inputs';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  media: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

export interface ScheduleModalProps {
  /** The schedule to edit (or view); a new one when absent. */
  schedule?: Schedule;
  /** A new schedule for this contact (the `?contactId=` of /schedules). */
  contactId?: number;
  onClose: () => void;
}

/**
 * Add or edit a scheduled message: body (5+ characters), contact autocomplete, sendAt (default now + 1 h),
 * an optional .png/.jpg/.jpeg picture. Once sent it is shown without a save button; ERRO shows as a send
 * error. Changing an existing one is for admins (the server's rule), so agents see it read-only.
 */
export function ScheduleModal({ schedule, contactId, onClose }: ScheduleModalProps) {
  const styles = useStyles();
  const { t } = useTranslation('schedules');
  const { t: tc } = useTranslation();
  const isAdmin = useIsAdmin();
  const sent = isSent(schedule);
  const readOnly = sent || (schedule !== undefined && !isAdmin);
  const [body, setBody] = useState(schedule?.body ?? '');
  const [contact, setContact] = useState<ScheduleContact | null>(schedule?.contact ?? null);
  const [term, setTerm] = useState(schedule?.contact?.name ?? '');
  const [sendAt, setSendAt] = useState(() => toLocalInput(schedule ? new Date(schedule.sendAt) : defaultSendAt()));
  const [file, setFile] = useState<File | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();
  const fileInput = useRef<HTMLInputElement>(null);

  // Prefilled from the conversation view's "schedule" action.
  const prefill = useQuery(['schedule-contact', contactId ?? null], () => schedulesApi.contact(contactId!), {
    enabled: contactId !== undefined && !schedule,
  });
  const prefilled = prefill.data;
  useEffect(() => {
    if (!prefilled) return;
    // Unless the user already picked or typed someone else.
    setContact((current) => current ?? prefilled);
    setTerm((current) => current || prefilled.name);
  }, [prefilled]);

  const search = useDebouncedValue(term.trim());
  const searching = !readOnly && !(contact && term === contact.name);
  const contacts = useQuery(['schedule-contacts', search], () => schedulesApi.searchContacts(search), {
    enabled: searching,
    staleTime: 30_000,
  });

  const existingMedia = schedule?.mediaName && !dropMedia ? schedule : null;

  const onFile = (chosen: File | undefined) => {
    if (!chosen) return;
    if (!isAttachable(chosen)) {
      setErrors((e) => ({ ...e, media: t('validation.onlyPictures') }));
      return;
    }
    setErrors(({ media: _media, ...rest }) => rest);
    setFile(chosen);
  };

  const submit = async () => {
    const values = { body, contactId: contact?.id, sendAt: fromLocalInput(sendAt) ?? '' };
    const result = validate(createScheduleSchema, values, tc);
    if (!result.ok) {
      const next = { ...result.errors };
      // The product's own words for a short message (spec 01 section 5).
      if (next.body && body.trim()) next.body = t('validation.bodyTooShort');
      setErrors(next);
      return;
    }
    setErrors({});
    await run(async () => {
      const saved = schedule ? await schedulesApi.update(schedule.id, result.data) : await schedulesApi.create(result.data);
      if (file) await schedulesApi.uploadMedia(saved.id, file);
      void queryClient.invalidateQueries({ queryKey: SCHEDULES_KEY });
      toast.success(t('toasts.saved'));
      onClose();
    });
  };

  /** The stored attachment goes at once (spec 01 section 8: "schedule media deleted"). */
  const removeMedia = () =>
    run(async () => {
      if (!schedule) return;
      await schedulesApi.removeMedia(schedule.id);
      setDropMedia(true);
      void queryClient.invalidateQueries({ queryKey: SCHEDULES_KEY });
      toast.success(t('toasts.mediaDeleted'));
    });

  const title = !schedule ? t('modal.addTitle') : readOnly ? t('modal.viewTitle') : t('modal.editTitle');
  const reason = schedule?.error ? tc(`errors.${schedule.error}`, { defaultValue: schedule.error }) : t('status.ERRO');

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface data-testid="schedule-modal">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!readOnly) void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={styles.content}>
              {schedule?.status === 'ERRO' ? (
                <MessageBar intent="error" data-testid="schedule-send-error">
                  <MessageBarBody>
                    {t('modal.sendError', { reason })} {readOnly ? null : t('modal.sendErrorRetry')}
                  </MessageBarBody>
                </MessageBar>
              ) : null}
              {sent ? (
                <MessageBar intent="success" data-testid="schedule-sent-notice">
                  <MessageBarBody>{t('modal.sentAt', { date: formatDateTime(schedule?.sentAt) })}</MessageBarBody>
                </MessageBar>
              ) : schedule && !isAdmin ? (
                <MessageBar intent="info">
                  <MessageBarBody>{t('modal.adminOnly')}</MessageBarBody>
                </MessageBar>
              ) : null}
              <Field
                label={t('modal.body')}
                required
                validationMessage={errors.body}
                hint={t('modal.bodyHint', { variables: '{{name}}, {{firstName}}, {{ms}}, {{protocol}}, {{date}}, {{hora}}' })}
              >
                <Textarea
                  value={body}
                  rows={5}
                  resize="vertical"
                  disabled={readOnly}
                  data-testid="schedule-body"
                  onChange={(_, d) => setBody(d.value)}
                />
              </Field>
              <Field label={t('modal.contact')} required validationMessage={errors.contactId}>
                <Combobox
                  freeform
                  disabled={readOnly}
                  placeholder={t('modal.contactPlaceholder')}
                  value={term}
                  data-testid="schedule-contact"
                  onChange={(e) => {
                    setTerm(e.target.value);
                    setContact(null);
                  }}
                  onOptionSelect={(_, d) => {
                    const found = (contacts.data ?? []).find((c) => String(c.id) === d.optionValue);
                    if (found) {
                      setContact(found);
                      setTerm(found.name);
                    }
                  }}
                >
                  {searching
                    ? (contacts.data ?? []).map((c) => (
                        <Option key={c.id} value={String(c.id)} text={c.name}>
                          {c.number ? `${c.name} (${c.number})` : c.name}
                        </Option>
                      ))
                    : null}
                </Combobox>
              </Field>
              <Field label={t('modal.sendAt')} required validationMessage={errors.sendAt}>
                <DateTimeInput label={t('modal.sendAt')} value={sendAt} disabled={readOnly} testId="schedule-send-at" onChange={setSendAt} />
              </Field>
              <Field label={t('modal.attachment')} validationMessage={errors.media}>
                <div className={styles.media}>
                  <input
                    ref={fileInput}
                    type="file"
                    accept=".png,.jpg,.jpeg,image/png,image/jpeg"
                    hidden
                    data-testid="schedule-file-input"
                    onChange={(e) => {
                      onFile(e.target.files?.[0]);
                      e.target.value = '';
                    }}
                  />
                  {file ? (
                    <Text data-testid="schedule-file-name">{file.name}</Text>
                  ) : existingMedia ? (
                    <Link href={mediaHref(existingMedia.mediaUrl) ?? undefined} target="_blank" data-testid="schedule-file-name">
                      {existingMedia.mediaName}
                    </Link>
                  ) : null}
                  {!readOnly && (file || existingMedia) ? (
                    <Button
                      appearance="subtle"
                      icon={<Delete20Regular />}
                      aria-label={t('modal.removeFile')}
                      data-testid="schedule-remove-media"
                      onClick={() => (file ? setFile(null) : void removeMedia())}
                    />
                  ) : null}
                  {!readOnly ? (
                    <Button icon={<Attach20Regular />} data-testid="schedule-choose-file" onClick={() => fileInput.current?.click()}>
                      {t('modal.chooseFile')}
                    </Button>
                  ) : null}
                </div>
              </Field>
            </DialogContent>
            <SaveActions saving={saving} onCancel={onClose} cancelLabel={readOnly ? tc('actions.close') : undefined} saveTestId="schedule-save" readOnly={readOnly} />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
