import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { realtime } from '../../../api/socket';
import { renderApp, signIn } from '../../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';
import type { Ticket } from '../api/types';
import { makeMessage, makeTicket, ME, ticketsServer } from '../test/fake-tickets-server';

/**
 * The known bug: with a ticket's conversation open, a new customer message showed "unread 1" in the list,
 * because the server counts it unread until the newest page is read (GET /messages/{ticketId}).
 */
let io: TestSocketServer;
beforeAll(async () => {
  io = await startSocketServer();
});
afterAll(async () => {
  await io.close();
});
afterEach(() => {
  io.reset();
  vi.restoreAllMocks();
});

const TICKET = makeTicket(1, { unreadMessages: 0 });

const setup = async (focused: boolean) => {
  vi.spyOn(document, 'hasFocus').mockReturnValue(focused);
  const server = ticketsServer({ tickets: [structuredClone(TICKET), makeTicket(2)], messages: [makeMessage(1, 1, { body: 'Hello' })] });
  signIn({ id: ME.id });
  realtime.connect({ url: io.url, token: 'token-1', companyId: 3, userId: ME.id, renewToken: async () => null });
  renderApp('/tickets/uuid-1');
  await screen.findByTestId('message-1');
  await until(() => realtime.connected && io.heard.some((h) => h.event === 'joinChatBox' && h.args[0] === '1'));
  await waitFor(() => expect(server.state.newestPageReads[1]).toBe(1));
  return server;
};

/** What the server sends when the customer writes: the message, then the ticket with its new count. */
const customerWrites = (id: number, ticketId = 1, fromMe = false) => {
  const ticket: Ticket = { ...TICKET, id: ticketId, uuid: `uuid-${ticketId}`, unreadMessages: fromMe ? 0 : 1, lastMessage: `Message ${id}` };
  const socket = io.sockets[0];
  socket.emit('company-3-appMessage', { action: 'create', message: makeMessage(id, ticketId, { fromMe, createdAt: new Date().toISOString() }), ticket });
  socket.emit('company-3-ticket', { action: 'update', ticket });
};

/** The server's answer to reading the newest page: the lists reset the ticket's count. */
const serverMarksRead = (ticketId = 1) => io.sockets[0].emit('company-3-ticket', { action: 'updateUnread', ticketId });

const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

describe('the open conversation reads what arrives', () => {
  it('with the window focused: reads the newest page at once, so the list shows no unread', async () => {
    const server = await setup(true);
    customerWrites(5);
    await screen.findByTestId('message-5');
    await waitFor(() => expect(server.state.newestPageReads[1]).toBe(2));
    serverMarksRead();
    await waitFor(() => expect(screen.queryByTestId('ticket-unread-1')).toBeNull());
    // The message stays shown once, and the older one too.
    expect(screen.getAllByTestId('message-5')).toHaveLength(1);
    expect(screen.getByTestId('message-1')).toBeTruthy();
  });

  it('with the window in the background: unread until the window gets focus back', async () => {
    const server = await setup(false);
    customerWrites(6);
    await screen.findByTestId('message-6');
    expect(await screen.findByTestId('ticket-unread-1')).toBeTruthy();
    await pause(150);
    expect(server.state.newestPageReads[1]).toBe(1);

    vi.mocked(document.hasFocus).mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(server.state.newestPageReads[1]).toBe(2));
    serverMarksRead();
    await waitFor(() => expect(screen.queryByTestId('ticket-unread-1')).toBeNull());
    // A second focus with nothing new asks nothing.
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await pause(150);
    expect(server.state.newestPageReads[1]).toBe(2);
  });

  it("does not read for the agent's own messages or for other tickets", async () => {
    const server = await setup(true);
    customerWrites(7, 1, true);
    customerWrites(8, 2);
    await screen.findByTestId('message-7');
    expect(await screen.findByTestId('ticket-unread-2')).toBeTruthy();
    await pause(150);
    expect(server.state.newestPageReads[1]).toBe(1);
    expect(server.state.newestPageReads[2]).toBeUndefined();
  });

  it('a burst of messages costs at most two reads', async () => {
    const server = await setup(true);
    for (const id of [10, 11, 12, 13, 14]) customerWrites(id);
    await screen.findByTestId('message-14');
    await waitFor(() => expect(server.state.newestPageReads[1]).toBeGreaterThanOrEqual(2));
    await pause(200);
    expect(server.state.newestPageReads[1]).toBeLessThanOrEqual(3);
  });

  it('the header follows the contact edited elsewhere (contact update event)', async () => {
    await setup(true);
    const contact = TICKET.contact!;
    io.sockets[0].emit('company-3-contact', { action: 'update', contact: { ...contact, name: 'Renamed Elsewhere' } });
    io.sockets[0].emit('company-3-contact', { action: 'update', contact: { id: 999, name: 'Someone else', number: '1' } });
    await waitFor(() => expect(screen.getByTestId('conversation-contact').textContent).toContain('Renamed Elsewhere'));
  });
});
