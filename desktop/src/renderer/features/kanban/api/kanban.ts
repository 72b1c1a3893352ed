import type { KanbanBoardView, KanbanLanePageView, TagView, TicketView } from '@atrium/shared';
import { KANBAN_NO_TAG_LANE } from '@atrium/shared';
import { api } from '../../../api/client';

/** The board's filters (spec 02 section 7: queueIds as JSON, showAll honoured for admins only). */
export interface BoardFilters {
  showAll: boolean;
  queueIds?: number[];
}

const params = (filters: BoardFilters) => ({
  showAll: filters.showAll ? 'true' : 'false',
  ...(filters.queueIds ? { queueIds: JSON.stringify(filters.queueIds) } : {}),
});

export const kanbanApi = {
  /** The first page of every lane, with each lane's count. */
  board: async (filters: BoardFilters) => (await api.get<KanbanBoardView>('/ticket/kanban', { params: params(filters) })).data,
  /** One more page of a lane (null: the lane without a kanban tag). */
  lanePage: async (filters: BoardFilters, tagId: number | null, pageNumber: number) =>
    (
      await api.get<KanbanLanePageView>('/ticket/kanban', {
        params: { ...params(filters), lane: tagId ?? KANBAN_NO_TAG_LANE, pageNumber },
      })
    ).data,
  /** Moves a card to a lane in one step (null: the lane without a kanban tag). */
  move: async (ticketId: number, tagId: number | null) => (await api.put<TicketView>(`/ticket/${ticketId}/kanban`, { tagId })).data,
  /** The lanes in the order an admin dragged them to. */
  reorder: async (tagIds: number[]) => (await api.put<{ lista: TagView[] }>('/tags/kanban/order', { tagIds })).data,
};
