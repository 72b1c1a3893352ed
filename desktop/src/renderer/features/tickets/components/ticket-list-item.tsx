import { memo, useLayoutEffect, useRef, useState } from 'react';
import { Avatar, Badge, Button, CounterBadge, makeStyles, mergeClasses, Text, tokens, Tooltip } from '@fluentui/react-components';
import { ArrowUndo16Regular, Bot16Regular, Checkmark16Regular, Dismiss16Regular, Eye16Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { DELETED_MESSAGE_PREVIEW } from '@atrium/shared';
import { formatDateTime, formatListTime } from '../../../i18n/format';
import type { Ticket } from '../api/types';
import { mayAct } from '../lib/ticket-rules';
import { useAuthStore } from '../../../stores/auth-store';
import { previewLine, stripWhatsApp } from '../../../components/whatsapp-format';
import { FormattedText } from '../../../components/formatted-text';
import { filledWith } from '../../../lib/color';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    borderLeft: '4px solid transparent',
    cursor: 'pointer',
    boxSizing: 'border-box',
    height: '100%',
    backgroundColor: tokens.colorNeutralBackground1,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  pending: { cursor: 'default', ':hover': { backgroundColor: tokens.colorNeutralBackground1 } },
  selected: { backgroundColor: tokens.colorNeutralBackground1Selected },
  body: { flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, minWidth: 0 },
  name: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  last: {
    flex: 1,
    minWidth: 0,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    color: tokens.colorNeutralForeground3,
  },
  time: { color: tokens.colorNeutralForeground3, flexShrink: 0 },
  // Badges keep their text on one line and are shown whole or not at all: one that does not fit wraps to a
  // second line, which the row's height hides (a badge cut by the action buttons read as another word). A
  // badge wider than the row ends in an ellipsis. A "+N" counts the hidden ones; the row's title names them all.
  tags: {
    display: 'flex',
    flexWrap: 'wrap',
    alignContent: 'flex-start',
    alignItems: 'center',
    overflow: 'hidden',
    columnGap: '4px',
    rowGap: '20px',
    height: '20px',
    flex: 1,
    minWidth: 0,
    position: 'relative',
    '& > *': { flexShrink: 0, maxWidth: '100%', overflow: 'hidden' },
  },
  more: { flexShrink: 0 },
  srOnly: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    margin: '-1px',
    padding: 0,
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
    border: 0,
  },
  badgeText: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 },
  /** The actions share the badges' row, so that the name and the preview get the item's whole width. */
  footer: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, minWidth: 0 },
  actions: { display: 'flex', alignItems: 'center', gap: '2px', flexShrink: 0, marginLeft: 'auto' },
  id: { color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightRegular, flexShrink: 0 },
});

export interface TicketListItemProps {
  ticket: Ticket;
  selected: boolean;
  isAdmin: boolean;
  onOpen: (ticket: Ticket) => void;
  onAccept: (ticket: Ticket) => void;
  onClose: (ticket: Ticket) => void;
  onReopen: (ticket: Ticket) => void;
  onPeek: (ticket: Ticket) => void;
}

/** One row of a ticket list (spec 01 section 2, list item). */
export const TicketListItem = memo(function TicketListItem({
  ticket,
  selected,
  isAdmin,
  onOpen,
  onAccept,
  onClose,
  onReopen,
  onPeek,
}: TicketListItemProps) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const pending = ticket.status === 'pending';
  const me = useAuthStore((s) => s.user?.id);
  const actor = mayAct(ticket, me, isAdmin);
  const name = ticket.contact?.name ?? '';
  // The server's preview of a deleted latest message, or one deleted while the list was on screen.
  const lastDeleted = ticket.lastMessageDeleted || ticket.lastMessage === DELETED_MESSAGE_PREVIEW;
  const shownAt = ticket.lastMessageAt ?? ticket.updatedAt;
  const badgeNames = [
    ticket.whatsapp?.name,
    ticket.user?.name,
    ticket.queue ? ticket.queue.name : t('filters.noQueue'),
    ...(ticket.tags ?? []).map((tag) => tag.name),
  ].filter((name): name is string => !!name);
  // How many badges wrapped out of sight, recounted when the row's width changes.
  const tagsRef = useRef<HTMLDivElement>(null);
  const [hiddenBadges, setHiddenBadges] = useState(0);
  const badgeKey = badgeNames.join('\n');
  useLayoutEffect(() => {
    const row = tagsRef.current;
    if (!row) return;
    const count = () => setHiddenBadges(Array.from(row.children).filter((c) => (c as HTMLElement).offsetTop >= row.clientHeight && row.clientHeight > 0).length);
    count();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(count);
    observer.observe(row);
    return () => observer.disconnect();
  }, [badgeKey]);
  const stop = (fn: () => void) => (e: { stopPropagation: () => void }) => {
    e.stopPropagation();
    fn();
  };
  return (
    <div
      data-testid={`ticket-item-${ticket.id}`}
      role="listitem"
      aria-current={selected ? 'true' : undefined}
      className={mergeClasses(styles.root, pending && styles.pending, selected && styles.selected)}
      style={{ borderLeftColor: ticket.queue?.color ?? tokens.colorNeutralStroke1 }}
      onClick={pending ? undefined : () => onOpen(ticket)}
    >
      <Avatar name={name} image={ticket.contact?.profilePicUrl ? { src: ticket.contact.profilePicUrl } : undefined} size={40} />
      <div className={styles.body}>
        <div className={styles.row}>
          <Text weight="semibold" className={styles.name} title={name}>
            {name}
          </Text>
          <Text size={200} className={styles.id} data-testid={`ticket-number-${ticket.id}`}>
            #{ticket.id}
          </Text>
          {ticket.chatbot ? (
            <Tooltip content={t('list.bot')} relationship="label">
              <Bot16Regular data-testid={`ticket-bot-${ticket.id}`} />
            </Tooltip>
          ) : null}
          {/* The time of the message the preview shows (not of the ticket's last change): one event, one row. */}
          <Text size={200} className={styles.time} data-testid={`ticket-time-${ticket.id}`} data-at={shownAt} title={formatDateTime(shownAt)}>
            {formatListTime(shownAt)}
          </Text>
        </div>
        <div className={styles.row}>
          <Text size={200} className={styles.last} title={ticket.lastMessage && !lastDeleted ? stripWhatsApp(ticket.lastMessage) : undefined} data-testid={`ticket-last-${ticket.id}`}>
            {lastDeleted ? (
              <em>{t('conversation.deleted')}</em>
            ) : ticket.lastMessage ? (
              <FormattedText text={previewLine(ticket.lastMessage)} />
            ) : (
              t('list.noMessage')
            )}
          </Text>
          {ticket.unreadMessages > 0 ? (
            <CounterBadge data-testid={`ticket-unread-${ticket.id}`} count={ticket.unreadMessages} color="brand" size="small" />
          ) : null}
        </div>
        <div className={styles.footer}>
          <div ref={tagsRef} className={styles.tags} title={badgeNames.join(' · ')} data-testid={`ticket-badges-${ticket.id}`}>
            {ticket.whatsapp ? (
              <Badge appearance="tint" color="informative" size="small">
                <span className={styles.badgeText}>{ticket.whatsapp.name}</span>
              </Badge>
            ) : null}
            {ticket.user ? (
              <Badge appearance="tint" color="subtle" size="small">
                <span className={styles.badgeText}>{ticket.user.name}</span>
              </Badge>
            ) : null}
            {ticket.queue ? (
              <Badge appearance="filled" size="small" style={filledWith(ticket.queue.color)}>
                <span className={styles.badgeText}>{ticket.queue.name}</span>
              </Badge>
            ) : (
              <Badge appearance="outline" size="small" style={{ color: tokens.colorNeutralForeground2, borderColor: tokens.colorNeutralStroke1 }}>
                <span className={styles.badgeText}>{t('filters.noQueue')}</span>
              </Badge>
            )}
            {(ticket.tags ?? []).map((tag) => (
              <Badge key={tag.id} appearance="filled" size="small" style={filledWith(tag.color)}>
                <span className={styles.badgeText}>{tag.name}</span>
              </Badge>
            ))}
          </div>
          {hiddenBadges > 0 ? (
            <Badge
              appearance="outline"
              size="small"
              className={styles.more}
              title={badgeNames.slice(-hiddenBadges).join(' · ')}
              data-testid={`ticket-badges-more-${ticket.id}`}
            >
              {/* "+2" names nothing to a screen reader: it reads the hidden badges' names instead. */}
              <span aria-hidden="true">+{hiddenBadges}</span>
              <span className={styles.srOnly}>{t('list.moreBadges', { count: hiddenBadges, names: badgeNames.slice(-hiddenBadges).join(', ') })}</span>
            </Badge>
          ) : null}
          <div className={styles.actions}>
            {isAdmin ? (
              <Tooltip content={t('actions.peek')} relationship="label">
                <Button
                  size="small"
                  appearance="subtle"
                  icon={<Eye16Regular />}
                  data-testid={`ticket-peek-${ticket.id}`}
                  onClick={stop(() => onPeek(ticket))}
                />
              </Tooltip>
            ) : null}
            {pending ? (
              <Button
                size="small"
                appearance="primary"
                icon={<Checkmark16Regular />}
                data-testid={`ticket-accept-${ticket.id}`}
                onClick={stop(() => onAccept(ticket))}
              >
                {t('actions.accept')}
              </Button>
            ) : null}
            {ticket.status === 'closed' ? (
              <Tooltip content={t('actions.reopen')} relationship="label">
                <Button
                  size="small"
                  appearance="subtle"
                  icon={<ArrowUndo16Regular />}
                  data-testid={`ticket-reopen-${ticket.id}`}
                  onClick={stop(() => onReopen(ticket))}
                />
              </Tooltip>
            ) : actor ? (
              <Tooltip content={t('actions.close')} relationship="label">
                <Button
                  size="small"
                  appearance="subtle"
                  icon={<Dismiss16Regular />}
                  data-testid={`ticket-close-${ticket.id}`}
                  onClick={stop(() => onClose(ticket))}
                />
              </Tooltip>
            ) : null}
          </div>
        </div>
      </div>
    </div>
  );
});
