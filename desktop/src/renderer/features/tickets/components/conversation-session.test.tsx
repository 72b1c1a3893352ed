import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { useAuthStore } from '../../../stores/auth-store';
import { collectToasts, makeUser, renderApp, signIn } from '../../../test/render';
import { setWindowUrl, startTestServer, type TestServer } from '../../../test/http-server';
import { makeContact, makeMessage, makeTicket, ME } from '../test/fake-tickets-server';

/**
 * Spec 01 section 4, on the conversation screen against a real HTTP server (the refresh goes around the
 * client's interceptors, so an in-memory adapter would not see it): a 403 refreshes the token once and
 * retries, a 401 or a failed refresh logs out, a permission refusal is not a stale token.
 */
const TICKET = makeTicket(1, { contact: makeContact(11, { name: 'Maria Oliveira', number: '5511987654321' }), contactId: 11 });

const server = {
  /** The access token the API accepts; any other gets 403 ERR_INVALID_TOKEN. */
  valid: 'token-1',
  refreshFails: false,
  /** GET /tickets/u/{uuid} answers this instead. */
  ticketReply: null as null | { status: number; body: unknown },
};
let http: TestServer;

beforeAll(async () => {
  http = await startTestServer((req) => {
    const path = req.path.split('?')[0];
    if (req.method === 'POST' && path === '/auth/refresh_token') {
      if (server.refreshFails) return { status: 401, body: { error: 'ERR_INVALID_REFRESH_TOKEN' } };
      server.valid = 'token-2';
      return { body: { token: 'token-2', user: makeUser({ id: ME.id }) }, delay: 20 };
    }
    if (req.headers.authorization !== `Bearer ${server.valid}`) return { status: 403, body: { error: 'ERR_INVALID_TOKEN' } };
    if (path === '/tickets/u/uuid-1') return server.ticketReply ? { status: server.ticketReply.status, body: server.ticketReply.body } : { body: TICKET };
    if (path === '/messages/1') return { body: { messages: [makeMessage(1, 1, { body: 'Olá! Meu pedido ainda não chegou.' })], ticket: { id: 1 }, hasMore: false } };
    if (path === '/tickets') return { body: { tickets: [TICKET], hasMore: false, count: 1 } };
    if (path.startsWith('/companies/listPlan/')) return { body: { id: 3, name: 'Acme', plan: { id: 1, name: 'Plan' } } };
    if (path === '/whatsapp/' || path === '/whatsapp' || path === '/queue' || path === '/tags/list' || path === '/quick-messages/list') return { body: [] };
    return { status: 404, body: { error: 'ERR_NOT_FOUND' } };
  });
  // Same origin as the app, as the web build is served.
  setWindowUrl(`${http.url}/tickets/uuid-1`);
});
afterAll(async () => {
  await http.close();
});
beforeEach(() => {
  Object.assign(server, { valid: 'token-1', refreshFails: false, ticketReply: null });
  http.requests.length = 0;
});

const refreshes = () => http.requests.filter((r) => r.path === '/auth/refresh_token');
const ticketReads = () => http.requests.filter((r) => r.path === '/tickets/u/uuid-1');

describe('session contract on the conversation screen', () => {
  it('a 403 for a stale token refreshes once, retries, and the conversation shows', async () => {
    signIn({ id: ME.id });
    // The server no longer takes token-1; the refresh hands out token-2, which it takes.
    server.valid = 'token-from-the-server-side';
    renderApp('/tickets/uuid-1');
    expect((await screen.findByTestId('message-1')).textContent).toContain('Meu pedido ainda não chegou');
    expect(refreshes()).toHaveLength(1);
    expect(ticketReads().at(-1)?.headers.authorization).toBe('Bearer token-2');
    expect(useAuthStore.getState()).toMatchObject({ status: 'authenticated', token: 'token-2' });
    // Every call refused for the stale token was sent again with the new one, after the one refresh.
    const refreshedAt = http.requests.indexOf(refreshes()[0]);
    const stale = http.requests.filter((r) => r.headers.authorization === 'Bearer token-1' && r.path !== '/auth/refresh_token');
    expect(stale.length).toBeGreaterThan(0);
    for (const request of stale) {
      const retried = http.requests.findIndex((r, i) => i > refreshedAt && r.path === request.path && r.headers.authorization === 'Bearer token-2');
      expect(retried, request.path).toBeGreaterThan(refreshedAt);
    }
  });

  it('a failed refresh logs out and the guard sends the user to /login', async () => {
    signIn({ id: ME.id });
    server.valid = 'token-from-the-server-side';
    server.refreshFails = true;
    renderApp('/tickets/uuid-1');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(useAuthStore.getState()).toMatchObject({ status: 'guest', token: null });
    expect(refreshes()).toHaveLength(1);
  });

  it('a 401 logs out without trying to refresh', async () => {
    signIn({ id: ME.id });
    server.ticketReply = { status: 401, body: { error: 'ERR_SESSION_EXPIRED' } };
    renderApp('/tickets/uuid-1');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(useAuthStore.getState().status).toBe('guest');
    expect(refreshes()).toHaveLength(0);
  });

  it('a ticket outside the agent’s queues (403 ERR_NO_PERMISSION): no refresh, the notice, back to /tickets', async () => {
    signIn({ id: ME.id, profile: 'user' });
    server.ticketReply = { status: 403, body: { error: 'ERR_NO_PERMISSION' } };
    const toasts = collectToasts();
    renderApp('/tickets/uuid-1');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
    expect(toasts.map((t) => t.message)).toContain('Access not allowed');
    expect(refreshes()).toHaveLength(0);
    expect(useAuthStore.getState().status).toBe('authenticated');
  });
});
