import { lazy, Suspense, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import {
  Button,
  makeStyles,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Spinner,
  Switch,
  Text,
  Textarea,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import {
  Attach20Regular,
  CheckmarkCircle20Regular,
  Dismiss16Regular,
  DismissCircle20Regular,
  Emoji20Regular,
  Mic20Regular,
  Send20Filled,
} from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { toastError } from '../../../api/errors';
import { useWindowWidth } from '../../../hooks/use-window-width';
import { usePreferences } from '../../../stores/preferences-store';
import { fetchQuickMessages, sendMediaMessage, sendTextMessage } from '../api/tickets';
import type { Message, TicketStatus } from '../api/types';
import { useAudioRecorder } from '../hooks/use-audio-recorder';

const EmojiPicker = lazy(() => import('emoji-picker-react'));

/** md breakpoint: the sign switch shows from here. */
const MD_WIDTH = 900;
const MAX_ROWS = 5;
const QUICK_LABEL_MAX = 35;

const useStyles = makeStyles({
  root: {
    position: 'relative',
    display: 'flex',
    flexDirection: 'column',
    gap: '4px',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  row: { display: 'flex', alignItems: 'flex-end', gap: '4px' },
  text: { flex: 1, '& textarea': { maxHeight: 'none' } },
  reply: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    borderLeft: `3px solid ${tokens.colorBrandStroke1}`,
    backgroundColor: tokens.colorNeutralBackground3,
    padding: '4px 8px',
    borderRadius: tokens.borderRadiusMedium,
  },
  replyText: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  quick: {
    position: 'absolute',
    bottom: '100%',
    left: tokens.spacingHorizontalM,
    right: tokens.spacingHorizontalM,
    maxHeight: '220px',
    overflowY: 'auto',
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow16,
    borderRadius: tokens.borderRadiusMedium,
    zIndex: 10,
    display: 'flex',
    flexDirection: 'column',
  },
  quickItem: { justifyContent: 'flex-start', textAlign: 'left' },
  recording: { flex: 1, color: tokens.colorPaletteRedForeground1, display: 'flex', alignItems: 'center', gap: '8px', minHeight: '32px' },
  files: { display: 'flex', gap: '6px', alignItems: 'center', flexWrap: 'wrap' },
});

export const quickLabel = (shortcode: string, message: string): string => {
  const label = `${shortcode} - ${message}`;
  return label.length > QUICK_LABEL_MAX ? `${label.slice(0, QUICK_LABEL_MAX)}...` : label;
};

export interface MessageInputProps {
  ticketId: number;
  status: TicketStatus;
  replyTo: Message | null;
  onCancelReply: () => void;
  onSent?: (message?: Message) => void;
}

/** The input area (spec 01 section 2, Conversation view; rules in sections 4, 5, 9). */
export function MessageInput({ ticketId, status, replyTo, onCancelReply, onSent }: MessageInputProps) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const width = useWindowWidth();
  const signDefault = usePreferences((s) => s.signMessage);
  const setPreference = usePreferences((s) => s.set);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [sending, setSending] = useState(false);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const isOpen = status === 'open';
  const sign = signDefault;

  const recorder = useAudioRecorder(
    async (file) => {
      if (!isOpen) return;
      setSending(true);
      try {
        await sendMediaMessage(ticketId, [file], { voiceNote: true, signMessage: sign });
        onSent?.();
      } catch (err) {
        toastError(err);
      } finally {
        setSending(false);
      }
    },
    toastError,
  );
  const recording = recorder.state === 'recording';
  const disabled = sending || recording || !isOpen;

  const quickQuery = useQuery(['quick-messages', 'list'], fetchQuickMessages, { staleTime: 60_000, silent: true });
  const showQuick = text.startsWith('/') && text.length > 1;
  const quickMatches = useMemo(() => {
    if (!showQuick) return [];
    const term = text.slice(1).toLowerCase();
    return (quickQuery.data ?? []).filter((q) => q.shortcode.toLowerCase().includes(term) || q.message.toLowerCase().includes(term));
  }, [showQuick, text, quickQuery.data]);

  const rows = Math.min(MAX_ROWS, Math.max(1, text.split('\n').length));

  const send = async () => {
    if (!isOpen || sending || recording) return;
    const body = text.trim();
    if (files.length > 0) {
      setSending(true);
      try {
        await sendMediaMessage(ticketId, files, { caption: body, quotedMsgId: replyTo?.id, signMessage: sign });
        setFiles([]);
        setText('');
        onCancelReply();
        onSent?.();
      } catch (err) {
        toastError(err);
      } finally {
        setSending(false);
      }
      return;
    }
    if (body === '') return;
    setSending(true);
    try {
      const message = await sendTextMessage(ticketId, { body, quotedMsg: replyTo ? { id: replyTo.id } : undefined, signMessage: sign });
      setText('');
      onCancelReply();
      onSent?.(message && typeof message === 'object' && 'id' in message ? message : undefined);
    } catch (err) {
      toastError(err);
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = Array.from(e.clipboardData?.files ?? []);
    if (pasted.length > 0 && isOpen) {
      e.preventDefault();
      setFiles(pasted);
    }
  };

  return (
    <div className={styles.root}>
      {showQuick && quickMatches.length > 0 && isOpen ? (
        <div className={styles.quick} role="listbox" aria-label={t('input.quickAnswers')} data-testid="quick-answers">
          {quickMatches.map((q) => (
            <Button
              key={q.id}
              role="option"
              aria-selected={false}
              appearance="subtle"
              className={styles.quickItem}
              onClick={() => setText(q.message)}
            >
              {quickLabel(q.shortcode, q.message)}
            </Button>
          ))}
        </div>
      ) : null}
      {replyTo ? (
        <div className={styles.reply} data-testid="reply-preview">
          <Text size={200} className={styles.replyText}>
            {replyTo.body || replyTo.mediaName}
          </Text>
          <Button size="small" appearance="subtle" icon={<Dismiss16Regular />} aria-label={t('input.cancelReply')} onClick={onCancelReply} />
        </div>
      ) : null}
      {files.length > 0 ? (
        <div className={styles.files} data-testid="selected-files">
          <Text size={200}>{t('input.filesSelected', { count: files.length })}</Text>
          <Text size={200}>{files.map((f) => f.name).join(', ')}</Text>
          <Button size="small" appearance="subtle" icon={<Dismiss16Regular />} aria-label={t('actions.close')} onClick={() => setFiles([])} />
        </div>
      ) : null}
      <div className={styles.row}>
        <Popover open={emojiOpen} onOpenChange={(_, d) => setEmojiOpen(d.open)} positioning="above-start">
          <PopoverTrigger disableButtonEnhancement>
            <Button appearance="subtle" icon={<Emoji20Regular />} aria-label={t('input.emoji')} disabled={disabled} />
          </PopoverTrigger>
          <PopoverSurface style={{ padding: 0 }}>
            <Suspense fallback={<Spinner size="small" />}>
              <EmojiPicker lazyLoadEmojis onEmojiClick={(e) => setText((old) => old + e.emoji)} />
            </Suspense>
          </PopoverSurface>
        </Popover>
        <Tooltip content={t('input.attach')} relationship="label">
          <Button appearance="subtle" icon={<Attach20Regular />} disabled={disabled} onClick={() => fileRef.current?.click()} />
        </Tooltip>
        <input
          ref={fileRef}
          type="file"
          multiple
          hidden
          data-testid="message-files"
          onChange={(e) => {
            setFiles(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
        {width >= MD_WIDTH ? (
          <Switch
            label={t('input.sign')}
            checked={sign}
            data-testid="message-sign"
            onChange={(_, d) => setPreference('signMessage', d.checked)}
          />
        ) : null}
        {recording ? (
          <div className={styles.recording} data-testid="recording">
            <Spinner size="extra-tiny" />
            {t('input.recording')}
          </div>
        ) : (
          <Textarea
            className={styles.text}
            data-testid="message-input"
            resize="none"
            rows={rows}
            value={text}
            disabled={disabled}
            placeholder={isOpen ? t('input.placeholder') : t('input.placeholderClosed')}
            aria-label={t('input.placeholder')}
            onChange={(_, d) => setText(d.value)}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
          />
        )}
        {recording ? (
          <>
            <Button appearance="subtle" icon={<DismissCircle20Regular />} aria-label={t('input.cancelRecording')} onClick={recorder.cancel} />
            <Button appearance="subtle" icon={<CheckmarkCircle20Regular />} aria-label={t('input.stopRecording')} data-testid="record-send" onClick={recorder.send} />
          </>
        ) : (
          <>
            {text.trim() === '' && files.length === 0 ? (
              <Button
                appearance="subtle"
                icon={<Mic20Regular />}
                aria-label={t('input.record')}
                data-testid="record-start"
                disabled={disabled}
                onClick={() => void recorder.start()}
              />
            ) : null}
            <Button
              appearance="primary"
              icon={sending ? <Spinner size="extra-tiny" /> : <Send20Filled />}
              aria-label={t('input.send')}
              data-testid="message-send"
              disabled={disabled}
              onClick={() => void send()}
            />
          </>
        )}
      </div>
    </div>
  );
}
