import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtime } from '../../../api/socket';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';
import type { User } from '../api/users';

const makeUser = (id: number, name: string, extra: Partial<User> = {}): User => ({
  id,
  name,
  email: `${name.toLowerCase().replace(/\s+/g, '.')}@acme.com`,
  profile: 'user',
  allTicket: 'desabled',
  whatsappId: null,
  queues: [],
  ...extra,
});

/** GET (paged, searchParam), POST, PUT and DELETE /users in memory. */
const usersServer = (initial: User[]) => {
  const users = [...initial];
  const calls = fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply();
    if (call.method === 'GET' && call.url === '/users/') {
      const term = String((call.params as { searchParam?: string }).searchParam ?? '');
      return { data: { users: users.filter((u) => u.name.toLowerCase().includes(term)), count: users.length, hasMore: false } };
    }
    if (call.method === 'POST' && call.url === '/users') {
      const created = makeUser(users.length + 20, (call.data as User).name, call.data as Partial<User>);
      users.push(created);
      return { status: 201, data: created };
    }
    const id = Number(/^\/users\/(\d+)$/.exec(call.url)?.[1]);
    if (call.method === 'PUT' && id) {
      const found = users.find((u) => u.id === id)!;
      Object.assign(found, call.data);
      return { data: found };
    }
    if (call.method === 'DELETE' && id) {
      users.splice(
        users.findIndex((u) => u.id === id),
        1,
      );
      return { data: { message: 'User deleted' } };
    }
    return { data: [] };
  });
  return { users, calls };
};

describe('/users', () => {
  it('lists the users and searches by the lower-cased term', async () => {
    const { calls } = usersServer([makeUser(1, 'Ana Souza', { profile: 'admin' }), makeUser(2, 'Bruno Lima')]);
    signIn({ profile: 'admin' });
    renderApp('/users');
    const row = await screen.findByTestId('user-row-1');
    expect(row.textContent).toContain('Ana Souza');
    expect(row.textContent).toContain('Admin');
    fireEvent.change(screen.getByTestId('users-search'), { target: { value: ' BRU ' } });
    await waitFor(() => expect(screen.queryByTestId('user-row-1')).toBeNull());
    expect(screen.getByTestId('user-row-2')).toBeTruthy();
    expect(calls.filter((c) => c.url === '/users/').map((c) => (c.params as { searchParam: string }).searchParam)).toEqual(['', 'bru']);
  });

  it('adds a user: the shared schema refuses a bad email first, then POST /users and the list reloads', async () => {
    const { calls } = usersServer([]);
    const toasts = collectToasts();
    signIn({ profile: 'admin' });
    renderApp('/users');
    expect((await screen.findByTestId('empty-state')).textContent).toBeTruthy();
    fireEvent.click(screen.getByTestId('users-add'));
    const modal = await screen.findByTestId('user-modal');
    fireEvent.change(within(modal).getByTestId('user-name'), { target: { value: 'Carla Dias' } });
    fireEvent.change(within(modal).getByTestId('user-email'), { target: { value: 'carla' } });
    fireEvent.change(within(modal).getByTestId('user-password'), { target: { value: 'Segredo-1x' } });
    fireEvent.click(within(modal).getByTestId('user-save'));
    expect(await within(modal).findByText('Invalid email')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(modal).getByTestId('user-email'), { target: { value: 'carla@acme.com' } });
    fireEvent.click(within(modal).getByTestId('user-save'));
    await waitFor(() => expect(screen.queryByTestId('user-modal')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.data).toMatchObject({ name: 'Carla Dias', email: 'carla@acme.com', password: 'Segredo-1x' });
    expect((await screen.findByTestId('user-row-20')).textContent).toContain('Carla Dias');
    expect(toasts.some((t) => t.intent === 'success')).toBe(true);
  });

  it('edits one (PUT /users/{id}) and deletes another after confirming', async () => {
    const { calls } = usersServer([makeUser(1, 'Ana Souza'), makeUser(2, 'Bruno Lima')]);
    signIn({ profile: 'admin' });
    renderApp('/users');
    fireEvent.click(await screen.findByTestId('user-edit-1'));
    const modal = await screen.findByTestId('user-modal');
    expect((within(modal).getByTestId('user-name') as HTMLInputElement).value).toBe('Ana Souza');
    fireEvent.change(within(modal).getByTestId('user-name'), { target: { value: 'Ana S. Souza' } });
    fireEvent.click(within(modal).getByTestId('user-save'));
    await waitFor(() => expect(screen.getByTestId('user-row-1').textContent).toContain('Ana S. Souza'));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/users/1', data: { name: 'Ana S. Souza' } });

    fireEvent.click(screen.getByTestId('user-delete-2'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('user-row-2')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/users/2')).toBe(true);
  });
});

describe('/users realtime (company-{id}-user)', () => {
  let socketServer: TestSocketServer;
  beforeAll(async () => {
    socketServer = await startSocketServer();
  });
  afterAll(async () => {
    await socketServer.close();
  });

  it('patches the cached list from the events, without asking the server again', async () => {
    const { calls } = usersServer([makeUser(1, 'Ana Souza'), makeUser(2, 'Bruno Lima')]);
    signIn({ profile: 'admin', companyId: 3 });
    renderApp('/users');
    await screen.findByTestId('user-row-2');
    realtime.connect({ url: socketServer.url, token: 'token-1', companyId: 3, userId: 7, renewToken: async () => null });
    await until(() => realtime.connected && socketServer.sockets.length > 0);
    const socket = socketServer.sockets[socketServer.sockets.length - 1];
    const loads = calls.filter((c) => c.url === '/users/').length;

    socket.emit('company-3-user', { action: 'update', user: makeUser(1, 'Ana Renamed') });
    await waitFor(() => expect(screen.getByTestId('user-row-1').textContent).toContain('Ana Renamed'));
    socket.emit('company-3-user', { action: 'create', user: makeUser(5, 'Dora Nova') });
    expect((await screen.findByTestId('user-row-5')).textContent).toContain('Dora Nova');
    socket.emit('company-3-user', { action: 'delete', userId: 2 });
    await waitFor(() => expect(screen.queryByTestId('user-row-2')).toBeNull());
    expect(calls.filter((c) => c.url === '/users/').length).toBe(loads);
  });
});
