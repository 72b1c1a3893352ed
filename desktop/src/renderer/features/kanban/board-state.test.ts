import { describe, expect, it } from 'vitest';
import type { KanbanBoardView, TagView, TicketView } from '@atrium/shared';
import { appendLanePage, belongsOnBoard, boardFromView, isMove, lanesOf, markRead, moveTicket, removeTicket, reorderLanes, upsertTicket } from './board-state';

const tag = (id: number, name = `Lane ${id}`): TagView => ({
  id,
  name,
  color: '#123456',
  kanban: 1,
  position: null,
  userId: null,
  companyId: 1,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});
const ticket = (id: number, minute: number, tagIds: number[] = [], extra: Partial<TicketView> = {}): TicketView => ({
  id,
  uuid: `uuid-${id}`,
  status: 'pending',
  contactId: id,
  contact: null,
  userId: null,
  user: null,
  queueId: null,
  queue: null,
  whatsappId: 1,
  whatsapp: null,
  isGroup: false,
  chatbot: false,
  lastMessage: `message ${id}`,
  lastMessageAt: null,
  unreadMessages: 2,
  useIntegration: false,
  integrationId: null,
  promptId: null,
  companyId: 1,
  tags: tagIds.map((t) => ({ id: t, name: t === 99 ? 'Plain' : `Lane ${t}`, color: '#123456' })),
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString(),
  ...extra,
});

/** None lane: 1 (newest), 2; lane 10: 3 (with a plain tag 99), 4 is on a later page; lane 20: empty. */
const view = (): KanbanBoardView => ({
  tickets: [ticket(2, 1), ticket(1, 5), ticket(3, 3, [10, 99])],
  lanes: [
    { tagId: null, tag: null, count: 2, hasMore: false },
    { tagId: 10, tag: tag(10), count: 30, hasMore: true },
    { tagId: 20, tag: tag(20), count: 0, hasMore: false },
  ],
});
const ids = (board: ReturnType<typeof boardFromView>) => board.lanes.map((lane) => [lane.tagId, lane.ids, lane.count]);

describe('the kanban board state', () => {
  it('places each ticket in the lanes its kanban tags name, newest activity first', () => {
    expect(ids(boardFromView(view()))).toEqual([
      [null, [1, 2], 2],
      [10, [3], 30],
      [20, [], 0],
    ]);
    expect(lanesOf(ticket(5, 0, [10, 20, 99]), new Set([10, 20]))).toEqual([10, 20]);
    expect(lanesOf(ticket(5, 0, [99]), new Set([10, 20]))).toEqual([null]);
  });

  it('moves a card optimistically: kanban tags swapped, other tags kept, counts follow', () => {
    const board = moveTicket(boardFromView(view()), 3, 20);
    expect(ids(board)).toEqual([
      [null, [1, 2], 2],
      [10, [], 29],
      [20, [3], 1],
    ]);
    expect(board.tickets[3].tags.map((t) => t.id)).toEqual([99, 20]);
    const back = moveTicket(board, 3, null);
    expect(ids(back)[0]).toEqual([null, [1, 3, 2], 3]);
    expect(back.tickets[3].tags.map((t) => t.id)).toEqual([99]);
    expect(isMove(back, 3, null)).toBe(false);
    expect(isMove(back, 3, 10)).toBe(true);
  });

  it('adds a later page without repeating cards', () => {
    const board = appendLanePage(boardFromView(view()), 10, { tickets: [ticket(3, 3, [10]), ticket(4, 0, [10])], count: 30, hasMore: true }, 2);
    expect(board.lanes[1]).toMatchObject({ ids: [3, 4], pages: 2, hasMore: true });
  });

  it('applies realtime updates: a moved card changes lanes, a new one is counted only where the lane is loaded whole', () => {
    let board = boardFromView(view());
    board = upsertTicket(board, ticket(1, 6, [20]));
    expect(ids(board)).toEqual([
      [null, [2], 1],
      [10, [3], 30],
      [20, [1], 1],
    ]);
    // Unknown ticket, newest, in a lane with more pages: shown on top, the count left to the server.
    board = upsertTicket(board, ticket(7, 9, [10]));
    expect(ids(board)[1]).toEqual([10, [7, 3], 30]);
    // Unknown and older than every loaded card of a lane with more pages: left for those pages.
    board = upsertTicket(board, ticket(8, 0, [10]));
    expect(ids(board)[1]).toEqual([10, [7, 3], 30]);
    // Unknown, in a lane loaded whole: counted.
    board = upsertTicket(board, ticket(9, 0));
    expect(ids(board)[0]).toEqual([null, [2, 9], 2]);
    board = removeTicket(board, 9);
    expect(ids(board)[0]).toEqual([null, [2], 1]);
    expect(markRead(board, 2).tickets[2].unreadMessages).toBe(0);
  });

  it('reorders lanes, the lane without a tag staying first', () => {
    const board = reorderLanes(boardFromView(view()), [20]);
    expect(board.lanes.map((lane) => lane.tagId)).toEqual([null, 20, 10]);
  });

  it('keeps on the board only what it shows', () => {
    const admin = { userId: 1, isAdmin: true };
    expect(belongsOnBoard(ticket(1, 0, [], { status: 'closed' }), admin, { showAll: true })).toBe(false);
    expect(belongsOnBoard(ticket(1, 0, [], { status: 'open', userId: 2 }), admin, { showAll: false })).toBe(false);
    expect(belongsOnBoard(ticket(1, 0, [], { status: 'open', userId: 2 }), admin, { showAll: true })).toBe(true);
    expect(belongsOnBoard(ticket(1, 0, [], { status: 'open', userId: 1 }), admin, { showAll: false })).toBe(true);
    expect(belongsOnBoard(ticket(1, 0, [], { queueId: 5 }), admin, { showAll: true, queueIds: [6] })).toBe(false);
    expect(belongsOnBoard(ticket(1, 0, [], { queueId: null }), admin, { showAll: true, queueIds: [6] })).toBe(true);
  });
});
