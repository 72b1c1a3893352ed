import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { KanbanBoardView, TagView, TicketView } from '@atrium/shared';
import { realtime } from '../../../api/socket';
import { collectToasts, fakeServer, planReply, renderApp, signIn, type FakeCall } from '../../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';

const tag = (id: number, name: string, color = '#6264a7'): TagView => ({
  id,
  name,
  color,
  kanban: 1,
  position: null,
  userId: null,
  companyId: 3,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});
const ticket = (id: number, minute: number, tags: TagView[] = [], extra: Partial<TicketView> = {}): TicketView => ({
  id,
  uuid: `uuid-${id}`,
  status: 'pending',
  contactId: id,
  contact: {
    id,
    name: `Cliente ${id}`,
    number: `55119000000${id}`,
    email: '',
    profilePicUrl: '',
    isGroup: false,
    uuid: `c-${id}`,
    companyId: 3,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  },
  userId: null,
  user: null,
  queueId: 1,
  queue: { id: 1, name: 'Vendas', color: '#ff0000' },
  whatsappId: 1,
  whatsapp: null,
  isGroup: false,
  chatbot: false,
  lastMessage: `mensagem ${id}`,
  lastMessageAt: null,
  unreadMessages: 0,
  useIntegration: false,
  integrationId: null,
  promptId: null,
  companyId: 3,
  tags: tags.map((t) => ({ id: t.id, name: t.name, color: t.color })),
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString(),
  ...extra,
});

const NEW = tag(10, 'Novo');
const DONE = tag(20, 'Fechando');

const boardView = (): KanbanBoardView => ({
  tickets: [
    ticket(1, 5, [], { unreadMessages: 3, user: { id: 7, name: 'Ana Admin' }, userId: 7, status: 'open' }),
    ticket(2, 4, [NEW]),
    ticket(3, 3, [NEW]),
  ],
  lanes: [
    { tagId: null, tag: null, count: 1, hasMore: false },
    { tagId: 10, tag: NEW, count: 25, hasMore: true },
    { tagId: 20, tag: DONE, count: 0, hasMore: false },
  ],
});

/** The kanban's calls; `move` answers PUT /ticket/{id}/kanban (undefined: the moved ticket as the server shows it). */
type Reply = { status?: number; data?: unknown } | undefined;
const server = (options: { move?: (call: FakeCall) => Reply | Promise<Reply>; plan?: boolean } = {}) => {
  const view = boardView();
  return fakeServer(async (call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply({ useKanban: options.plan ?? true });
    if (call.method === 'GET' && call.url === '/ticket/kanban') {
      const params = call.params as { lane?: string | number; pageNumber?: number };
      if (params.lane !== undefined) return { data: { tickets: [ticket(4, 1, [NEW])], count: 25, hasMore: false } };
      return { data: view };
    }
    const moved = /^\/ticket\/(\d+)\/kanban$/.exec(call.url);
    if (call.method === 'PUT' && moved) {
      const custom = await options.move?.(call);
      if (custom) return custom;
      const id = Number(moved[1]);
      const target = [NEW, DONE].find((t) => t.id === (call.data as { tagId: number | null }).tagId);
      const before = view.tickets.find((t) => t.id === id)!;
      return { data: { ...before, tags: target ? [{ id: target.id, name: target.name, color: target.color }] : [] } };
    }
    if (call.method === 'PUT' && call.url === '/tags/kanban/order') return { data: { lista: [] } };
    return undefined;
  });
};

const laneCards = (tagId: number | 'none') =>
  within(screen.getByTestId(`kanban-cards-${tagId}`))
    .queryAllByTestId(/^kanban-card-/)
    .map((el) => Number(el.getAttribute('data-testid')!.replace('kanban-card-', '')));
const count = (tagId: number | 'none') => screen.getByTestId(`kanban-count-${tagId}`).textContent;

/** The card's "move to" menu: the same move as dragging it (dragging itself is checked in Chromium). */
const moveWithMenu = async (ticketId: number, to: number | 'none') => {
  fireEvent.click(screen.getByTestId(`kanban-move-${ticketId}`));
  fireEvent.click(await screen.findByTestId(`kanban-move-${ticketId}-to-${to}`));
};

/**
 * happy-dom lays nothing out: lanes get side-by-side boxes (320 px apart, in board order) and cards a box
 * inside theirs, so dnd-kit's keyboard sensor finds the neighbouring lane. The copy under the pointer
 * stands where the card being dragged is.
 */
const layOutLanes = () => {
  const original = HTMLElement.prototype.getBoundingClientRect;
  const spy = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const self = this.closest('[data-testid="kanban-drag-overlay"]')
      ? ((document.querySelector('[aria-pressed="true"][data-testid^="kanban-grab-"]')?.closest('[data-testid^="kanban-card-"]') as HTMLElement | null) ?? this)
      : this;
    const lane = self.closest('section[data-testid^="kanban-lane-"]') as HTMLElement | null;
    if (!lane) return original.call(this);
    const left = Array.from(document.querySelectorAll('section[data-testid^="kanban-lane-"]')).indexOf(lane) * 320;
    const [top, height] = self === lane ? [0, 600] : [60, 80];
    return { x: left, y: top, left, top, width: 300, height, right: left + 300, bottom: top + height, toJSON: () => ({}) } as DOMRect;
  });
  return () => spy.mockRestore();
};

beforeEach(() => {
  signIn({ profile: 'admin', companyId: 3, id: 7 });
});

describe('the kanban board', () => {
  it('shows a lane without tag and one per kanban tag, with counts and cards', async () => {
    const calls = server();
    renderApp('/kanban');
    await screen.findByTestId('kanban-card-1');
    expect(laneCards('none')).toEqual([1]);
    expect(laneCards(10)).toEqual([2, 3]);
    expect(laneCards(20)).toEqual([]);
    expect([count('none'), count(10), count(20)]).toEqual(['1', '25', '0']);
    expect(within(screen.getByTestId('kanban-lane-none')).getByText('No tag')).toBeTruthy();
    const card = screen.getByTestId('kanban-card-1');
    expect(within(card).getByText('Cliente 1')).toBeTruthy();
    expect(within(card).getByText('551190000001')).toBeTruthy();
    expect(within(card).getByText('mensagem 1')).toBeTruthy();
    expect(within(card).getByText('Vendas')).toBeTruthy();
    expect(within(card).getByText('Ana Admin')).toBeTruthy();
    expect(screen.getByTestId('kanban-unread-1').textContent).toBe('3');
    expect(calls.find((c) => c.url === '/ticket/kanban')?.params).toEqual({ showAll: 'false' });

    // The admin's switch asks for every ticket.
    fireEvent.click(screen.getByTestId('kanban-show-all'));
    await waitFor(() => expect(calls.filter((c) => c.url === '/ticket/kanban').at(-1)?.params).toEqual({ showAll: 'true' }));

    fireEvent.click(screen.getByTestId('kanban-open-1'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets/uuid-1'));
  });

  it('loads the next page of a lane when it is scrolled to the bottom', async () => {
    const calls = server();
    renderApp('/kanban');
    await screen.findByTestId('kanban-card-2');
    fireEvent.scroll(screen.getByTestId('kanban-cards-10'));
    await screen.findByTestId('kanban-card-4');
    expect(laneCards(10)).toEqual([2, 3, 4]);
    expect(calls.find((c) => (c.params as { lane?: number } | undefined)?.lane === 10)?.params).toEqual({ showAll: 'false', lane: 10, pageNumber: 2 });
  });

  it('moves a card at once on screen, then on the server', async () => {
    const toasts = collectToasts();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = server({ move: () => gate.then(() => undefined) });
    renderApp('/kanban');
    await screen.findByTestId('kanban-card-3');
    await moveWithMenu(3, 20);
    // On screen before the server has answered.
    await waitFor(() => expect(laneCards(20)).toEqual([3]));
    expect(laneCards(10)).toEqual([2]);
    expect([count(10), count(20)]).toEqual(['24', '1']);
    expect(calls.find((c) => c.method === 'PUT' && c.url === '/ticket/3/kanban')?.data).toEqual({ tagId: 20 });
    expect(toasts.some((t) => t.intent === 'success')).toBe(false);
    release();
    await waitFor(() => expect(toasts.some((t) => t.intent === 'success' && t.message.includes('Fechando'))).toBe(true));
    expect(laneCards(20)).toEqual([3]);
    expect([count(10), count(20)]).toEqual(['24', '1']);
  });

  it('moves a card with the keyboard: space picks it up, an arrow chooses the lane, space drops it', async () => {
    const restore = layOutLanes();
    try {
      const calls = server();
      renderApp('/kanban');
      // The card's handle (the contact's name) takes the keys: the card itself is no control around its buttons.
      const card = await screen.findByTestId('kanban-grab-3');
      card.focus();
      fireEvent.keyDown(card, { code: 'Space', key: ' ' });
      await screen.findByTestId('kanban-drag-overlay');
      // The sensor listens for the next keys once the drag has started.
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      fireEvent.keyDown(card, { code: 'ArrowRight', key: 'ArrowRight' });
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      fireEvent.keyDown(card, { code: 'Space', key: ' ' });
      await waitFor(() => expect(laneCards(20)).toEqual([3]));
      await waitFor(() => expect(calls.find((c) => c.method === 'PUT' && c.url === '/ticket/3/kanban')?.data).toEqual({ tagId: 20 }));
    } finally {
      restore();
    }
  });

  it('puts a card back, with a toast, when the server refuses the move', async () => {
    const toasts = collectToasts();
    let answer: () => void = () => {};
    const refused = new Promise<void>((resolve) => (answer = resolve));
    server({
      move: () => {
        answer();
        return { status: 403, data: { error: 'ERR_NO_PERMISSION' } };
      },
    });
    renderApp('/kanban');
    await screen.findByTestId('kanban-card-1');
    await moveWithMenu(1, 10);
    await refused;
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error' && t.message.includes('could not be moved'))).toBe(true));
    expect(laneCards('none')).toEqual([1]);
    expect(laneCards(10)).toEqual([2, 3]);
    expect([count('none'), count(10)]).toEqual(['1', '25']);
  });

  it('sends a company without the kanban home', async () => {
    const toasts = collectToasts();
    server({ plan: false });
    renderApp('/kanban');
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error')).toBe(true));
    await waitFor(() => expect(screen.getByTestId('location').textContent).not.toBe('/kanban'));
  });
});

describe('the kanban board in realtime', () => {
  let socketServer: TestSocketServer;
  beforeAll(async () => {
    socketServer = await startSocketServer();
  });
  afterAll(async () => {
    await socketServer.close();
  });
  afterEach(() => realtime.disconnect());

  it("shows other agents' moves, new cards and removals, and only its company's", async () => {
    server();
    renderApp('/kanban');
    await screen.findByTestId('kanban-card-2');
    realtime.connect({ url: socketServer.url, token: 'token-1', companyId: 3, userId: 7, renewToken: async () => null });
    await until(() => realtime.connected && socketServer.sockets.length > 0);
    const socket = socketServer.sockets[socketServer.sockets.length - 1];
    // The board holds the ticket rooms the list uses.
    await until(() => socketServer.heard.filter((h) => h.event === 'joinTickets').length >= 2);
    expect(socketServer.heard.filter((h) => h.event === 'joinTickets').map((h) => h.args[0]).sort()).toEqual(['open', 'pending']);

    act(() => void socket.emit('company-3-ticket', { action: 'update', ticket: ticket(2, 4, [DONE]) }));
    await waitFor(() => expect(laneCards(20)).toEqual([2]));
    expect(laneCards(10)).toEqual([3]);
    expect([count(10), count(20)]).toEqual(['24', '1']);

    act(() => void socket.emit('company-3-ticket', { action: 'delete', ticketId: 3 }));
    await waitFor(() => expect(laneCards(10)).toEqual([]));

    act(() => void socket.emit('company-4-ticket', { action: 'update', ticket: ticket(9, 9, [DONE]) }));
    act(() => void socket.emit('company-3-ticket', { action: 'update', ticket: ticket(8, 8, []) }));
    await waitFor(() => expect(laneCards('none')).toEqual([8, 1]));
    expect(screen.queryByTestId('kanban-card-9')).toBeNull();
  });
});
