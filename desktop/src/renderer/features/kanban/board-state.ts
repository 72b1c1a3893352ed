import type { KanbanBoardView, KanbanLanePageView, TagView, TicketView } from '@atrium/shared';

/**
 * The board as the screen keeps it: lanes in order with the ids of their loaded cards (newest activity
 * first), their counts and paging, and the tickets by id. Every change is a pure function of the old board,
 * so optimistic moves, realtime updates and later pages compose (and revert) without surprises.
 */
export interface LaneState {
  /** The kanban tag, or null for the lane of tickets without one. */
  tagId: number | null;
  tag: TagView | null;
  count: number;
  hasMore: boolean;
  /** Pages loaded so far. */
  pages: number;
  ids: number[];
}

export interface BoardState {
  lanes: LaneState[];
  tickets: Record<number, TicketView>;
}

const newestFirst = (a: TicketView, b: TicketView) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id - a.id;

/** The lanes (tag ids, null for none) a ticket sits in: each kanban tag it carries, or the lane without one. */
export const lanesOf = (ticket: Pick<TicketView, 'tags'>, laneTagIds: ReadonlySet<number>): (number | null)[] => {
  const tagged = ticket.tags.filter((tag) => laneTagIds.has(tag.id)).map((tag) => tag.id);
  return tagged.length > 0 ? tagged : [null];
};

const laneTagIdsOf = (lanes: LaneState[]) => new Set(lanes.flatMap((lane) => (lane.tagId === null ? [] : [lane.tagId])));

/** The board from GET /ticket/kanban: each ticket in the lanes its tags name. */
export const boardFromView = (view: KanbanBoardView): BoardState => {
  const tickets: Record<number, TicketView> = {};
  for (const ticket of view.tickets) tickets[ticket.id] = ticket;
  const laneTagIds = new Set(view.lanes.flatMap((lane) => (lane.tagId === null ? [] : [lane.tagId])));
  const sorted = [...view.tickets].sort(newestFirst);
  return {
    tickets,
    lanes: view.lanes.map((lane) => ({
      tagId: lane.tagId,
      tag: lane.tag,
      count: lane.count,
      hasMore: lane.hasMore,
      pages: 1,
      ids: sorted.filter((ticket) => lanesOf(ticket, laneTagIds).includes(lane.tagId)).map((ticket) => ticket.id),
    })),
  };
};

/** Adds a later page of one lane (cards already shown are not repeated). */
export const appendLanePage = (board: BoardState, tagId: number | null, page: KanbanLanePageView, pageNumber: number): BoardState => {
  const tickets = { ...board.tickets };
  for (const ticket of page.tickets) tickets[ticket.id] = ticket;
  return {
    tickets,
    lanes: board.lanes.map((lane) => {
      if (lane.tagId !== tagId) return lane;
      const known = new Set(lane.ids);
      return {
        ...lane,
        count: page.count,
        hasMore: page.hasMore,
        pages: Math.max(lane.pages, pageNumber),
        ids: [...lane.ids, ...page.tickets.filter((ticket) => !known.has(ticket.id)).map((ticket) => ticket.id)],
      };
    }),
  };
};

/**
 * Puts a card in a lane at its place by activity. A card that would come after the last loaded one of a
 * lane with more pages is left for those pages (only the count grows).
 */
const insertInto = (lane: LaneState, ticket: TicketView, tickets: Record<number, TicketView>, added: number): LaneState => {
  const ids = lane.ids.filter((id) => id !== ticket.id);
  const at = ids.findIndex((id) => tickets[id] && newestFirst(ticket, tickets[id]) < 0);
  if (at < 0 && lane.hasMore) return { ...lane, ids, count: lane.count + added };
  const next = [...ids];
  next.splice(at < 0 ? next.length : at, 0, ticket.id);
  return { ...lane, ids: next, count: lane.count + added };
};

/** Takes a card out of the board (counts of the lanes it was in drop). */
export const removeTicket = (board: BoardState, ticketId: number): BoardState => {
  const old = board.tickets[ticketId];
  if (!old) return board;
  const laneTagIds = laneTagIdsOf(board.lanes);
  const were = lanesOf(old, laneTagIds);
  const tickets = { ...board.tickets };
  delete tickets[ticketId];
  return {
    tickets,
    lanes: board.lanes.map((lane) =>
      were.includes(lane.tagId) ? { ...lane, ids: lane.ids.filter((id) => id !== ticketId), count: Math.max(0, lane.count - 1) } : lane,
    ),
  };
};

/**
 * A ticket's newer version (a realtime update, the server's answer to a move): it goes to the lanes its tags
 * name. A ticket not loaded yet may already be counted in a lane whose later pages are not loaded: it
 * joins that lane's count only when the lane is loaded whole (the next load of the board recounts).
 */
export const upsertTicket = (board: BoardState, ticket: TicketView): BoardState => {
  const known = ticket.id in board.tickets;
  const without = removeTicket(board, ticket.id);
  const tickets = { ...without.tickets, [ticket.id]: ticket };
  const now = lanesOf(ticket, laneTagIdsOf(board.lanes));
  return {
    tickets,
    lanes: without.lanes.map((lane) =>
      now.includes(lane.tagId) ? insertInto(lane, ticket, tickets, known || !lane.hasMore ? 1 : 0) : lane,
    ),
  };
};

/** The optimistic move: the card leaves its kanban lanes for `tagId`'s (null: the lane without one). */
export const moveTicket = (board: BoardState, ticketId: number, tagId: number | null): BoardState => {
  const ticket = board.tickets[ticketId];
  if (!ticket) return board;
  const laneTagIds = laneTagIdsOf(board.lanes);
  const target = board.lanes.find((lane) => lane.tagId === tagId);
  if (!target) return board;
  const kept = ticket.tags.filter((tag) => !laneTagIds.has(tag.id));
  const tags = target.tag ? [...kept, { id: target.tag.id, name: target.tag.name, color: target.tag.color }] : kept;
  return upsertTicket(board, { ...ticket, tags });
};

/** Whether a move changes anything: the card is not already only in that lane. */
export const isMove = (board: BoardState, ticketId: number, tagId: number | null): boolean => {
  const ticket = board.tickets[ticketId];
  if (!ticket) return false;
  const now = lanesOf(ticket, laneTagIdsOf(board.lanes));
  return !(now.length === 1 && now[0] === tagId);
};

/** A ticket's unread counter cleared (someone opened it). */
export const markRead = (board: BoardState, ticketId: number): BoardState => {
  const ticket = board.tickets[ticketId];
  if (!ticket || ticket.unreadMessages === 0) return board;
  return { ...board, tickets: { ...board.tickets, [ticketId]: { ...ticket, unreadMessages: 0 } } };
};

/** The kanban lanes in a new order (the lane without a tag stays first). */
export const reorderLanes = (board: BoardState, tagIds: number[]): BoardState => {
  const byTag = new Map(board.lanes.map((lane) => [lane.tagId, lane]));
  const named = tagIds.flatMap((id) => byTag.get(id) ?? []);
  const rest = board.lanes.filter((lane) => lane.tagId !== null && !tagIds.includes(lane.tagId));
  const none = byTag.get(null);
  return { ...board, lanes: [...(none ? [none] : []), ...named, ...rest] };
};

/**
 * Whether a ticket heard of in realtime belongs on this board: waiting or in attendance, and for an admin
 * without showAll waiting or their own (agents hear only of tickets they may see). A queue filter keeps
 * those queues, queue-less tickets and the user's own.
 */
export const belongsOnBoard = (
  ticket: TicketView,
  viewer: { userId: number; isAdmin: boolean },
  filters: { showAll: boolean; queueIds?: number[] },
): boolean => {
  if (ticket.status === 'closed') return false;
  const mine = ticket.userId === viewer.userId;
  if (viewer.isAdmin && !filters.showAll && ticket.status !== 'pending' && !mine) return false;
  if (filters.queueIds && ticket.queueId !== null && !mine && !filters.queueIds.includes(ticket.queueId)) return false;
  return true;
};
