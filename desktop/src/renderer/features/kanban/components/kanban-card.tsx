import { memo, type KeyboardEventHandler, type ReactNode } from 'react';
import {
  Avatar,
  Button,
  CounterBadge,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  mergeClasses,
  Text,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import { ArrowSwap16Regular, Open16Regular, Person16Regular } from '@fluentui/react-icons';
import { useDraggable } from '@dnd-kit/core';
import { useTranslation } from 'react-i18next';
import type { TicketView } from '@atrium/shared';
import { FormattedText } from '../../../components/formatted-text';
import { previewLine, stripWhatsApp } from '../../../components/whatsapp-format';
import { formatListTime } from '../../../i18n/format';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderLeft: '4px solid transparent',
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow2,
    cursor: 'grab',
    touchAction: 'manipulation',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    // The handle has the focus; the whole card shows it.
    ':focus-within': { borderTopColor: tokens.colorStrokeFocus2, borderRightColor: tokens.colorStrokeFocus2, borderBottomColor: tokens.colorStrokeFocus2 },
  },
  dragging: { opacity: 0.4 },
  overlay: { boxShadow: tokens.shadow16, cursor: 'grabbing' },
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, minWidth: 0 },
  name: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  /** The contact's name is the card's keyboard handle: a plain-looking button. */
  handle: {
    flex: 1,
    minWidth: 0,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    padding: 0,
    border: 'none',
    background: 'none',
    color: 'inherit',
    font: 'inherit',
    fontWeight: tokens.fontWeightSemibold,
    textAlign: 'start',
    cursor: 'inherit',
    borderRadius: tokens.borderRadiusSmall,
    outlineStyle: 'none',
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '1px' },
  },
  muted: { color: tokens.colorNeutralForeground3, flexShrink: 0 },
  last: {
    color: tokens.colorNeutralForeground2,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    minWidth: 0,
  },
  meta: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: tokens.colorNeutralForeground3 },
  dot: { width: '8px', height: '8px', borderRadius: '50%', flexShrink: 0 },
});

export interface KanbanCardProps {
  ticket: TicketView;
  /** The lane the card is shown in (a ticket with two kanban tags shows in both). */
  laneId: number | null;
  laneName: string;
  onOpen: (ticket: TicketView) => void;
  /** The lanes a card may go to, for the "move to" menu (the same move as a drag, without one). */
  lanes?: { tagId: number | null; name: string }[];
  onMove?: (ticketId: number, tagId: number | null) => void;
  /** The copy under the pointer while dragging: not draggable itself. */
  overlay?: boolean;
}

/** A button on a card is pressed, not a handle to drag the card by. */
const notADrag = {
  onMouseDown: (e: { stopPropagation: () => void }) => e.stopPropagation(),
  onTouchStart: (e: { stopPropagation: () => void }) => e.stopPropagation(),
};

/**
 * The card's content: contact, number, last message, time, queue colour, assignee, unread, see-ticket. The
 * contact's name is `handle` on the board (the keyboard's way to pick the card up), plain text on the copy
 * under the pointer.
 */
function CardBody({
  ticket,
  laneId,
  onOpen,
  lanes = [],
  onMove,
  handle,
}: Pick<KanbanCardProps, 'ticket' | 'laneId' | 'onOpen' | 'lanes' | 'onMove'> & { handle?: ReactNode }) {
  const styles = useStyles();
  const { t } = useTranslation('kanban');
  const name = ticket.contact?.name ?? '';
  return (
    <>
      <div className={styles.row}>
        <Avatar name={name} size={24} image={ticket.contact?.profilePicUrl ? { src: ticket.contact.profilePicUrl } : undefined} aria-hidden />
        {handle ?? (
          <Text weight="semibold" className={styles.name} title={name}>
            {name}
          </Text>
        )}
        <Text size={200} className={styles.muted}>
          #{ticket.id}
        </Text>
        {ticket.unreadMessages > 0 ? (
          <CounterBadge
            count={ticket.unreadMessages}
            size="small"
            color="important"
            aria-label={t('unread', { count: ticket.unreadMessages })}
            data-testid={`kanban-unread-${ticket.id}`}
          />
        ) : null}
      </div>
      <div className={styles.row}>
        <Text size={200} className={styles.meta} data-testid={`kanban-number-${ticket.id}`}>
          {ticket.contact?.number ?? ''}
        </Text>
        <Text size={200} className={styles.muted}>
          {formatListTime(ticket.lastMessageAt ?? ticket.updatedAt)}
        </Text>
      </div>
      <Text size={200} className={styles.last} title={ticket.lastMessage ? stripWhatsApp(ticket.lastMessage) : undefined}>
        {ticket.lastMessage ? <FormattedText text={previewLine(ticket.lastMessage)} /> : t('noMessage')}
      </Text>
      <div className={styles.row}>
        <span className={styles.dot} style={{ backgroundColor: ticket.queue?.color ?? tokens.colorNeutralStroke1 }} aria-hidden />
        <Text size={200} className={styles.meta} title={ticket.queue?.name ?? t('noQueue')}>
          {ticket.queue?.name ?? t('noQueue')}
        </Text>
        <Person16Regular aria-hidden className={styles.muted} />
        <Text size={200} className={styles.meta} title={ticket.user?.name ?? t('unassigned')}>
          {ticket.user?.name ?? t('unassigned')}
        </Text>
        {onMove && lanes.length > 1 ? (
          <Menu>
            <MenuTrigger disableButtonEnhancement>
              <Tooltip content={t('moveTo')} relationship="label">
                <Button
                  size="small"
                  appearance="subtle"
                  icon={<ArrowSwap16Regular />}
                  data-testid={`kanban-move-${ticket.id}`}
                  {...notADrag}
                />
              </Tooltip>
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                {lanes
                  .filter((lane) => lane.tagId !== laneId)
                  .map((lane) => (
                    <MenuItem
                      key={lane.tagId ?? 'none'}
                      data-testid={`kanban-move-${ticket.id}-to-${lane.tagId ?? 'none'}`}
                      onClick={() => onMove(ticket.id, lane.tagId)}
                    >
                      {lane.name}
                    </MenuItem>
                  ))}
              </MenuList>
            </MenuPopover>
          </Menu>
        ) : null}
        <Tooltip content={t('seeTicket')} relationship="label">
          <Button
            size="small"
            appearance="subtle"
            icon={<Open16Regular />}
            data-testid={`kanban-open-${ticket.id}`}
            {...notADrag}
            onClick={() => onOpen(ticket)}
          />
        </Tooltip>
      </div>
    </>
  );
}

/** A ticket on the board, dragged (pointer, touch or keyboard) to another lane. */
export const KanbanCard = memo(function KanbanCard({ ticket, laneId, laneName, onOpen, lanes, onMove, overlay = false }: KanbanCardProps) {
  const styles = useStyles();
  const { t } = useTranslation('kanban');
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: `card:${laneId ?? 'none'}:${ticket.id}`,
    data: { type: 'card', ticketId: ticket.id, laneId },
    disabled: overlay,
  });
  if (overlay) {
    return (
      <div className={mergeClasses(styles.root, styles.overlay)} data-testid="kanban-drag-overlay" style={{ borderLeftColor: ticket.queue?.color ?? tokens.colorNeutralStroke1 }} aria-hidden>
        <CardBody ticket={ticket} laneId={laneId} onOpen={onOpen} />
      </div>
    );
  }
  // The card is not a control itself (its buttons would sit inside one): the pointer drags it from anywhere on
  // it, the keyboard from its handle, the contact's name, which carries dnd-kit's role, state and instructions.
  const { onKeyDown, ...pointerListeners } = (listeners ?? {}) as { onKeyDown?: KeyboardEventHandler<HTMLButtonElement> };
  const name = ticket.contact?.name ?? '';
  const handle = (
    <button
      type="button"
      ref={setActivatorNodeRef}
      className={styles.handle}
      title={name}
      data-testid={`kanban-grab-${ticket.id}`}
      {...attributes}
      onKeyDown={onKeyDown}
      aria-label={t('dragCard', { id: ticket.id, name, lane: laneName })}
    >
      {name}
    </button>
  );
  return (
    <div
      ref={setNodeRef}
      data-testid={`kanban-card-${ticket.id}`}
      className={mergeClasses(styles.root, isDragging && styles.dragging)}
      style={{ borderLeftColor: ticket.queue?.color ?? tokens.colorNeutralStroke1 }}
      {...pointerListeners}
    >
      <CardBody ticket={ticket} laneId={laneId} onOpen={onOpen} lanes={lanes} onMove={onMove} handle={handle} />
    </div>
  );
});
