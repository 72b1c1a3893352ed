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
  Switch,
  Text,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Attach20Regular, Dismiss16Regular } from '@fluentui/react-icons';
import {
  QUICK_MESSAGE_MEDIA_MAX_BYTES,
  QUICK_MESSAGE_MEDIA_TYPES,
  createQuickMessageSchema,
  updateQuickMessageSchema,
} from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../../api/query';
import { SaveActions } from '../../../components/form/save-actions';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toast } from '../../../components/toasts';
import { useSaving } from '../../../hooks/use-saving';
import { QUICK_MESSAGES_KEY, acceptsMedia, quickMessagesApi, type QuickMessage } from '../api/quick-messages';

const useStyles = makeStyles({
  surface: { maxWidth: '560px', width: '100%' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  file: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', minWidth: 0 },
  fileName: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '260px' },
});

const MEDIA_MAX_MB = QUICK_MESSAGE_MEDIA_MAX_BYTES / (1024 * 1024);
const VARIABLES = ['{{firstName}}', '{{name}}', '{{ms}}', '{{protocol}}', '{{date}}', '{{hora}}'].join(', ');

export interface QuickMessageModalProps {
  quickMessage?: QuickMessage;
  /** Sharing with the company is for admins (the server refuses it to others). */
  canShare: boolean;
  onClose: () => void;
}

/** Add or edit a quick message: shortcode, text, shared (admins) and one attachment. */
export function QuickMessageModal({ quickMessage, canShare, onClose }: QuickMessageModalProps) {
  const styles = useStyles();
  const { t } = useTranslation('quick-messages');
  const { t: tc } = useTranslation();
  const [shortcode, setShortcode] = useState(quickMessage?.shortcode ?? '');
  const [message, setMessage] = useState(quickMessage?.message ?? '');
  const [geral, setGeral] = useState(quickMessage?.geral ?? false);
  const [file, setFile] = useState<File | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const { saving, run } = useSaving();
  /** Created by an earlier attempt whose upload failed: saving again updates it. */
  const [created, setCreated] = useState<QuickMessage | null>(null);
  const target = quickMessage ?? created;
  const currentMedia = file?.name ?? (dropMedia ? null : (quickMessage?.mediaName ?? null));

  const pick = (picked: File | undefined) => {
    if (!picked) return;
    if (picked.size > QUICK_MESSAGE_MEDIA_MAX_BYTES || !acceptsMedia(picked, QUICK_MESSAGE_MEDIA_TYPES)) {
      toast.error(t('invalidFile', { max: MEDIA_MAX_MB }));
      return;
    }
    setFile(picked);
    setDropMedia(false);
  };

  const submit = async () => {
    const values: Record<string, unknown> = { shortcode, message };
    if (canShare) values.geral = geral;
    const result = target ? validate(updateQuickMessageSchema, values, tc) : validate(createQuickMessageSchema, values, tc);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    await run(async () => {
      const saved = target
        ? await quickMessagesApi.update(target.id, result.data)
        : await quickMessagesApi.create(result.data as Parameters<typeof quickMessagesApi.create>[0]);
      if (!target) setCreated(saved);
      try {
        if (file) await quickMessagesApi.uploadMedia(saved.id, file);
        else if (dropMedia && saved.mediaPath) await quickMessagesApi.removeMedia(saved.id);
      } finally {
        void queryClient.invalidateQueries({ queryKey: QUICK_MESSAGES_KEY });
      }
      toast.success(t('toasts.saved'));
      onClose();
    });
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface className={styles.surface} data-testid="quick-message-modal">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{quickMessage ? t('modal.editTitle') : t('modal.addTitle')}</DialogTitle>
            <DialogContent className={styles.content}>
              <Field label={t('modal.shortcode')} required validationMessage={errors.shortcode} hint={errors.shortcode ? undefined : t('modal.shortcodeHint')}>
                <Input value={shortcode} maxLength={100} autoFocus data-testid="quick-message-shortcode" onChange={(_, d) => setShortcode(d.value)} />
              </Field>
              <Field
                label={t('modal.message')}
                required
                validationMessage={errors.message}
                hint={errors.message ? undefined : t('modal.messageHint', { variables: VARIABLES })}
              >
                <Textarea value={message} rows={5} resize="vertical" data-testid="quick-message-message" onChange={(_, d) => setMessage(d.value)} />
              </Field>
              {canShare ? (
                <Switch checked={geral} label={t('modal.geral')} data-testid="quick-message-geral" onChange={(_, d) => setGeral(d.checked)} />
              ) : null}
              <Field label={t('modal.attachment')}>
                <div className={styles.file}>
                  <input
                    ref={fileInput}
                    type="file"
                    hidden
                    accept={QUICK_MESSAGE_MEDIA_TYPES.join(',')}
                    data-testid="quick-message-file"
                    onChange={(e) => {
                      pick(e.target.files?.[0]);
                      e.target.value = '';
                    }}
                  />
                  <Button icon={<Attach20Regular />} onClick={() => fileInput.current?.click()}>
                    {t('modal.attach')}
                  </Button>
                  {currentMedia ? (
                    <>
                      <Text className={styles.fileName} data-testid="quick-message-media-name">
                        {currentMedia}
                      </Text>
                      <Button
                        size="small"
                        appearance="subtle"
                        icon={<Dismiss16Regular />}
                        aria-label={t('modal.removeAttachment')}
                        data-testid="quick-message-media-remove"
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
            <SaveActions saving={saving} onCancel={onClose} cancelTestId="quick-message-cancel" saveTestId="quick-message-save" />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
