import { useCallback, useMemo, useState } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import {
  closestCenter,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  MouseSensor,
  pointerWithin,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { arrayMove, horizontalListSortingStrategy, SortableContext, sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { useTranslation } from 'react-i18next';
import type { TicketView } from '@atrium/shared';
import type { BoardState } from '../board-state';
import { KanbanCard } from './kanban-card';
import { KanbanLane, laneDndId } from './kanban-lane';

const useStyles = makeStyles({
  // Lanes side by side, scrolling sideways on narrow windows; each lane scrolls its own cards.
  root: {
    display: 'flex',
    alignItems: 'stretch',
    gap: tokens.spacingHorizontalM,
    overflowX: 'auto',
    overflowY: 'hidden',
    flex: 1,
    minHeight: 0,
    paddingBottom: tokens.spacingVerticalS,
  },
});

type DragData = { type: 'card'; ticketId: number; laneId: number | null } | { type: 'lane'; tagId: number | null };
const dataOf = (value: unknown) => value as DragData | undefined;

/**
 * Cards land on the lane under the pointer (the nearest one when dragging with the keyboard); lanes sort
 * among the kanban lanes only (the lane without a tag stays first).
 */
const collision: CollisionDetection = (args) => {
  const lanes = args.droppableContainers.filter((c) => dataOf(c.data.current)?.type === 'lane');
  if (dataOf(args.active.data.current)?.type === 'lane') {
    return closestCenter({ ...args, droppableContainers: lanes.filter((c) => (c.data.current as { tagId: number | null }).tagId !== null) });
  }
  const under = pointerWithin({ ...args, droppableContainers: lanes });
  return under.length > 0 ? under : closestCenter({ ...args, droppableContainers: lanes });
};

/**
 * The keyboard: left and right arrows take a card to the neighbouring lane (dnd-kit's sortable getter only
 * moves sortable items, and cards are not sorted); lanes themselves move as sortable items.
 */
const keyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  const { active, collisionRect, droppableRects, droppableContainers, over } = args.context;
  if (dataOf(active?.data.current)?.type !== 'card') return sortableKeyboardCoordinates(event, args);
  const step = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
  if (step === 0 || !collisionRect) return undefined;
  event.preventDefault();
  const lanes = droppableContainers
    .getEnabled()
    .flatMap((container) => {
      const rect = droppableRects.get(container.id);
      return rect && dataOf(container.data.current)?.type === 'lane' ? [{ id: container.id, rect }] : [];
    })
    .sort((a, b) => a.rect.left - b.rect.left);
  const at = lanes.findIndex((lane) => lane.id === over?.id);
  const next = lanes[at < 0 ? (step > 0 ? 0 : lanes.length - 1) : at + step];
  if (!next) return undefined;
  return { x: next.rect.left + (next.rect.width - collisionRect.width) / 2, y: next.rect.top + 48 };
};

export interface KanbanBoardProps {
  board: BoardState;
  canReorder: boolean;
  loadingLanes: ReadonlySet<number | null>;
  onLoadMore: (tagId: number | null) => void;
  onMove: (ticketId: number, tagId: number | null) => void;
  onReorder: (tagIds: number[]) => void;
  onOpen: (ticket: TicketView) => void;
}

/** The lanes and the drag and drop between them (pointer, touch and keyboard). */
export function KanbanBoard({ board, canReorder, loadingLanes, onLoadMore, onMove, onReorder, onOpen }: KanbanBoardProps) {
  const styles = useStyles();
  const { t } = useTranslation('kanban');
  const sensors = useSensors(
    // A click (the see-ticket button) is not a drag until the mouse moves a little; on a touch screen a
    // swipe scrolls the lanes and a long press picks the card up.
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates }),
  );
  const [dragged, setDragged] = useState<{ ticket: TicketView; laneId: number | null } | null>(null);
  const laneName = useCallback(
    (tagId: number | null | undefined) => {
      if (tagId === null) return t('noTagLane');
      return board.lanes.find((lane) => lane.tagId === tagId)?.tag?.name ?? '';
    },
    [board.lanes, t],
  );
  const laneIds = useMemo(() => board.lanes.map((lane) => laneDndId(lane.tagId)), [board.lanes]);
  const laneChoices = useMemo(() => board.lanes.map((lane) => ({ tagId: lane.tagId, name: laneName(lane.tagId) })), [board.lanes, laneName]);

  const onDragStart = ({ active }: DragStartEvent) => {
    const data = dataOf(active.data.current);
    if (data?.type === 'card' && board.tickets[data.ticketId]) setDragged({ ticket: board.tickets[data.ticketId], laneId: data.laneId });
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragged(null);
    const from = dataOf(active.data.current);
    const to = dataOf(over?.data.current);
    if (!from || !to || to.type !== 'lane') return;
    if (from.type === 'card') {
      if (from.laneId !== to.tagId) onMove(from.ticketId, to.tagId);
      return;
    }
    if (active.id === over?.id || from.tagId === null || to.tagId === null) return;
    const kanban = board.lanes.flatMap((lane) => (lane.tagId === null ? [] : [lane.tagId]));
    onReorder(arrayMove(kanban, kanban.indexOf(from.tagId), kanban.indexOf(to.tagId)));
  };

  // What a screen reader hears while dragging.
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      const d = dataOf(active.data.current);
      return d?.type === 'card' ? t('announcements.pickedCard', { id: d.ticketId }) : t('announcements.pickedLane', { lane: laneName(d?.tagId) });
    },
    onDragOver: ({ active, over }) => {
      const d = dataOf(active.data.current);
      const o = dataOf(over?.data.current);
      if (!o || o.type !== 'lane') return undefined;
      return d?.type === 'card'
        ? t('announcements.overLane', { id: d.ticketId, lane: laneName(o.tagId) })
        : t('announcements.overLaneLane', { lane: laneName(d?.tagId), over: laneName(o.tagId) });
    },
    onDragEnd: ({ active, over }) => {
      const d = dataOf(active.data.current);
      const o = dataOf(over?.data.current);
      if (d?.type === 'card') return o?.type === 'lane' ? t('announcements.droppedCard', { id: d.ticketId, lane: laneName(o.tagId) }) : t('announcements.cancelled', { id: d.ticketId });
      return t('announcements.droppedLane', { lane: laneName(d?.tagId) });
    },
    onDragCancel: ({ active }) => {
      const d = dataOf(active.data.current);
      return d?.type === 'card' ? t('announcements.cancelled', { id: d.ticketId }) : undefined;
    },
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collision}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDragged(null)}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('dragInstructions') } }}
    >
      <SortableContext items={laneIds} strategy={horizontalListSortingStrategy}>
        <div className={styles.root} data-testid="kanban-board">
          {board.lanes.map((lane) => (
            <KanbanLane
              key={laneDndId(lane.tagId)}
              lane={lane}
              name={laneName(lane.tagId)}
              tickets={board.tickets}
              sortable={canReorder}
              loading={loadingLanes.has(lane.tagId)}
              onLoadMore={onLoadMore}
              onOpen={onOpen}
              lanes={laneChoices}
              onMove={onMove}
            />
          ))}
        </div>
      </SortableContext>
      <DragOverlay dropAnimation={null}>
        {dragged ? <KanbanCard ticket={dragged.ticket} laneId={dragged.laneId} laneName={laneName(dragged.laneId)} onOpen={onOpen} overlay /> : null}
      </DragOverlay>
    </DndContext>
  );
}
