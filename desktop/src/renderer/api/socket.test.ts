import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PRESENCE_PING_MS } from '@atrium/shared';
import { startSocketServer, until, type TestSocketServer } from '../test/socket-server';
import { RealtimeClient } from './socket';

let server: TestSocketServer;
const clients: RealtimeClient[] = [];

beforeAll(async () => {
  server = await startSocketServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  clients.forEach((c) => c.disconnect());
  clients.length = 0;
  server.reset();
});

const connect = (renewToken: () => Promise<string | null> = async () => null, token = 'token-1') => {
  const client = new RealtimeClient();
  clients.push(client);
  client.connect({ url: server.url, token, companyId: 3, userId: 7, renewToken });
  return client;
};

const events = (name: string) => server.heard.filter((h) => h.event === name);

describe('realtime client', () => {
  it('connects with the token in the query', async () => {
    const client = connect();
    await until(() => client.connected);
    expect(server.tokens).toEqual(['token-1']);
  });

  it('sends room registrations, re-sends them after a reconnect, and leaves on release', async () => {
    const client = connect();
    await until(() => client.connected);
    const releaseOpen = client.join('tickets', 'open');
    const releaseNotification = client.join('notification');
    client.join('chatBox', 'a1b2');
    await until(() => server.heard.length >= 3);
    expect(server.heard.map((h) => [h.event, ...h.args])).toEqual([
      ['joinTickets', 'open'],
      ['joinNotification'],
      ['joinChatBox', 'a1b2'],
    ]);
    const firstSocket = server.heard[0].socketId;

    // The network drops: socket.io reconnects on its own, and every registration is sent again.
    server.sockets[0].conn.close();
    await until(() => server.heard.filter((h) => h.socketId !== firstSocket).length >= 3);
    const again = server.heard.filter((h) => h.socketId !== firstSocket).map((h) => [h.event, ...h.args]);
    expect(again).toEqual(expect.arrayContaining([['joinTickets', 'open'], ['joinNotification'], ['joinChatBox', 'a1b2']]));

    releaseOpen();
    releaseNotification();
    await until(() => events('leaveTickets').length === 1 && events('leaveNotification').length === 1);
    expect(events('leaveTickets')[0].args).toEqual(['open']);
    expect(client.heldRooms()).toEqual([{ kind: 'chatBox', arg: 'a1b2' }]);
  });

  it('counts registrations: the room is left when the last holder releases', async () => {
    const client = connect();
    await until(() => client.connected);
    const a = client.join('tickets', 'pending');
    const b = client.join('tickets', 'pending');
    await until(() => events('joinTickets').length === 1);
    a();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events('leaveTickets')).toHaveLength(0);
    b();
    await until(() => events('leaveTickets').length === 1);
    expect(events('joinTickets')).toHaveLength(1);
  });

  it('delivers company events to listeners', async () => {
    const client = connect();
    await until(() => client.connected);
    const got: unknown[] = [];
    const off = client.on('company-3-ticket', (payload) => got.push(payload));
    server.sockets[0].emit('company-3-ticket', { action: 'update', ticket: { id: 1 } });
    await until(() => got.length === 1);
    expect(got[0]).toEqual({ action: 'update', ticket: { id: 1 } });
    off();
    server.sockets[0].emit('company-3-ticket', { action: 'delete', ticketId: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(got).toHaveLength(1);
  });

  it('gets a fresh token when the server refuses the old one, and reconnects with it', async () => {
    server.refuse = (token) => (token === 'stale' ? 'ERR_INVALID_TOKEN' : null);
    let renewals = 0;
    const client = connect(async () => {
      renewals += 1;
      return 'fresh';
    }, 'stale');
    await until(() => client.connected);
    expect(renewals).toBe(1);
    expect(server.tokens).toEqual(['stale', 'fresh']);
  });

  it('reconnects after a token update with the new token', async () => {
    const client = connect();
    await until(() => client.connected);
    client.updateToken('token-2');
    server.sockets[0].conn.close();
    await until(() => server.tokens.length === 2 && client.connected);
    expect(server.tokens).toEqual(['token-1', 'token-2']);
  });

  it('gives up when the session cannot be renewed', async () => {
    server.refuse = () => 'ERR_SESSION_EXPIRED';
    let renewals = 0;
    const client = connect(async () => {
      renewals += 1;
      return null;
    });
    await until(() => renewals === 1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(client.connected).toBe(false);
    expect(server.tokens).toHaveLength(1);
  });

  it('tells the server the user is present every 5 minutes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const client = connect();
      await until(() => client.connected);
      vi.advanceTimersByTime(PRESENCE_PING_MS - 1000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(events('userStatus')).toHaveLength(0);
      vi.advanceTimersByTime(1000);
      await until(() => events('userStatus').length === 1);
      vi.advanceTimersByTime(PRESENCE_PING_MS);
      await until(() => events('userStatus').length === 2);
    } finally {
      vi.useRealTimers();
    }
  });
});
