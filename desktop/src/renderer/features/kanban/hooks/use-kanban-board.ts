import { useCallback, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AppMessageEventPayload, TicketEventPayload, TicketView } from '@atrium/shared';
import { errorMessage, toastError } from '../../../api/errors';
import { useRealtimeEvent, useRealtimeRoom } from '../../../api/socket';
import { toast } from '../../../components/toasts';
import { useCurrentUser, useIsAdmin } from '../../../stores/auth-store';
import { kanbanApi, type BoardFilters } from '../api/kanban';
import {
  appendLanePage,
  belongsOnBoard,
  boardFromView,
  isMove,
  markRead,
  moveTicket,
  removeTicket,
  reorderLanes,
  upsertTicket,
  type BoardState,
} from '../board-state';

export const KANBAN_KEY = ['kanban'] as const;
export const kanbanKey = (filters: BoardFilters) => [...KANBAN_KEY, filters] as const;

/**
 * The board's server data: the first page of every lane (TanStack Query), later pages on demand, moves and
 * lane order applied at once and reverted on failure, and what other agents do arriving in realtime (the
 * ticket rooms the ticket list uses, so the server decides who hears what).
 */
export function useKanbanBoard(filters: BoardFilters, enabled = true) {
  const client = useQueryClient();
  const { t } = useTranslation('kanban');
  const user = useCurrentUser();
  const isAdmin = useIsAdmin();
  const key = useMemo(() => kanbanKey(filters), [filters]);
  const query = useQuery({
    queryKey: key,
    queryFn: async () => boardFromView(await kanbanApi.board(filters)),
    enabled,
  });

  const patch = useCallback(
    (change: (board: BoardState) => BoardState) => client.setQueryData<BoardState>(key, (old) => (old ? change(old) : old)),
    [client, key],
  );

  useRealtimeRoom('tickets', 'pending', enabled);
  useRealtimeRoom('tickets', 'open', enabled);
  const viewer = useMemo(() => ({ userId: user?.id ?? 0, isAdmin }), [user?.id, isAdmin]);
  const place = (ticket: TicketView) =>
    patch((board) => (belongsOnBoard(ticket, viewer, filters) ? upsertTicket(board, ticket) : removeTicket(board, ticket.id)));
  useRealtimeEvent<TicketEventPayload>('ticket', (event) => {
    if (event.action === 'update') place(event.ticket);
    else if (event.action === 'delete') patch((board) => removeTicket(board, event.ticketId));
    else if (event.action === 'updateUnread') patch((board) => markRead(board, event.ticketId));
  });
  useRealtimeEvent<AppMessageEventPayload>('appMessage', (event) => {
    if (event.action === 'create') place(event.ticket);
  });
  // Lanes added, renamed, recoloured, reordered or removed: the board is read again.
  useRealtimeEvent('tag', () => void client.invalidateQueries({ queryKey: KANBAN_KEY }));

  const [loadingLanes, setLoadingLanes] = useState<ReadonlySet<number | null>>(new Set());
  const loading = useRef(new Set<number | null>());
  const loadMore = useCallback(
    async (tagId: number | null) => {
      const lane = client.getQueryData<BoardState>(key)?.lanes.find((l) => l.tagId === tagId);
      if (!lane || !lane.hasMore || loading.current.has(tagId)) return;
      loading.current.add(tagId);
      setLoadingLanes(new Set(loading.current));
      try {
        const pageNumber = lane.pages + 1;
        const page = await kanbanApi.lanePage(filters, tagId, pageNumber);
        patch((board) => appendLanePage(board, tagId, page, pageNumber));
      } catch (err) {
        toastError(err);
      } finally {
        loading.current.delete(tagId);
        setLoadingLanes(new Set(loading.current));
      }
    },
    [client, key, filters, patch],
  );

  const move = useCallback(
    async (ticketId: number, tagId: number | null) => {
      const before = client.getQueryData<BoardState>(key);
      if (!before || !isMove(before, ticketId, tagId)) return;
      const previous = before.tickets[ticketId];
      const laneName = before.lanes.find((lane) => lane.tagId === tagId)?.tag?.name ?? t('noTagLane');
      // A board load in flight would answer with the card where it was.
      await client.cancelQueries({ queryKey: key });
      patch((board) => moveTicket(board, ticketId, tagId));
      try {
        const ticket = await kanbanApi.move(ticketId, tagId);
        patch((board) => upsertTicket(board, ticket));
        toast.success(t('moved', { lane: laneName }));
      } catch (err) {
        // Back where it was; whatever else changed on the board meanwhile stays.
        patch((board) => upsertTicket(board, previous));
        toast.error(`${t('moveFailed')} ${errorMessage(err)}`);
      }
    },
    [client, key, patch, t],
  );

  const reorder = useCallback(
    async (tagIds: number[]) => {
      const before = client.getQueryData<BoardState>(key);
      if (!before) return;
      const previous = before.lanes.flatMap((lane) => (lane.tagId === null ? [] : [lane.tagId]));
      patch((board) => reorderLanes(board, tagIds));
      try {
        await kanbanApi.reorder(tagIds);
      } catch (err) {
        patch((board) => reorderLanes(board, previous));
        toast.error(`${t('reorderFailed')} ${errorMessage(err)}`);
      }
    },
    [client, key, patch, t],
  );

  return { board: query.data, isLoading: query.isPending && enabled, loadMore, loadingLanes, move, reorder };
}
