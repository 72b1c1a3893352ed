import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtime } from '../../../api/socket';
import { collectToasts, renderApp, renderWithProviders, signIn } from '../../../test/render';
import QueuesPage from './queues-page';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';
import { makeQueue, queuesServer } from '../test/fake-queues-server';

const longGreeting = `Welcome! ${'Choose an option from the menu below. '.repeat(5)}`;

describe('queues page', () => {
  it('lists id, name, colour swatch, order and a truncated greeting', async () => {
    queuesServer({
      queues: [
        makeQueue(1, { name: 'Sales', color: '#ff0000', orderQueue: 1, greetingMessage: longGreeting }),
        makeQueue(2, { name: 'Support', color: '#00ff00', orderQueue: null, greetingMessage: 'Hi' }),
      ],
    });
    signIn({ profile: 'admin' });
    renderApp('/queues');
    expect((await screen.findByTestId('queue-name-1')).textContent).toBe('Sales');
    const row = screen.getByTestId('queue-row-1');
    expect(row.querySelector('td')?.textContent).toBe('1');
    expect(screen.getByTestId('queue-color-1').style.backgroundColor).toMatch(/#ff0000|rgb\(255, 0, 0\)/);
    expect(within(row).getByText('#ff0000')).toBeTruthy();
    expect(screen.getByTestId('queue-order-1').textContent).toBe('1');
    expect(screen.getByTestId('queue-order-2').textContent).toBe('');
    const greeting = screen.getByTestId('queue-greeting-1');
    expect(greeting.textContent).toHaveLength(60);
    expect(greeting.textContent?.endsWith('…')).toBe(true);
    expect(greeting.getAttribute('title')).toBe(longGreeting);
    expect(screen.getByTestId('queue-greeting-2').textContent).toBe('Hi');
    expect(screen.getByTestId('queues-add')).toBeTruthy();
    expect(screen.getByTestId('queue-edit-2')).toBeTruthy();
  });

  it('shows an empty state without queues', async () => {
    queuesServer();
    signIn({ profile: 'admin' });
    renderApp('/queues');
    expect(await screen.findByText('No queues yet.')).toBeTruthy();
  });

  it('offers no add, edit or delete to agents (the server lets admins only write queues), should the page show', async () => {
    queuesServer({ queues: [makeQueue(1)] });
    signIn({ profile: 'user' });
    // The route sends agents to /tickets; the page itself holds the line too.
    renderWithProviders(<QueuesPage />, '/queues');
    await screen.findByTestId('queue-row-1');
    expect(screen.queryByTestId('queues-add')).toBeNull();
    expect(screen.queryByTestId('queue-edit-1')).toBeNull();
    expect(screen.queryByTestId('queue-delete-1')).toBeNull();
  });

  it('deletes a queue after the confirmation, with a success toast', async () => {
    const { calls } = queuesServer({ queues: [makeQueue(1, { name: 'Sales' }), makeQueue(2)] });
    const toasts = collectToasts();
    signIn({ profile: 'admin' });
    renderApp('/queues');
    fireEvent.click(await screen.findByTestId('queue-delete-1'));
    expect(await screen.findByText('Delete queue Sales?')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/queue/1')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('queue-row-1')).toBeNull());
    expect(screen.getByTestId('queue-row-2')).toBeTruthy();
    await waitFor(() => expect(toasts.some((t) => t.intent === 'success' && t.message === 'Queue deleted successfully.')).toBe(true));
  });

  it('cancelling the confirmation deletes nothing', async () => {
    const { calls } = queuesServer({ queues: [makeQueue(1, { name: 'Sales' })] });
    signIn({ profile: 'admin' });
    renderApp('/queues');
    fireEvent.click(await screen.findByTestId('queue-delete-1'));
    await screen.findByText('Delete queue Sales?');
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText('Delete queue Sales?')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(screen.getByTestId('queue-row-1')).toBeTruthy();
  });

  it('adds a queue through the modal: POST /queue, success toast, new row', async () => {
    const { calls } = queuesServer({ queues: [] });
    const toasts = collectToasts();
    signIn({ profile: 'admin' });
    renderApp('/queues');
    fireEvent.click(await screen.findByTestId('queues-add'));
    await screen.findByTestId('queue-modal');
    fireEvent.change(screen.getByTestId('queue-name'), { target: { value: 'Billing' } });
    fireEvent.change(screen.getByTestId('queue-color'), { target: { value: '#123abc' } });
    fireEvent.change(screen.getByTestId('queue-order'), { target: { value: '3' } });
    fireEvent.change(screen.getByTestId('queue-greeting'), { target: { value: 'Billing here' } });
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/queue')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({
      name: 'Billing',
      color: '#123abc',
      greetingMessage: 'Billing here',
      outOfHoursMessage: '',
      orderQueue: 3,
      integrationId: null,
      promptId: null,
    });
    await waitFor(() => expect(screen.queryByTestId('queue-modal')).toBeNull());
    expect((await screen.findByTestId('queue-name-100')).textContent).toBe('Billing');
    expect(toasts.some((t) => t.intent === 'success' && t.message === 'Queue saved successfully.')).toBe(true);
  });

  it('edits a queue: PUT /queue/{id} with the changed data', async () => {
    const { calls } = queuesServer({ queues: [makeQueue(1, { name: 'Sales', color: '#ff0000', greetingMessage: 'Hello' })] });
    signIn({ profile: 'admin' });
    renderApp('/queues');
    fireEvent.click(await screen.findByTestId('queue-edit-1'));
    expect(((await screen.findByTestId('queue-name')) as HTMLInputElement).value).toBe('Sales');
    expect((screen.getByTestId('queue-color') as HTMLInputElement).value).toBe('#ff0000');
    fireEvent.change(screen.getByTestId('queue-name'), { target: { value: 'Sales team' } });
    fireEvent.click(screen.getByTestId('queue-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url === '/queue/1')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.data).toMatchObject({ name: 'Sales team', color: '#ff0000', greetingMessage: 'Hello' });
    await waitFor(() => expect(screen.getByTestId('queue-name-1').textContent).toBe('Sales team'));
  });
});

describe('queues page realtime (company-{id}-queue)', () => {
  let socketServer: TestSocketServer;
  beforeAll(async () => {
    socketServer = await startSocketServer();
  });
  afterAll(async () => {
    await socketServer.close();
  });

  it('adds, updates and removes rows from the server events', async () => {
    queuesServer({ queues: [makeQueue(1, { name: 'Sales', orderQueue: 2 })] });
    signIn({ profile: 'admin', companyId: 3 });
    renderApp('/queues');
    await screen.findByTestId('queue-row-1');
    realtime.connect({ url: socketServer.url, token: 'token-1', companyId: 3, userId: 7, renewToken: async () => null });
    await until(() => realtime.connected && socketServer.sockets.length > 0);
    const socket = socketServer.sockets[socketServer.sockets.length - 1];

    socket.emit('company-3-queue', { action: 'create', queue: makeQueue(5, { name: 'Urgent', orderQueue: 1 }) });
    expect((await screen.findByTestId('queue-name-5')).textContent).toBe('Urgent');
    // Menu order: orderQueue 1 comes before orderQueue 2.
    const rows = () => screen.getAllByTestId(/^queue-row-/).map((r) => r.getAttribute('data-testid'));
    expect(rows()).toEqual(['queue-row-5', 'queue-row-1']);

    socket.emit('company-3-queue', { action: 'update', queue: makeQueue(1, { name: 'Sales renamed', orderQueue: 2 }) });
    await waitFor(() => expect(screen.getByTestId('queue-name-1').textContent).toBe('Sales renamed'));

    socket.emit('company-3-queue', { action: 'delete', queueId: 5 });
    await waitFor(() => expect(screen.queryByTestId('queue-row-5')).toBeNull());
    expect(rows()).toEqual(['queue-row-1']);

    // Another company's channel is not this list's business.
    socket.emit('company-4-queue', { action: 'create', queue: makeQueue(9, { name: 'Elsewhere' }) });
    socket.emit('company-3-queue', { action: 'create', queue: makeQueue(6, { name: 'Marker', orderQueue: 9 }) });
    await screen.findByTestId('queue-row-6');
    expect(screen.queryByTestId('queue-row-9')).toBeNull();
  });
});
