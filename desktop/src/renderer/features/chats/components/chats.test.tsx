import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { realtime } from '../../../api/socket';
import { collectToasts, fakeServer, planReply, preloadPages, renderApp, signIn, type FakeCall } from '../../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';
import type { Chat, ChatMessage } from '../api/chats';
import { inScreenOrder, unreadsOf, upsertChat } from '../lib/chat-rules';

const ME = { id: 7, name: 'Ana Admin' };
const BIA = { id: 8, name: 'Bia Agent' };
const CAIO = { id: 9, name: 'Caio Costa' };
beforeAll(() => preloadPages(() => import('./chats-page')), 120_000);

const uuidOf = (id: number) => `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`;

const makeChat = (id: number, overrides: Partial<Chat> = {}): Chat => ({
  id,
  uuid: uuidOf(id),
  title: `Chat ${id}`,
  ownerId: ME.id,
  lastMessage: '',
  companyId: 3,
  users: [
    { userId: ME.id, unreads: 0, user: ME },
    { userId: BIA.id, unreads: 0, user: BIA },
  ],
  createdAt: '2030-01-01T10:00:00.000Z',
  updatedAt: `2030-01-01T10:${String(id).padStart(2, '0')}:00.000Z`,
  ...overrides,
});
const makeMessage = (id: number, chatId: number, sender = BIA, overrides: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  chatId,
  message: `message ${id}`,
  senderId: sender.id,
  sender,
  mediaType: null,
  mediaName: null,
  mediaUrl: null,
  createdAt: new Date(Date.UTC(2030, 0, 1, 12, 0, id)).toISOString(),
  updatedAt: new Date(Date.UTC(2030, 0, 1, 12, 0, id)).toISOString(),
  ...overrides,
});
const withUnread = (chat: Chat, unreads: number): Chat => ({
  ...chat,
  users: chat.users.map((u) => (u.userId === ME.id ? { ...u, unreads } : u)),
});

/** GET/POST/PUT/DELETE /chats in memory, as the server answers them (pages of 20 from the newest, each oldest first). */
const chatsServer = (options: { chats: Chat[]; messages?: ChatMessage[]; plan?: boolean; unreadCount?: number }) => {
  const chats = [...options.chats];
  const messages = [...(options.messages ?? [])];
  const calls = fakeServer((call: FakeCall) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply({ useInternalChat: options.plan ?? true });
    if (call.url === '/users/list') return { data: [ME, BIA, CAIO] };
    if (call.method === 'GET' && call.url === '/chats' && (call.params as { unread?: boolean } | undefined)?.unread) {
      const unread = chats.filter((c) => unreadsOf(c, ME.id) > 0);
      return { data: { records: unread, count: options.unreadCount ?? unread.length, hasMore: false } };
    }
    if (call.method === 'GET' && call.url === '/chats') return { data: { records: chats, count: chats.length, hasMore: false } };
    if (call.method === 'POST' && call.url === '/chats') {
      const body = call.data as { title: string; users: { id: number }[] };
      const created = makeChat(50, { title: body.title, users: [ME, ...body.users.map((u) => [BIA, CAIO].find((x) => x.id === u.id)!)].map((u) => ({ userId: u.id, unreads: 0, user: u })) });
      chats.unshift(created);
      return { status: 201, data: created };
    }
    const m = /^\/chats\/([^/]+)(\/messages|\/read)?$/.exec(call.url);
    if (!m) return { data: [] };
    const chat = chats.find((c) => String(c.id) === m[1] || c.uuid === m[1]);
    if (!chat) return { status: 404, data: { error: 'ERR_NO_CHAT_FOUND' } };
    if (m[2] === '/messages' && call.method === 'GET') {
      const page = Number((call.params as { pageNumber?: number }).pageNumber ?? 1);
      const mine = messages.filter((x) => x.chatId === chat.id).sort((a, b) => b.id - a.id);
      const slice = mine.slice((page - 1) * 20, page * 20).reverse();
      return { data: { records: slice, count: mine.length, hasMore: mine.length > page * 20 } };
    }
    if (m[2] === '/messages' && call.method === 'POST') {
      const created = makeMessage(900 + messages.length, chat.id, ME, { message: (call.data as { message: string }).message });
      messages.push(created);
      return { status: 201, data: created };
    }
    if (m[2] === '/read') {
      Object.assign(chat, withUnread(chat, 0));
      return { data: chat };
    }
    if (call.method === 'GET') return { data: chat };
    if (call.method === 'PUT') return { data: Object.assign(chat, call.data) };
    if (call.method === 'DELETE') {
      chats.splice(chats.indexOf(chat), 1);
      return { data: { message: 'Chat deleted' } };
    }
    return undefined;
  });
  return { calls, chats, messages };
};

let io: TestSocketServer;
beforeAll(async () => {
  io = await startSocketServer();
});
afterAll(async () => {
  await io.close();
});
afterEach(() => {
  realtime.disconnect();
  io.reset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.innerWidth = 1024;
});

const connect = async () => {
  realtime.connect({ url: io.url, token: 'token-1', companyId: 3, userId: ME.id, renewToken: async () => null });
  await until(() => realtime.connected && io.sockets.length > 0);
};

describe('chat rules', () => {
  it('lays pages that start at the newest out oldest first, each message once', () => {
    const page1 = { records: [makeMessage(3, 1), makeMessage(4, 1)] };
    const page2 = { records: [makeMessage(1, 1), makeMessage(2, 1), makeMessage(3, 1)] };
    expect(inScreenOrder([page1, page2]).map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it("reads the user's own unread counter and keeps the most active first", () => {
    const chats = [withUnread(makeChat(1), 2), makeChat(2), withUnread(makeChat(3), 1)];
    expect(chats.map((c) => unreadsOf(c, ME.id))).toEqual([2, 0, 1]);
    expect(chats.map((c) => unreadsOf(c, BIA.id))).toEqual([0, 0, 0]);
    const moved = upsertChat(chats, { ...makeChat(1), updatedAt: '2031-01-01T00:00:00.000Z' });
    expect(moved.map((c) => c.id)).toEqual([1, 3, 2]);
  });
});

describe('/chats', () => {
  it('lists the chats with their unread counts; opening one shows its messages newest at the bottom and marks it read', async () => {
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    const { calls } = chatsServer({
      chats: [withUnread(makeChat(2, { lastMessage: 'Bia Agent: lunch?' }), 3), makeChat(1)],
      messages: [makeMessage(1, 2), makeMessage(2, 2, ME), makeMessage(3, 2)],
    });
    signIn({ id: ME.id, name: ME.name });
    renderApp('/chats');
    expect((await screen.findByTestId('chat-unread-2')).textContent).toBe('3');
    expect(screen.queryByTestId('chat-unread-1')).toBeNull();
    expect(screen.getByTestId('chat-last-2').textContent).toBe('Bia Agent: lunch?');

    fireEvent.click(screen.getByTestId('chat-item-2'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/chats/${uuidOf(2)}`));
    await screen.findByTestId('chat-message-3');
    const shown = [...screen.getByTestId('chat-messages').querySelectorAll('[data-testid^="chat-message-"]')].map((el) => el.getAttribute('data-testid'));
    expect(shown).toEqual(['chat-message-1', 'chat-message-2', 'chat-message-3']);
    expect(screen.getByTestId('chat-message-2').dataset.mine).toBe('true');
    expect(screen.getByTestId('chat-message-3').dataset.mine).toBe('false');
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/chats/2/read')).toBe(true));
    // The read call names no user: the server knows who asks.
    expect(calls.find((c) => c.url === '/chats/2/read')?.data).toBeUndefined();
    await waitFor(() => expect(screen.queryByTestId('chat-unread-2')).toBeNull());
  });

  it('loads older messages when scrolled near the top, above the ones shown', async () => {
    const { calls } = chatsServer({ chats: [makeChat(1)], messages: Array.from({ length: 25 }, (_, i) => makeMessage(i + 1, 1)) });
    signIn({ id: ME.id });
    renderApp(`/chats/${uuidOf(1)}`);
    await screen.findByTestId('chat-message-25');
    expect(screen.queryByTestId('chat-message-5')).toBeNull();
    // happy-dom has no layout: every scroll position is 0, within 600 px of the top.
    fireEvent.scroll(screen.getByTestId('chat-messages'));
    await screen.findByTestId('chat-message-1');
    const shown = [...screen.getByTestId('chat-messages').querySelectorAll('[data-testid^="chat-message-"]')].map((el) => Number(el.getAttribute('data-testid')!.split('-').at(-1)));
    expect(shown).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const pages = calls.filter((c) => c.method === 'GET' && c.url === '/chats/1/messages').map((c) => (c.params as { pageNumber: number }).pageNumber);
    expect(pages).toEqual([1, 2]);
    // Nothing older left: scrolling again asks for nothing.
    fireEvent.scroll(screen.getByTestId('chat-messages'));
    expect(calls.filter((c) => c.method === 'GET' && c.url === '/chats/1/messages')).toHaveLength(2);
  });

  it('sends a message with Enter; blank text is not sent', async () => {
    const { calls } = chatsServer({ chats: [makeChat(1)] });
    signIn({ id: ME.id });
    renderApp(`/chats/${uuidOf(1)}`);
    const input = (await screen.findByTestId('chat-input')).querySelector('textarea') ?? screen.getByTestId('chat-input');
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.change(input, { target: { value: 'On my way' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(screen.getByText('On my way')).toBeTruthy());
    const posts = calls.filter((c) => c.method === 'POST' && c.url === '/chats/1/messages');
    expect(posts.map((c) => c.data)).toEqual([{ message: 'On my way' }]);
    await waitFor(() => expect((input as HTMLTextAreaElement).value).toBe(''));
  });

  it('sends an attachment as multipart with the typed text', async () => {
    const { calls } = chatsServer({ chats: [makeChat(1)] });
    signIn({ id: ME.id });
    renderApp(`/chats/${uuidOf(1)}`);
    const fileInput = (await screen.findByTestId('chat-file-input')) as HTMLInputElement;
    const file = new File(['%PDF-1.4'], 'report.pdf', { type: 'application/pdf' });
    fireEvent.change(fileInput, { target: { files: [file] } });
    expect((await screen.findByTestId('chat-file-chip')).textContent).toContain('report.pdf');
    fireEvent.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/chats/1/messages')).toBe(true));
    const form = calls.find((c) => c.method === 'POST' && c.url === '/chats/1/messages')!.data as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('medias') as File).name).toBe('report.pdf');
    await waitFor(() => expect(screen.queryByTestId('chat-file-chip')).toBeNull());
  });

  it('shows edit and delete only on chats the user owns', async () => {
    chatsServer({ chats: [makeChat(1), makeChat(2, { ownerId: BIA.id })] });
    signIn({ id: ME.id });
    renderApp(`/chats/${uuidOf(2)}`);
    await screen.findByTestId('chat-item-2');
    expect(screen.getByTestId('chat-edit-1')).toBeTruthy();
    expect(screen.queryByTestId('chat-edit-2')).toBeNull();
    expect(screen.queryByTestId('chat-delete-2')).toBeNull();
    await screen.findByTestId('chat-conversation');
    expect(screen.queryByTestId('conversation-edit')).toBeNull();
  });

  it('deletes an owned chat after confirmation', async () => {
    const { calls } = chatsServer({ chats: [makeChat(1), makeChat(2)] });
    const toasts = collectToasts();
    signIn({ id: ME.id });
    renderApp('/chats');
    fireEvent.click(await screen.findByTestId('chat-delete-1'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getAllByRole('button').at(-1)!);
    await waitFor(() => expect(screen.queryByTestId('chat-item-1')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/chats/1')).toBe(true);
    expect(toasts.map((t) => t.message)).toContain('Chat deleted.');
  });

  it('the new-chat dialog needs a title and a participant, then creates the chat with users as [{id}]', async () => {
    const { calls } = chatsServer({ chats: [] });
    signIn({ id: ME.id });
    renderApp('/chats');
    fireEvent.click(await screen.findByTestId('chat-new'));
    await screen.findByTestId('chat-dialog');
    fireEvent.click(screen.getByTestId('chat-save'));
    await screen.findByText('Give the chat a title.');
    expect(screen.getByText('Pick at least one participant.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/chats')).toBe(false);

    const title = screen.getByTestId('chat-title').querySelector('input') ?? screen.getByTestId('chat-title');
    fireEvent.change(title, { target: { value: 'Night shift' } });
    // The user does not pick themselves: only the others are listed.
    await screen.findByTestId(`chat-user-${CAIO.id}`);
    expect(screen.queryByTestId(`chat-user-${ME.id}`)).toBeNull();
    fireEvent.click(screen.getByTestId(`chat-user-${CAIO.id}`));
    fireEvent.click(screen.getByTestId('chat-save'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/chats/${uuidOf(50)}`));
    expect(calls.find((c) => c.method === 'POST' && c.url === '/chats')?.data).toEqual({ title: 'Night shift', users: [{ id: CAIO.id }] });
    expect((await screen.findByTestId('chat-title-shown')).textContent).toBe('Night shift');
  });

  it('has two tabs under 600 px: picking a chat switches to its messages, back returns to the list', async () => {
    window.innerWidth = 400;
    chatsServer({ chats: [makeChat(1)], messages: [makeMessage(1, 1)] });
    signIn({ id: ME.id });
    renderApp('/chats');
    await screen.findByTestId('chat-tabs');
    fireEvent.click(await screen.findByTestId('chat-item-1'));
    await screen.findByTestId('chat-message-1');
    expect(screen.queryByTestId('chat-list')).toBeNull();
    fireEvent.click(screen.getByTestId('chat-back'));
    await screen.findByTestId('chat-list');
  });

  it("sends users whose plan has no internal chat to / with a toast, without asking for chats", async () => {
    const { calls } = chatsServer({ chats: [makeChat(1)], plan: false });
    const toasts = collectToasts();
    signIn({ id: ME.id });
    renderApp('/chats');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    await waitFor(() => expect(toasts.map((t) => t.intent)).toContain('info'));
    expect(calls.some((c) => c.url === '/chats')).toBe(false);
  });
});

describe('realtime and the bell', () => {
  it("a colleague's message updates the list and the bell, notifies on the desktop and feeds the tray badge", async () => {
    const desktop = { notify: vi.fn(async () => true), setUnreadCount: vi.fn(async () => undefined) };
    vi.stubGlobal('desktop', desktop);
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    chatsServer({ chats: [makeChat(1), makeChat(2)] });
    signIn({ id: ME.id });
    await connect();
    renderApp('/chats');
    await screen.findByTestId('chat-item-2');

    const chat = { ...withUnread(makeChat(1, { lastMessage: 'Bia Agent: are you there?' }), 1), updatedAt: '2031-01-01T00:00:00.000Z' };
    act(() => {
      io.sockets[0].emit('company-3-chat', { action: 'new-message', newMessage: makeMessage(70, 1, BIA, { message: 'are you there?' }), chat });
    });
    expect((await screen.findByTestId('chat-unread-1')).textContent).toBe('1');
    expect(screen.getByTestId('chat-last-1').textContent).toBe('Bia Agent: are you there?');
    // Most recently active first.
    const order = [...screen.getByTestId('chat-list').querySelectorAll('[data-testid^="chat-item-"]')].map((el) => el.getAttribute('data-testid'));
    expect(order).toEqual(['chat-item-1', 'chat-item-2']);
    await waitFor(() => expect(desktop.notify).toHaveBeenCalledWith({ title: 'Chat 1', body: 'Bia Agent: are you there?', chatUuid: uuidOf(1) }));
    await waitFor(() => expect(desktop.setUnreadCount).toHaveBeenLastCalledWith(1));
    expect(within(screen.getByTestId('chats-bell')).getByText('1')).toBeTruthy();

    // Its own message raises nothing.
    desktop.notify.mockClear();
    act(() => {
      io.sockets[0].emit('company-3-chat', { action: 'new-message', newMessage: makeMessage(71, 2, ME), chat: makeChat(2, { updatedAt: '2031-02-01T00:00:00.000Z' }) });
    });
    await waitFor(() => expect(screen.getByTestId('chat-list').querySelector('[data-testid^="chat-item-"]')?.getAttribute('data-testid')).toBe('chat-item-2'));
    expect(desktop.notify).not.toHaveBeenCalled();

    // Deleted by its owner: gone from the list.
    act(() => {
      io.sockets[0].emit('company-3-chat', { action: 'delete', id: 1 });
    });
    await waitFor(() => expect(screen.queryByTestId('chat-item-1')).toBeNull());
    await waitFor(() => expect(desktop.setUnreadCount).toHaveBeenLastCalledWith(0));
  });

  it('the bell counts every unread chat the server counts, not only those of the loaded list, and lists them', async () => {
    const desktop = { notify: vi.fn(async () => true), setUnreadCount: vi.fn(async () => undefined) };
    vi.stubGlobal('desktop', desktop);
    // 60 chats unread in all; the first page of them holds chat 3.
    const { calls } = chatsServer({ chats: [makeChat(1), makeChat(2), withUnread(makeChat(3), 4)], unreadCount: 60 });
    signIn({ id: ME.id });
    await connect();
    renderApp('/tickets');
    const bell = await screen.findByTestId('chats-bell');
    await waitFor(() => expect(within(bell).getByText('60')).toBeTruthy());
    await waitFor(() => expect(desktop.setUnreadCount).toHaveBeenLastCalledWith(60));
    // The bell needs no page of the whole list.
    expect(calls.filter((c) => c.url === '/chats').map((c) => c.params)).toEqual([{ unread: true }]);
    fireEvent.click(bell.querySelector('button[aria-label="Internal chat"]')!);
    expect((await screen.findByTestId('chats-bell-item-3')).textContent).toContain('Chat 3');
    expect(screen.queryByTestId('chats-bell-item-1')).toBeNull();
    // Read elsewhere (another window): out of the bell, one fewer.
    act(() => {
      io.sockets[0].emit('company-3-chat', { action: 'update', chat: withUnread(makeChat(3), 0) });
    });
    await waitFor(() => expect(screen.queryByTestId('chats-bell-item-3')).toBeNull());
    await waitFor(() => expect(desktop.setUnreadCount).toHaveBeenLastCalledWith(59));
  });

  it('a message in the open chat shows at the bottom without a notification', async () => {
    const desktop = { notify: vi.fn(async () => true), setUnreadCount: vi.fn(async () => undefined) };
    vi.stubGlobal('desktop', desktop);
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    chatsServer({ chats: [makeChat(1)], messages: [makeMessage(1, 1)] });
    signIn({ id: ME.id });
    await connect();
    renderApp(`/chats/${uuidOf(1)}`);
    await screen.findByTestId('chat-message-1');
    act(() => {
      io.sockets[0].emit('company-3-chat', { action: 'new-message', newMessage: makeMessage(2, 1, BIA, { message: 'hello again' }), chat: withUnread(makeChat(1), 1) });
    });
    await screen.findByTestId('chat-message-2');
    const shown = [...screen.getByTestId('chat-messages').querySelectorAll('[data-testid^="chat-message-"]')].map((el) => el.getAttribute('data-testid'));
    expect(shown).toEqual(['chat-message-1', 'chat-message-2']);
    expect(desktop.notify).not.toHaveBeenCalled();
  });
});
