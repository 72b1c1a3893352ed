import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { collectToasts, renderWithProviders, signIn, type FakeCall } from '../../../test/render';
import type { Ticket } from '../api/types';
import { makeTicket, ME, ticketsServer } from '../test/fake-tickets-server';
import { TransferDialog } from './transfer-dialog';

const QUEUES = [
  { id: 2, name: 'Sales', color: '#2e7d32' },
  { id: 3, name: 'Support', color: '#c62828' },
];
const CONNECTIONS = [
  { id: 1, name: 'Main phone', status: 'CONNECTED' },
  { id: 4, name: 'Second phone', status: 'CONNECTED' },
];
const USERS = [
  { id: ME.id, name: ME.name, profile: 'user', queues: [QUEUES[0]] },
  { id: 8, name: 'Bruno Costa', profile: 'user', queues: [QUEUES[0], QUEUES[1]] },
  { id: 9, name: 'Brenda Reis', profile: 'user', queues: [QUEUES[1]] },
  { id: 10, name: 'Brian Admin', profile: 'admin', queues: [] },
];

const setup = async (ticket: Ticket = makeTicket(1)) => {
  const server = ticketsServer({ tickets: [ticket], queues: QUEUES, connections: CONNECTIONS, users: USERS });
  signIn({ id: ME.id });
  const onOpenChange = vi.fn();
  renderWithProviders(<TransferDialog ticket={ticket} open onOpenChange={onOpenChange} />, `/tickets/${ticket.uuid}`);
  // The dialog is aria-hidden until its enter transition ends.
  await screen.findByRole('button', { name: 'Transfer' });
  return { ...server, onOpenChange };
};

const trigger = (testId: string) => {
  const el = screen.getByTestId(testId);
  return el.getAttribute('role') === 'combobox' ? el : within(el).getByRole('combobox');
};
const choose = async (testId: string, name: string) => {
  fireEvent.click(trigger(testId));
  fireEvent.click(await screen.findByRole('option', { name }));
};
const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));
const puts = (calls: FakeCall[]) => calls.filter((c) => c.method === 'PUT');

describe('transfer modal', () => {
  it('to a user: searches users from 3 characters, then PUT with the queue, connection and user, status open', async () => {
    const { calls, onOpenChange } = await setup();
    fireEvent.change(trigger('transfer-user'), { target: { value: 'br' } });
    await pause(700);
    expect(calls.some((c) => c.url === '/users/list')).toBe(false);

    fireEvent.change(trigger('transfer-user'), { target: { value: 'bru' } });
    fireEvent.click(trigger('transfer-user'));
    const option = await screen.findByRole('option', { name: 'Bruno Costa' });
    expect(screen.queryByRole('option', { name: 'Brenda Reis' })).toBeNull();
    fireEvent.click(option);
    await choose('transfer-queue', 'Support');
    await choose('transfer-connection', 'Second phone');
    fireEvent.click(screen.getByTestId('transfer-submit'));

    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]).toMatchObject({ url: '/tickets/1', data: { queueId: 3, whatsappId: 4, userId: 8, status: 'open' } });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("to a user: offers only that user's queues, picks their only one, and confirms with a toast", async () => {
    const { calls } = await setup();
    const toasts = collectToasts();
    fireEvent.change(trigger('transfer-user'), { target: { value: 'bren' } });
    fireEvent.click(trigger('transfer-user'));
    fireEvent.click(await screen.findByRole('option', { name: 'Brenda Reis' }));
    // The ticket's queue (Sales) is not Brenda's: her only queue is chosen instead.
    await waitFor(() => expect((trigger('transfer-queue') as HTMLButtonElement).textContent).toContain('Support'));
    fireEvent.click(trigger('transfer-queue'));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Support']);
    fireEvent.click(screen.getByRole('option', { name: 'Support' }));
    fireEvent.click(screen.getByTestId('transfer-submit'));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0].data).toMatchObject({ queueId: 3, userId: 9, status: 'open' });
    await waitFor(() => expect(toasts.filter((t) => t.intent === 'success').map((t) => t.message)).toEqual(['Ticket transferred to Brenda Reis.']));
  });

  it('to an admin: every queue is offered', async () => {
    await setup();
    fireEvent.change(trigger('transfer-user'), { target: { value: 'brian' } });
    fireEvent.click(trigger('transfer-user'));
    fireEvent.click(await screen.findByRole('option', { name: 'Brian Admin' }));
    fireEvent.click(trigger('transfer-queue'));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Sales', 'Support']);
  });

  it('to a queue only: the ticket waits there (pending, no user), with a toast', async () => {
    const { calls } = await setup();
    const toasts = collectToasts();
    await choose('transfer-queue', 'Support');
    fireEvent.click(screen.getByTestId('transfer-submit'));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0].data).toEqual({ queueId: 3, whatsappId: 1, userId: null, status: 'pending' });
    await waitFor(() => expect(toasts.filter((t) => t.intent === 'success').map((t) => t.message)).toEqual(['Ticket transferred to the queue Support.']));
  });

  it('a queue must be chosen', async () => {
    const { calls } = await setup(makeTicket(1, { queueId: null, queue: null }));
    fireEvent.click(screen.getByTestId('transfer-submit'));
    expect(await screen.findByText('Choose a queue')).toBeTruthy();
    expect(puts(calls)).toHaveLength(0);
  });

  it('a connection is required', async () => {
    const { calls } = await setup(makeTicket(1, { whatsappId: null, whatsapp: null }));
    await choose('transfer-queue', 'Sales');
    fireEvent.click(screen.getByTestId('transfer-submit'));
    expect(await screen.findByText('Choose a connection')).toBeTruthy();
    expect(puts(calls)).toHaveLength(0);
  });

  it('a refused transfer stays open with the error', async () => {
    const server = await setup();
    server.state.fail['PUT /tickets/:id'] = { status: 403, data: { error: 'ERR_NO_PERMISSION' } };
    const toasts = collectToasts();
    await choose('transfer-queue', 'Support');
    fireEvent.click(screen.getByTestId('transfer-submit'));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error')).toBe(true));
    expect(server.onOpenChange).not.toHaveBeenCalledWith(false);
    expect(screen.getByTestId('location').textContent).toBe('/tickets/uuid-1');
  });
});
