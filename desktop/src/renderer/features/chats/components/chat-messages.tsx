import { useLayoutEffect, useRef } from 'react';
import { Link, makeStyles, mergeClasses, Spinner, Text, tokens } from '@fluentui/react-components';
import { Attach16Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { formatDate, formatTime } from '../../../i18n/format';
import { mediaHref, type ChatMessage } from '../api/chats';

/** Older messages load when scrolled within this distance of the top (spec 02 section 9). */
export const LOAD_OLDER_PX = 600;
/** Within this distance of the bottom a new message keeps the view at the newest. */
const STICK_PX = 120;

const useStyles = makeStyles({
  scroller: {
    flex: 1,
    minHeight: 0,
    overflowY: 'auto',
    overflowAnchor: 'none',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  spacer: { flex: 1 },
  day: { alignSelf: 'center', padding: `2px ${tokens.spacingHorizontalM}`, margin: `${tokens.spacingVerticalS} 0`, borderRadius: tokens.borderRadiusCircular, backgroundColor: tokens.colorNeutralBackground1, color: tokens.colorNeutralForeground2, boxShadow: tokens.shadow2 },
  bubble: {
    maxWidth: 'min(75%, 560px)',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow2,
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    overflowWrap: 'anywhere',
  },
  mine: { alignSelf: 'flex-end', backgroundColor: tokens.colorBrandBackground2, color: tokens.colorNeutralForeground1 },
  theirs: { alignSelf: 'flex-start', backgroundColor: tokens.colorNeutralBackground1 },
  sender: { color: tokens.colorBrandForeground1 },
  text: { whiteSpace: 'pre-wrap' },
  time: { alignSelf: 'flex-end', color: tokens.colorNeutralForeground3 },
  image: { maxWidth: '100%', maxHeight: '240px', borderRadius: tokens.borderRadiusMedium, display: 'block' },
  file: { display: 'inline-flex', alignItems: 'center', gap: '4px' },
  center: { display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalS, color: tokens.colorNeutralForeground3 },
});

export interface ChatMessagesProps {
  messages: ChatMessage[];
  userId: number | undefined;
  loading: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => Promise<unknown>;
}

function Attachment({ message }: { message: ChatMessage }) {
  const styles = useStyles();
  const { t } = useTranslation('chats');
  const url = mediaHref(message.mediaUrl);
  if (!url) return null;
  const name = message.mediaName ?? t('conversation.attachment');
  if (message.mediaType?.startsWith('image/')) {
    return (
      <a href={url} target="_blank" rel="noreferrer" aria-label={t('conversation.openAttachment', { name })}>
        <img className={styles.image} src={url} alt={name} loading="lazy" data-testid={`chat-image-${message.id}`} />
      </a>
    );
  }
  if (message.mediaType?.startsWith('audio/')) return <audio controls src={url} data-testid={`chat-audio-${message.id}`} />;
  if (message.mediaType?.startsWith('video/')) return <video controls src={url} style={{ maxWidth: '100%', maxHeight: 240 }} />;
  return (
    <Link href={url} target="_blank" rel="noreferrer" className={styles.file} data-testid={`chat-file-${message.id}`}>
      <Attach16Regular />
      {name}
    </Link>
  );
}

/** A conversation: newest at the bottom, a day separator when the day changes, older pages on scrolling up. */
export function ChatMessages({ messages, userId, loading, hasOlder, loadingOlder, loadOlder }: ChatMessagesProps) {
  const styles = useStyles();
  const { t } = useTranslation('chats');
  const ref = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  /** Set while older messages load: where the view was, to keep it there once they are above it. */
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const firstId = messages[0]?.id;
  const lastId = messages[messages.length - 1]?.id;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (anchor.current) {
      el.scrollTop = anchor.current.top + (el.scrollHeight - anchor.current.height);
      anchor.current = null;
    } else if (nearBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [firstId, lastId]);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    if (el.scrollTop < LOAD_OLDER_PX && hasOlder && !loadingOlder && !anchor.current) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      void loadOlder().catch(() => {
        anchor.current = null;
      });
    }
  };

  let day = '';
  return (
    <div ref={ref} className={styles.scroller} onScroll={onScroll} data-testid="chat-messages">
      <div className={styles.spacer} />
      {loadingOlder ? (
        <div className={styles.center}>
          <Spinner size="tiny" label={t('conversation.loadingOlder')} />
        </div>
      ) : null}
      {loading && messages.length === 0 ? (
        <div className={styles.center}>
          <Spinner size="small" />
        </div>
      ) : null}
      {!loading && messages.length === 0 ? (
        <div className={styles.center} data-testid="chat-no-messages">
          <Text>{t('conversation.empty')}</Text>
        </div>
      ) : null}
      {messages.map((m) => {
        const mine = m.senderId === userId;
        const thisDay = formatDate(m.createdAt);
        const separator = thisDay !== day ? thisDay : null;
        day = thisDay;
        return (
          <div key={m.id} style={{ display: 'contents' }}>
            {separator ? (
              <Text size={200} className={styles.day}>
                {separator}
              </Text>
            ) : null}
            <div className={mergeClasses(styles.bubble, mine ? styles.mine : styles.theirs)} data-testid={`chat-message-${m.id}`} data-mine={mine ? 'true' : 'false'}>
              {!mine ? (
                <Text size={200} weight="semibold" className={styles.sender}>
                  {m.sender?.name ?? ''}
                </Text>
              ) : null}
              <Attachment message={m} />
              {m.message ? <Text className={styles.text}>{m.message}</Text> : null}
              <Text size={100} className={styles.time}>
                {formatTime(m.createdAt)}
              </Text>
            </div>
          </div>
        );
      })}
    </div>
  );
}
