import { useState } from 'react';
import { Field, Input, Switch, Textarea } from '@fluentui/react-components';
import {
  QUICK_MESSAGE_MEDIA_MAX_BYTES,
  QUICK_MESSAGE_MEDIA_TYPES,
  createQuickMessageSchema,
  updateQuickMessageSchema,
  type UpdateQuickMessageInput,
} from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../../api/query';
import { AttachmentField } from '../../../components/form/attachment-field';
import { FormDialog } from '../../../components/list-kit';
import { toast } from '../../../components/toasts';
import { QUICK_MESSAGES_KEY, acceptsMedia, quickMessagesApi, type QuickMessage } from '../api/quick-messages';

const MEDIA_MAX_MB = QUICK_MESSAGE_MEDIA_MAX_BYTES / (1024 * 1024);
const VARIABLES = ['{{firstName}}', '{{name}}', '{{ms}}', '{{protocol}}', '{{date}}', '{{hora}}'].join(', ');

type Values = { shortcode: string; message: string; geral: boolean; status: boolean; file: File | null; dropMedia: boolean };

export interface QuickMessageModalProps {
  quickMessage?: QuickMessage;
  /** Sharing with the company is for admins (the server refuses it to others). */
  canShare: boolean;
  onClose: () => void;
}

/** Add or edit a quick message: shortcode, text, shared (admins), active, and one attachment. */
export function QuickMessageModal({ quickMessage, canShare, onClose }: QuickMessageModalProps) {
  const { t } = useTranslation('quick-messages');
  /** Created by an earlier attempt whose upload failed: saving again updates it. */
  const [created, setCreated] = useState<QuickMessage | null>(null);
  const target = quickMessage ?? created;

  return (
    <FormDialog<Values, UpdateQuickMessageInput>
      title={quickMessage ? t('modal.editTitle') : t('modal.addTitle')}
      schema={target ? updateQuickMessageSchema : createQuickMessageSchema}
      initialValues={{
        shortcode: quickMessage?.shortcode ?? '',
        message: quickMessage?.message ?? '',
        geral: quickMessage?.geral ?? false,
        status: quickMessage?.status ?? true,
        file: null,
        dropMedia: false,
      }}
      toPayload={({ shortcode, message, geral, status }) => ({ shortcode, message, status, ...(canShare ? { geral } : {}) })}
      width={560}
      testId="quick-message-modal"
      saveTestId="quick-message-save"
      cancelTestId="quick-message-cancel"
      onClose={onClose}
      onSubmit={async (data, values) => {
        const saved = target
          ? await quickMessagesApi.update(target.id, data)
          : await quickMessagesApi.create(data as Parameters<typeof quickMessagesApi.create>[0]);
        if (!target) setCreated(saved);
        try {
          if (values.file) await quickMessagesApi.uploadMedia(saved.id, values.file);
          else if (values.dropMedia && saved.mediaPath) await quickMessagesApi.removeMedia(saved.id);
        } finally {
          void queryClient.invalidateQueries({ queryKey: QUICK_MESSAGES_KEY });
        }
        toast.success(t('toasts.saved'));
      }}
    >
      {(form) => {
        const currentMedia = form.values.file?.name ?? (form.values.dropMedia ? null : (quickMessage?.mediaName ?? null));
        const pick = (picked: File) => {
          if (picked.size > QUICK_MESSAGE_MEDIA_MAX_BYTES || !acceptsMedia(picked, QUICK_MESSAGE_MEDIA_TYPES)) {
            toast.error(t('invalidFile', { max: MEDIA_MAX_MB }));
            return;
          }
          form.set('file', picked);
          form.set('dropMedia', false);
        };
        return (
          <>
            <Field label={t('modal.shortcode')} required {...form.field('shortcode')} hint={form.errors.shortcode ? undefined : t('modal.shortcodeHint')}>
              <Input maxLength={100} autoFocus data-testid="quick-message-shortcode" {...form.text('shortcode')} />
            </Field>
            <Field
              label={t('modal.message')}
              required
              {...form.field('message')}
              hint={form.errors.message ? undefined : t('modal.messageHint', { variables: VARIABLES })}
            >
              <Textarea rows={5} resize="vertical" data-testid="quick-message-message" {...form.text('message')} />
            </Field>
            {canShare ? <Switch label={t('modal.geral')} data-testid="quick-message-geral" {...form.check('geral')} /> : null}
            <Switch label={t('modal.status')} data-testid="quick-message-status" {...form.check('status')} />
            <AttachmentField
              label={t('modal.attachment')}
              attachLabel={t('modal.attach')}
              removeLabel={t('modal.removeAttachment')}
              accept={QUICK_MESSAGE_MEDIA_TYPES.join(',')}
              fileName={currentMedia}
              onPick={pick}
              onRemove={() => {
                form.set('file', null);
                form.set('dropMedia', true);
              }}
              testIdPrefix="quick-message"
            />
          </>
        );
      }}
    </FormDialog>
  );
}
