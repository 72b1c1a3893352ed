import { screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { QueryObserver } from '@tanstack/react-query';
import { setServerUrl } from '../api/client';
import { queryClient } from '../api/query';
import { subscribeToasts } from '../components/toasts';
import { realtime } from '../api/socket';
import { reloadApp } from '../platform/navigation';
import { useAuthStore } from '../stores/auth-store';
import { usePreferences } from '../stores/preferences-store';
import { renderWithProviders, signIn } from '../test/render';
import { startSocketServer, until, type TestSocketServer } from '../test/socket-server';
import { OTHER_SESSION_LOGOUT_MS, RealtimeSession } from './realtime-session';

vi.mock('../platform/navigation', () => ({ reloadApp: vi.fn() }));

let server: TestSocketServer;
beforeAll(async () => {
  server = await startSocketServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.reset();
  vi.mocked(reloadApp).mockClear();
});

const start = async () => {
  setServerUrl(server.url);
  signIn({ id: 7, companyId: 3 });
  renderWithProviders(<RealtimeSession />);
  await until(() => realtime.connected);
  return server.sockets[0];
};

describe('realtime session', () => {
  it('reads what is on screen again when the socket connects: the events before it listened are lost', async () => {
    let reads = 0;
    const observer = new QueryObserver(queryClient, { queryKey: ['realtime-session-test'], queryFn: async () => ++reads });
    onTestFinished(observer.subscribe(() => undefined));
    await until(() => reads === 1);
    await start();
    await until(() => reads === 2);
  });

  it('connects when signed in, with the session token, and closes on logout', async () => {
    await start();
    expect(server.tokens).toEqual(['token-1']);
    useAuthStore.getState().clear();
    await until(() => !realtime.connected);
  });

  it('another login of this user: the message, then the logout 1 s later', async () => {
    const socket = await start();
    // The moments themselves, taken when they happen (a toast raised, the session ended), not when a poll
    // of the screen notices them: on a busy machine the poll can come hundreds of milliseconds late.
    let toastAt = 0;
    let loggedOutAt = 0;
    onTestFinished(subscribeToasts(() => (toastAt ||= performance.now())));
    onTestFinished(useAuthStore.subscribe((s) => s.status === 'guest' && (loggedOutAt ||= performance.now())));
    socket.emit('company-3-auth', { action: 'update', user: { id: 7, email: 'ana@example.com', companyId: 3 } });
    expect(await screen.findByText('Your account was accessed on another computer.')).toBeTruthy();
    await waitFor(() => expect(useAuthStore.getState().status).toBe('guest'));
    // The message stays up for the whole second before the logout (a timer never fires early; a few ms of
    // clock rounding allowed).
    expect(loggedOutAt - toastAt).toBeGreaterThanOrEqual(OTHER_SESSION_LOGOUT_MS - 5);
    expect(reloadApp).toHaveBeenCalledWith('/login');
  });

  it('ignores the login of another user of the company', async () => {
    usePreferences.getState().set('cshow', false);
    const socket = await start();
    socket.emit('company-3-auth', { action: 'update', user: { id: 8, email: 'bo@example.com', companyId: 3 } });
    // A later event of the same socket, handled after it: by then the login of user 8 was read and ignored
    // (the message and the logout timer start together, so no message means no logout either).
    socket.emit('company-3-settings', { action: 'update', setting: { key: 'campaignsEnabled', value: 'true' } });
    await waitFor(() => expect(usePreferences.getState().cshow).toBe(true));
    expect(useAuthStore.getState().status).toBe('authenticated');
    expect(screen.queryByText('Your account was accessed on another computer.')).toBeNull();
  });

  it('follows the campaignsEnabled setting with the cshow flag', async () => {
    const socket = await start();
    socket.emit('company-3-settings', { action: 'update', setting: { key: 'campaignsEnabled', value: 'true' } });
    await waitFor(() => expect(usePreferences.getState().cshow).toBe(true));
    expect(localStorage.getItem('cshow')).not.toBeNull();
    socket.emit('company-3-settings', { action: 'update', setting: { key: 'campaignsEnabled', value: 'false' } });
    await waitFor(() => expect(usePreferences.getState().cshow).toBe(false));
    expect(localStorage.getItem('cshow')).toBeNull();
  });

  it('keeps the session user current when the user is updated elsewhere', async () => {
    const socket = await start();
    socket.emit('company-3-user', { action: 'update', user: { id: 7, name: 'Ana Renamed' } });
    await waitFor(() => expect(useAuthStore.getState().user?.name).toBe('Ana Renamed'));
  });
});
