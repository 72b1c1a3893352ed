import { memo, useState } from 'react';
import { Button, Link, makeStyles, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, mergeClasses, Spinner, Text, tokens } from '@fluentui/react-components';
import {
  ArrowClockwise12Regular,
  ArrowDownload16Regular,
  ArrowReply16Regular,
  Call16Regular,
  Checkmark12Regular,
  CheckmarkCircle12Regular,
  ChevronDown16Regular,
  Clock12Regular,
  ContactCard20Regular,
  Delete16Regular,
  Document20Regular,
  ErrorCircle12Regular,
  ErrorCircle16Regular,
  Location20Regular,
  Prohibited16Regular,
} from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { AudioPlayer } from './audio-player';
import { FormattedText } from '../../../components/formatted-text';
import type { TFunction } from 'i18next';
import { getServerUrl } from '../../../api/client';
import { errorMessage, toastError } from '../../../api/errors';
import { refetchMedia, resendMessage } from '../api/tickets';
import { formatTime } from '../../../i18n/format';
import type { Message, MessageBase } from '../api/types';
import en from '../i18n/en';
import { parseLocation, parseVcards } from '../lib/message-rows';

const useStyles = makeStyles({
  row: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', padding: `2px ${tokens.spacingHorizontalL}` },
  mine: { alignItems: 'flex-end' },
  bubble: {
    position: 'relative',
    maxWidth: 'min(600px, 75%)',
    minWidth: '90px',
    padding: `6px 10px 4px 10px`,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow2,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    wordBreak: 'break-word',
    ':hover .msg-menu': { opacity: 1 },
  },
  bubbleMine: { backgroundColor: tokens.colorBrandBackground2, color: tokens.colorNeutralForeground1 },
  author: { display: 'block', color: tokens.colorBrandForeground1, fontWeight: tokens.fontWeightSemibold, fontSize: tokens.fontSizeBase200 },
  text: { whiteSpace: 'pre-wrap', fontSize: tokens.fontSizeBase300, lineHeight: tokens.lineHeightBase300 },
  deleted: { fontStyle: 'italic', color: tokens.colorNeutralForeground3, display: 'inline-flex', gap: '4px', alignItems: 'center' },
  meta: { display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: '4px', color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase100, marginTop: '2px' },
  read: { color: tokens.colorPaletteBlueForeground2 },
  notSent: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: '4px',
    marginTop: '2px',
    color: tokens.colorPaletteRedForeground1,
    fontSize: tokens.fontSizeBase100,
  },
  quoted: {
    borderLeft: `3px solid ${tokens.colorBrandStroke1}`,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    padding: '4px 8px',
    marginBottom: '4px',
    fontSize: tokens.fontSizeBase200,
    overflow: 'hidden',
    maxHeight: '60px',
  },
  media: { maxWidth: '100%', maxHeight: '320px', borderRadius: tokens.borderRadiusMedium, display: 'block' },
  sticker: { width: '150px', height: '150px', objectFit: 'contain', display: 'block' },
  doc: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, padding: '4px 0' },
  mediaState: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: '6px 8px',
    marginBottom: '2px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase200,
  },
  mediaStateFailed: { color: tokens.colorPaletteRedForeground1, flexWrap: 'wrap' },
  mediaStateText: { flex: '1 1 0', minWidth: 0 },
  // On a line of its own under the reason (clear of the bubble's menu), lined up with its text.
  mediaRetry: { flexBasis: '100%', display: 'flex', paddingLeft: '16px' },
  menu: { position: 'absolute', top: '2px', right: '2px', opacity: 0, minWidth: 'auto' },
  system: { display: 'flex', justifyContent: 'center', padding: '4px' },
  reactions: {
    marginTop: '-6px',
    marginLeft: '8px',
    marginRight: '8px',
    padding: '0 6px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow2,
    fontSize: tokens.fontSizeBase300,
    lineHeight: '20px',
    position: 'relative',
  },
  callLog: {
    display: 'inline-flex',
    gap: '6px',
    alignItems: 'center',
    padding: '4px 12px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorPaletteRedBackground1,
    color: tokens.colorPaletteRedForeground1,
    fontSize: tokens.fontSizeBase200,
  },
});

export const mediaHref = (url: string | null | undefined): string => {
  if (!url) return '';
  if (/^(https?:|data:|blob:)/.test(url)) return url;
  return `${getServerUrl()}${url.startsWith('/') ? '' : '/'}${url}`;
};

/** Ack icons: 0 waiting, 1 sent, 2 delivered, 3 read, 4-5 played. */
export function AckIcon({ ack }: { ack: number }) {
  const styles = useStyles();
  const label = `ack-${ack}`;
  if (ack <= 0) return <Clock12Regular aria-label={label} data-ack={ack} />;
  if (ack === 1) return <Checkmark12Regular aria-label={label} data-ack={ack} />;
  return (
    <span aria-label={label} data-ack={ack} className={ack >= 3 ? styles.read : undefined} style={{ display: 'inline-flex' }}>
      <Checkmark12Regular />
      <Checkmark12Regular style={{ marginLeft: -7 }} />
      {ack >= 4 ? <CheckmarkCircle12Regular style={{ marginLeft: 2 }} /> : null}
    </span>
  );
}

/** Location and contact-card messages carry their content in the body, shown by MessageMedia instead. */
// A placeholder's body is the kind of message it stands for, described in words (placeholderText).
const BODY_AS_MEDIA = new Set(['location', 'locationMessage', 'vcard', 'contactMessage', 'unavailable']);
const PLACEHOLDERS = en.conversation.placeholders;

/**
 * A received file still on its way, or why it never came (the server tells when it changes). One whose
 * download failed can be fetched again (outside read-only views); one too large cannot.
 */
function MediaState({ message, readOnly }: { message: MessageBase; readOnly?: boolean }) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const [busy, setBusy] = useState(false);
  const status = message.mediaStatus;
  const downloadAgain = async () => {
    setBusy(true);
    try {
      // The server's update event turns the bubble to "downloading", then to the file.
      await refetchMedia(message.id);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  if (status === 'pending') {
    return (
      <div className={styles.mediaState} role="status" data-testid={`media-status-${message.id}`} data-status={status}>
        <Spinner size="extra-tiny" />
        <span>{t('conversation.mediaPending')}</span>
      </div>
    );
  }
  return (
    <div className={mergeClasses(styles.mediaState, styles.mediaStateFailed)} data-testid={`media-status-${message.id}`} data-status={status}>
      <ErrorCircle16Regular />
      <span className={styles.mediaStateText}>{t(status === 'tooLarge' ? 'conversation.mediaTooLarge' : status === 'expired' ? 'conversation.mediaExpired' : 'conversation.mediaFailed')}</span>
      {status === 'failed' && !readOnly ? (
        <div className={styles.mediaRetry}>
          <Button
            size="small"
            appearance="transparent"
            icon={<ArrowDownload16Regular />}
            disabled={busy}
            onClick={() => void downloadAgain()}
            data-testid={`media-retry-${message.id}`}
          >
            {t('conversation.downloadAgain')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

export function MessageMedia({ message, readOnly }: { message: MessageBase; readOnly?: boolean }) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const url = mediaHref(message.mediaUrl);
  if (message.mediaStatus) return <MediaState message={message} readOnly={readOnly} />;
  switch (message.mediaType) {
    case 'image':
      return url ? (
        <a href={url} target="_blank" rel="noreferrer">
          <img className={styles.media} src={url} alt={message.mediaName ?? ''} loading="lazy" data-testid={`media-image-${message.id}`} />
        </a>
      ) : null;
    case 'sticker':
      return url ? <img className={styles.sticker} src={url} alt={t('conversation.sticker')} loading="lazy" data-testid={`media-sticker-${message.id}`} /> : null;
    case 'audio':
      return url ? <AudioPlayer src={url} testId={`media-audio-${message.id}`} /> : null;
    case 'video':
      return url ? <video className={styles.media} controls preload="metadata" src={url} data-testid={`media-video-${message.id}`} /> : null;
    case 'location':
    case 'locationMessage': {
      const loc = parseLocation(message.body);
      return (
        <div data-testid={`media-location-${message.id}`}>
          {loc.image ? <img className={styles.media} src={loc.image} alt={t('conversation.location')} /> : null}
          <Link href={loc.link} target="_blank" rel="noreferrer">
            <Location20Regular /> {loc.description || t('conversation.location')}
          </Link>
        </div>
      );
    }
    case 'vcard':
    case 'contactMessage':
      return (
        <div data-testid={`media-vcard-${message.id}`}>
          {parseVcards(message.body).map((card, i) => (
            <div className={styles.doc} key={i}>
              <ContactCard20Regular />
              <div>
                <Text weight="semibold" block>
                  {card.name || t('conversation.contactCard')}
                </Text>
                {card.numbers.map((n) => (
                  <Text key={n} size={200} block>
                    {n}
                  </Text>
                ))}
              </div>
            </div>
          ))}
        </div>
      );
    case 'reactionMessage':
      // The emoji is the body; the message reacted to is the quoted one above.
      return (
        <Text size={200} italic data-testid={`media-reaction-${message.id}`}>
          {t('conversation.reacted')}
        </Text>
      );
    case 'unavailable':
      // The customer wrote, but the content could not be read (undecryptable, an ad's lead).
      return (
        <Text size={200} italic data-testid={`media-unavailable-${message.id}`}>
          {placeholderText(message.body, t)}
        </Text>
      );
    default:
      // Documents (application, document) and anything else with a file: a download link.
      if (!url) return null;
      return (
        <div className={styles.doc} data-testid={`media-document-${message.id}`}>
          <Document20Regular />
          <Link href={url} target="_blank" rel="noreferrer" download={message.mediaName ?? true}>
            {message.mediaName || t('conversation.download')}
          </Link>
        </div>
      );
  }
}

/**
 * What a placeholder says: its body names the kind of message the customer sent (a view-once photo, an
 * order...); an unreadable message, or a kind this version does not know, says it cannot be shown here.
 */
const placeholderText = (kind: string | null | undefined, t: TFunction<'tickets'>): string =>
  kind && Object.hasOwn(PLACEHOLDERS, kind) ? t(`conversation.placeholders.${kind as keyof typeof PLACEHOLDERS}`) : t('conversation.unavailable');

/** One line about a message (quoted bubbles, the reply preview): its text, or what kind of content it is. */
export const previewText = (m: MessageBase, t: TFunction<'tickets'>): string => {
  if (m.isDeleted) return t('conversation.deleted');
  switch (m.mediaType) {
    case 'location':
    case 'locationMessage':
      return parseLocation(m.body).description || t('conversation.location');
    case 'vcard':
    case 'contactMessage':
      return parseVcards(m.body)[0]?.name || t('conversation.contactCard');
    case 'sticker':
      return t('conversation.sticker');
    case 'reactionMessage':
      return `${t('conversation.reacted')} ${m.body}`;
    case 'unavailable':
      return placeholderText(m.body, t);
    default:
      return m.body || m.mediaName || '';
  }
};

const showsBody = (m: MessageBase) => !!m.body && !BODY_AS_MEDIA.has(m.mediaType ?? '') && !(m.mediaType && m.body === m.mediaName);

/** The emoji people put on a message, under its bubble; who reacted in the label. */
function Reactions({ messageId, reactions }: { messageId: number; reactions: Message[] }) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const who = reactions.map((r) => `${r.body} ${r.fromMe ? (r.user?.name ?? t('conversation.reactionFromPhone')) : (r.contact?.name ?? '')}`.trim());
  const label = t('conversation.reactions', { list: who.join(', ') });
  return (
    <span className={styles.reactions} role="img" aria-label={label} title={label} data-testid={`reactions-${messageId}`}>
      {[...new Set(reactions.map((r) => r.body))].join('')}
    </span>
  );
}

/** Our message that did not leave: why, and (outside read-only views) a resend action. */
function NotSent({ message, readOnly }: { message: Message; readOnly?: boolean }) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    try {
      // The server's update event clears the failure and brings the clock back.
      await resendMessage(message.id);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={styles.notSent} role="alert" data-testid={`not-sent-${message.id}`}>
      <ErrorCircle12Regular />
      <span>
        {t('conversation.notSent')}: {errorMessage({ error: message.sendError })}
      </span>
      {readOnly ? null : (
        <Button size="small" appearance="transparent" icon={<ArrowClockwise12Regular />} disabled={busy} onClick={() => void resend()}>
          {t('conversation.resend')}
        </Button>
      )}
    </div>
  );
}

export interface MessageBubbleProps {
  message: Message;
  /** Reactions to this message, shown under it. */
  reactions?: Message[];
  showAuthor?: boolean;
  readOnly?: boolean;
  onReply?: (message: Message) => void;
  onDelete?: (message: Message) => void;
}

export const MessageBubble = memo(function MessageBubble({ message, reactions, showAuthor, readOnly, onReply, onDelete }: MessageBubbleProps) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  if (message.mediaType === 'call_log') {
    return (
      <div className={styles.system} data-testid={`message-${message.id}`}>
        <span className={styles.callLog}>
          {/* The server writes the call's time as the company reads its clock into the body. */}
          <Call16Regular /> {t('conversation.callLog', { time: message.body || formatTime(message.createdAt) })}
        </span>
      </div>
    );
  }
  const quoted = message.quotedMsg;
  return (
    <div className={mergeClasses(styles.row, message.fromMe && styles.mine)}>
      <div className={mergeClasses(styles.bubble, message.fromMe && styles.bubbleMine)} data-testid={`message-${message.id}`}>
        {!readOnly && !message.isDeleted ? (
          <Menu>
            <MenuTrigger disableButtonEnhancement>
              <Button
                className={mergeClasses(styles.menu, 'msg-menu')}
                size="small"
                appearance="transparent"
                icon={<ChevronDown16Regular />}
                aria-label={t('conversation.messageMenu', { time: formatTime(message.createdAt) })}
              />
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                <MenuItem icon={<ArrowReply16Regular />} onClick={() => onReply?.(message)}>
                  {t('conversation.reply')}
                </MenuItem>
                {message.fromMe ? (
                  <MenuItem icon={<Delete16Regular />} onClick={() => onDelete?.(message)}>
                    {t('conversation.deleteMessage')}
                  </MenuItem>
                ) : null}
              </MenuList>
            </MenuPopover>
          </Menu>
        ) : null}
        {showAuthor && !message.fromMe && message.contact ? <span className={styles.author}>{message.contact.name}</span> : null}
        {quoted ? (
          <div className={styles.quoted} data-testid={`quoted-${message.id}`}>
            <span className={styles.author}>{quoted.fromMe ? (quoted.user?.name ?? '') : (quoted.contact?.name ?? '')}</span>
            {previewText(quoted, t)}
          </div>
        ) : null}
        {message.isDeleted ? (
          <span className={styles.deleted}>
            <Prohibited16Regular /> {t('conversation.deleted')}
          </span>
        ) : (
          <>
            {message.mediaType && message.mediaType !== 'chat' && message.mediaType !== 'extendedTextMessage' ? (
              <MessageMedia message={message} readOnly={readOnly} />
            ) : null}
            {showsBody(message) ? <div className={styles.text}><FormattedText text={message.body} /></div> : null}
          </>
        )}
        <div className={styles.meta}>
          {message.isEdited ? <span>{t('conversation.edited')}</span> : null}
          <span>{formatTime(message.createdAt)}</span>
          {message.fromMe && !message.sendError ? <AckIcon ack={message.ack} /> : null}
        </div>
        {message.fromMe && message.sendError && !message.isDeleted ? <NotSent message={message} readOnly={readOnly} /> : null}
      </div>
      {reactions?.length ? <Reactions messageId={message.id} reactions={reactions} /> : null}
    </div>
  );
});
