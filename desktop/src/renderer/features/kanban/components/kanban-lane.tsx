import { useCallback } from 'react';
import { Badge, Button, makeStyles, mergeClasses, Spinner, Text, tokens } from '@fluentui/react-components';
import { ReOrderDotsVertical16Regular } from '@fluentui/react-icons';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useTranslation } from 'react-i18next';
import type { TicketView } from '@atrium/shared';
import { useInfiniteScroll } from '../../../components/list-kit';
import type { LaneState } from '../board-state';
import { KanbanCard } from './kanban-card';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    flexShrink: 0,
    width: 'min(300px, calc(100vw - 72px))',
    maxHeight: '100%',
    minHeight: 0,
    boxSizing: 'border-box',
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground3,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  over: { outline: `2px solid ${tokens.colorBrandStroke1}`, outlineOffset: '-2px' },
  dragging: { opacity: 0.6, zIndex: 1 },
  header: {
    display: 'flex',
    minHeight: '44px',
    boxSizing: 'border-box',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderTop: '4px solid transparent',
    borderTopLeftRadius: tokens.borderRadiusLarge,
    borderTopRightRadius: tokens.borderRadiusLarge,
  },
  title: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  handle: { cursor: 'grab', touchAction: 'none' },
  cards: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: `0 ${tokens.spacingHorizontalS} ${tokens.spacingVerticalS}`,
    overflowY: 'auto',
    minHeight: '80px',
    flex: 1,
  },
  empty: { color: tokens.colorNeutralForeground3, textAlign: 'center', padding: tokens.spacingVerticalL },
  footer: { display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalXS },
});

export interface KanbanLaneProps {
  lane: LaneState;
  name: string;
  tickets: Record<number, TicketView>;
  /** Admins drag kanban lanes by their handle to reorder them. */
  sortable: boolean;
  loading: boolean;
  onLoadMore: (tagId: number | null) => void;
  onOpen: (ticket: TicketView) => void;
  /** Every lane of the board, for the cards' "move to" menu. */
  lanes: { tagId: number | null; name: string }[];
  onMove: (ticketId: number, tagId: number | null) => void;
}

export const laneDndId = (tagId: number | null) => `lane:${tagId ?? 'none'}`;

/** A lane: its header (colour, name, count, drag handle) and its cards, paged as they scroll into view. */
export function KanbanLane({ lane, name, tickets, sortable, loading, onLoadMore, onOpen, lanes, onMove }: KanbanLaneProps) {
  const styles = useStyles();
  const { t } = useTranslation('kanban');
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging, isOver, active } = useSortable({
    id: laneDndId(lane.tagId),
    data: { type: 'lane', tagId: lane.tagId },
    // Every lane takes cards; only kanban lanes move, and only for admins.
    disabled: { draggable: !sortable || lane.tagId === null, droppable: false },
  });
  const cardOver = isOver && active?.data.current?.type === 'card' && active.data.current.laneId !== lane.tagId;
  const cards = lane.ids.flatMap((id) => tickets[id] ?? []);
  // The next page within 100 px of the lane's bottom, or at once when the cards do not fill the lane.
  const more = useCallback(() => {
    if (!loading) onLoadMore(lane.tagId);
  }, [loading, onLoadMore, lane.tagId]);
  const scroll = useInfiniteScroll(lane.hasMore, more, cards.length);
  return (
    <section
      ref={setNodeRef}
      aria-label={name}
      data-testid={`kanban-lane-${lane.tagId ?? 'none'}`}
      className={mergeClasses(styles.root, cardOver && styles.over, isDragging && styles.dragging)}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      <header className={styles.header} style={{ borderTopColor: lane.tag?.color ?? tokens.colorNeutralStroke1 }}>
        {sortable && lane.tagId !== null ? (
          <Button
            ref={setActivatorNodeRef}
            size="small"
            appearance="subtle"
            className={styles.handle}
            icon={<ReOrderDotsVertical16Regular />}
            aria-label={t('dragLane', { lane: name })}
            data-testid={`kanban-lane-handle-${lane.tagId}`}
            {...attributes}
            {...listeners}
          />
        ) : null}
        <Text weight="semibold" className={styles.title} title={name}>
          {name}
        </Text>
        <Badge appearance="tint" shape="rounded" aria-label={t('count', { count: lane.count })} data-testid={`kanban-count-${lane.tagId ?? 'none'}`}>
          {lane.count}
        </Badge>
      </header>
      <div ref={scroll.ref} className={styles.cards} onScroll={scroll.onScroll} data-testid={`kanban-cards-${lane.tagId ?? 'none'}`}>
        {cards.length === 0 && !lane.hasMore ? <Text className={styles.empty}>{t('empty')}</Text> : null}
        {cards.map((ticket) => (
          <KanbanCard key={ticket.id} ticket={ticket} laneId={lane.tagId} laneName={name} onOpen={onOpen} lanes={lanes} onMove={onMove} />
        ))}
        {lane.hasMore ? (
          <div className={styles.footer}>
            {loading ? (
              <Spinner size="tiny" label={t('loading')} />
            ) : (
              <Button size="small" appearance="subtle" onClick={() => onLoadMore(lane.tagId)}>
                {t('loadMore')}
              </Button>
            )}
          </div>
        ) : null}
      </div>
    </section>
  );
}
