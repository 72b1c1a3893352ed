import {
  lazy,
  Suspense,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
} from 'react';
import {
  Button,
  Input,
  makeStyles,
  mergeClasses,
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
  Document20Regular,
  Emoji20Regular,
  Mic20Regular,
  Send20Filled,
} from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { queryClient, useQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { toastError } from '../../../api/errors';
import { toast } from '../../../components/toasts';
import { useWindowWidth } from '../../../hooks/use-window-width';
import { usePreferences } from '../../../stores/preferences-store';
import { fetchQuickMessageFile, fetchQuickMessages, sendMediaMessage, sendTextMessage, type OutgoingFile } from '../api/tickets';
import type { Message, QuickMessage, TicketStatus } from '../api/types';
import { useAudioRecorder } from '../hooks/use-audio-recorder';
import { formatDuration } from '../../../i18n/format';
import { mediaHref, previewText } from './message-bubble';
import { AssistMenu } from './assist-menu';

const EmojiPicker = lazy(() => import('emoji-picker-react'));
/** The picker's emoji names, categories and search in the app's language (English is built in); each its own chunk. */
const EMOJI_DATA = {
  pt: () => import('emoji-picker-react/data/emojis-pt'),
  es: () => import('emoji-picker-react/data/emojis-es'),
} as const;
const EMOJI_LABELS = [
  'searchPlaceholder',
  'searchLabel',
  'searchClear',
  'searchResultsNone',
  'searchResultsOne',
  'searchResultsMany',
  'categoryNavigation',
  'reactions',
  'expandReactions',
  'loading',
  'loadingError',
  'retryLoading',
  'skinToneNeutral',
  'skinToneLight',
  'skinToneMediumLight',
  'skinToneMedium',
  'skinToneMediumDark',
  'skinToneDark',
] as const;

/** md breakpoint: the sign switch shows from here. */
const MD_WIDTH = 900;
const MAX_ROWS = 5;
const QUICK_LABEL_MAX = 35;
/** The server takes up to 10 files per message request. */
export const MAX_FILES = 10;
/** GET /quick-messages/list: the active quick messages the user may use (own and shared), for the / suggestions. */
const QUICK_LIST_KEY = ['quick-messages', 'list'];

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
  quickActive: { backgroundColor: tokens.colorNeutralBackground1Selected },
  recording: { flex: 1, color: tokens.colorPaletteRedForeground1, display: 'flex', alignItems: 'center', gap: '8px', minHeight: '32px' },
  files: { flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: '4px', maxHeight: '220px', overflowY: 'auto' },
  file: { display: 'flex', alignItems: 'center', gap: '6px', minWidth: 0 },
  fileName: { flex: '0 1 40%', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  caption: { flex: 1, minWidth: 0 },
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
  /** The messages the server stored (one for a text, one per file). */
  onSent?: (messages: Message[]) => void;
}

const isMessage = (value: unknown): value is Message => !!value && typeof value === 'object' && 'id' in value;

/** The input area (spec 01 section 2, Conversation view; rules in sections 4, 5, 9). */
export function MessageInput({ ticketId, status, replyTo, onCancelReply, onSent }: MessageInputProps) {
  const styles = useStyles();
  const { t, i18n } = useTranslation('tickets');
  const width = useWindowWidth();
  const sign = usePreferences((s) => s.signMessage);
  const setPreference = usePreferences((s) => s.set);
  const [text, setText] = useState('');
  const [files, setFiles] = useState<OutgoingFile[]>([]);
  const [sending, setSending] = useState(false);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [quickIndex, setQuickIndex] = useState(0);
  const fileRef = useRef<HTMLInputElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  /** Where the caret goes once the text has re-rendered (after an emoji is inserted). */
  const caret = useRef<number | null>(null);
  const isOpen = status === 'open';

  const recorder = useAudioRecorder(
    async (file) => {
      if (!isOpen) return;
      setSending(true);
      try {
        // Not inside `onSent?.(…)`: without a listener the arguments, and so the upload, would be skipped.
        const sent = await sendMediaMessage(ticketId, [{ file, caption: '' }], { voiceNote: true, signMessage: sign });
        onSent?.(sent);
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

  const quickQuery = useQuery(QUICK_LIST_KEY, fetchQuickMessages, { staleTime: 60_000, silent: true });
  // A quick message created, changed, shared or switched off elsewhere: the suggestions follow at once.
  useRealtimeEvent('quickmessage', () => void queryClient.invalidateQueries({ queryKey: QUICK_LIST_KEY }));
  const showQuick = isOpen && files.length === 0 && text.startsWith('/') && text.length > 1;
  const quickMatches = useMemo(() => {
    if (!showQuick) return [];
    const term = text.slice(1).toLowerCase();
    return (quickQuery.data ?? []).filter((q) => q.status !== false && (q.shortcode.toLowerCase().includes(term) || q.message.toLowerCase().includes(term)));
  }, [showQuick, text, quickQuery.data]);
  const activeQuick = Math.min(quickIndex, Math.max(0, quickMatches.length - 1));

  const rows = Math.min(MAX_ROWS, Math.max(1, text.split('\n').length));

  useLayoutEffect(() => {
    const el = textRef.current;
    if (caret.current === null || !el) return;
    el.focus();
    el.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  }, [text]);

  /** Adds files to the selection (up to MAX_FILES); text already typed becomes the first file's caption. */
  const addFiles = (added: File[], caption = '') => {
    if (added.length === 0) return;
    const typed = files.length === 0 ? text.trim() : '';
    const next = [...files, ...added.map((file, i) => ({ file, caption: i === 0 ? caption || typed : '' }))];
    if (next.length > MAX_FILES) toast.warning(t('input.tooManyFiles', { max: MAX_FILES }));
    setFiles(next.slice(0, MAX_FILES));
    if (typed) setText('');
  };

  const insertEmoji = (emoji: string) => {
    const el = textRef.current;
    const start = el ? el.selectionStart : text.length;
    const end = el ? el.selectionEnd : start;
    caret.current = start + emoji.length;
    setText(text.slice(0, start) + emoji + text.slice(end));
  };

  const pickQuick = async (quick: QuickMessage) => {
    if (!quick.mediaUrl) {
      setText(quick.message);
      return;
    }
    // A quick answer with a file goes as an attachment, its text as the caption.
    setText('');
    try {
      addFiles([await fetchQuickMessageFile(mediaHref(quick.mediaUrl), quick.mediaName || quick.shortcode)], quick.message);
    } catch (err) {
      setText(quick.message);
      toastError(err);
    }
  };

  const send = async () => {
    if (!isOpen || sending || recording) return;
    if (files.length > 0) {
      setSending(true);
      try {
        const sent = await sendMediaMessage(
          ticketId,
          files.map((f) => ({ file: f.file, caption: f.caption.trim() })),
          { quotedMsgId: replyTo?.id, signMessage: sign },
        );
        setFiles([]);
        onCancelReply();
        onSent?.(sent);
      } catch (err) {
        toastError(err);
      } finally {
        setSending(false);
      }
      return;
    }
    const body = text.trim();
    if (body === '') return;
    setSending(true);
    try {
      const message = await sendTextMessage(ticketId, { body, quotedMsg: replyTo ? { id: replyTo.id } : undefined, signMessage: sign });
      setText('');
      onCancelReply();
      onSent?.(isMessage(message) ? [message] : []);
    } catch (err) {
      toastError(err);
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (quickMatches.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setQuickIndex((activeQuick + step + quickMatches.length) % quickMatches.length);
        return;
      }
      if (e.key === 'Enter' && !e.shiftKey) {
        // Enter takes the highlighted quick answer instead of sending "/short".
        e.preventDefault();
        void pickQuick(quickMatches[activeQuick]);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLElement>) => {
    const pasted = Array.from(e.clipboardData?.files ?? []);
    if (pasted.length > 0 && isOpen) {
      e.preventDefault();
      addFiles(pasted);
    }
  };

  return (
    <div className={styles.root}>
      {quickMatches.length > 0 ? (
        <div className={styles.quick} role="listbox" aria-label={t('input.quickAnswers')} data-testid="quick-answers">
          {quickMatches.map((q, i) => (
            <Button
              key={q.id}
              role="option"
              aria-selected={i === activeQuick}
              appearance="subtle"
              icon={q.mediaUrl ? <Attach20Regular /> : undefined}
              className={mergeClasses(styles.quickItem, i === activeQuick && styles.quickActive)}
              onClick={() => void pickQuick(q)}
            >
              {quickLabel(q.shortcode, q.message)}
            </Button>
          ))}
        </div>
      ) : null}
      {replyTo ? (
        <div className={styles.reply} data-testid="reply-preview">
          <Text size={200} className={styles.replyText}>
            {previewText(replyTo, t)}
          </Text>
          <Button size="small" appearance="subtle" icon={<Dismiss16Regular />} aria-label={t('input.cancelReply')} onClick={onCancelReply} />
        </div>
      ) : null}
      <div className={styles.row}>
        <Popover open={emojiOpen} onOpenChange={(_, d) => setEmojiOpen(d.open)} positioning="above-start">
          <PopoverTrigger disableButtonEnhancement>
            <Button appearance="subtle" icon={<Emoji20Regular />} aria-label={t('input.emoji')} disabled={disabled || files.length > 0} />
          </PopoverTrigger>
          {/* Sized before the picker's chunk arrives, so that it opens above the input, not cut off below it. */}
          <PopoverSurface style={{ padding: 0, width: 350, height: 450, maxHeight: '70vh', overflow: 'hidden' }}>
            <Suspense fallback={<Spinner size="small" />}>
              <EmojiPicker
                lazyLoadEmojis
                width="100%"
                height="100%"
                emojiData={EMOJI_DATA[i18n.language as keyof typeof EMOJI_DATA]}
                labels={Object.fromEntries(EMOJI_LABELS.map((key) => [key, t(`emojiPicker.${key}`)]))}
                previewConfig={{ defaultCaption: t('emojiPicker.caption') }}
                onEmojiClick={(e) => insertEmoji(e.emoji)}
              />
            </Suspense>
          </PopoverSurface>
        </Popover>
        <Tooltip content={t('input.attach')} relationship="label">
          <Button appearance="subtle" icon={<Attach20Regular />} disabled={disabled} onClick={() => fileRef.current?.click()} />
        </Tooltip>
        <AssistMenu
          ticketId={ticketId}
          disabled={disabled || files.length > 0}
          onSuggestion={(suggestion) => {
            setText(suggestion);
            textRef.current?.focus();
          }}
        />
        <input
          ref={fileRef}
          type="file"
          multiple
          hidden
          data-testid="message-files"
          onChange={(e) => {
            addFiles(Array.from(e.target.files ?? []));
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
            <span role="timer" data-testid="recording-elapsed">
              {formatDuration(recorder.elapsed)}
            </span>
          </div>
        ) : files.length > 0 ? (
          <div className={styles.files} data-testid="selected-files" onPaste={onPaste}>
            <Text size={200}>{t('input.filesSelected', { count: files.length })}</Text>
            {files.map((f, i) => (
              <div className={styles.file} key={`${i}-${f.file.name}`} data-testid={`selected-file-${i}`}>
                <Document20Regular />
                <Text size={200} className={styles.fileName} title={f.file.name}>
                  {f.file.name}
                </Text>
                <Input
                  size="small"
                  className={styles.caption}
                  value={f.caption}
                  disabled={sending}
                  placeholder={t('input.caption')}
                  aria-label={t('input.captionFor', { name: f.file.name })}
                  data-testid={`file-caption-${i}`}
                  onChange={(_, d) => setFiles(files.map((g, j) => (j === i ? { ...g, caption: d.value } : g)))}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      void send();
                    }
                  }}
                />
                <Button
                  size="small"
                  appearance="subtle"
                  icon={<Dismiss16Regular />}
                  disabled={sending}
                  aria-label={t('input.removeFile', { name: f.file.name })}
                  onClick={() => setFiles(files.filter((_, j) => j !== i))}
                />
              </div>
            ))}
          </div>
        ) : (
          <Textarea
            ref={textRef}
            className={styles.text}
            data-testid="message-input"
            resize="none"
            rows={rows}
            value={text}
            disabled={disabled}
            placeholder={isOpen ? t('input.placeholder') : t('input.placeholderClosed')}
            aria-label={t('input.placeholder')}
            onChange={(_, d) => {
              setText(d.value);
              setQuickIndex(0);
            }}
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
