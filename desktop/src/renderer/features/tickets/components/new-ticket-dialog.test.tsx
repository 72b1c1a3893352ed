import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { collectToasts, renderWithProviders, signIn, type FakeCall } from '../../../test/render';
import { makeContact, ME, ticketsServer } from '../test/fake-tickets-server';
import { NewTicketDialog } from './new-ticket-dialog';

const MARIA = makeContact(11, { name: 'Maria Oliveira', number: '5511987654321' });
const MARCOS = makeContact(12, { name: 'Marcos Lima', number: '5511955554444' });
const QUEUES = [
  { id: 2, name: 'Sales', color: '#2e7d32' },
  { id: 3, name: 'Support', color: '#c62828' },
];
const CONNECTIONS = [
  { id: 1, name: 'Main phone', status: 'CONNECTED', isDefault: true },
  { id: 4, name: 'Second phone', status: 'CONNECTED', isDefault: false },
];

const setup = async (user: Parameters<typeof signIn>[0] = {}) => {
  const server = ticketsServer({ contacts: [MARIA, MARCOS], queues: QUEUES, connections: CONNECTIONS });
  signIn({ id: ME.id, name: ME.name, ...user });
  renderWithProviders(<NewTicketDialog open onOpenChange={() => undefined} />, '/tickets');
  // The dialog is aria-hidden until its enter transition ends.
  await screen.findByRole('combobox', { name: /^Contact/ });
  return server;
};

const contactBox = () => screen.getByRole('combobox', { name: /^Contact/ });
const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

const chooseContact = async (typed: string, name: RegExp) => {
  fireEvent.change(contactBox(), { target: { value: typed } });
  fireEvent.click(contactBox());
  fireEvent.click(await screen.findByRole('option', { name }));
};

/** The combobox of a Dropdown (its test id lands on the button or on the wrapper). */
const trigger = (testId: string) => {
  const el = screen.getByTestId(testId);
  return el.getAttribute('role') === 'combobox' ? el : within(el).getByRole('combobox');
};

const choose = async (testId: string, name: string) => {
  fireEvent.click(trigger(testId));
  fireEvent.click(await screen.findByRole('option', { name }));
};

const posts = (calls: FakeCall[]) => calls.filter((c) => c.method === 'POST' && c.url === '/tickets');

describe('new ticket modal', () => {
  it('searches contacts only from 3 characters, then creates the ticket and opens it', async () => {
    const { calls } = await setup({ whatsappId: 4 });
    fireEvent.change(contactBox(), { target: { value: 'ma' } });
    await pause(700);
    expect(calls.some((c) => c.url === '/contacts')).toBe(false);

    await chooseContact('mar', /Maria Oliveira/);
    const search = calls.find((c) => c.url === '/contacts');
    expect(search?.params).toMatchObject({ searchParam: 'mar' });
    expect((contactBox() as HTMLInputElement).value).toBe('Maria Oliveira');

    await choose('new-ticket-queue', 'Support');
    // The user's own connection is chosen already; another can be picked.
    expect(trigger('new-ticket-connection').textContent).toBe('Second phone');
    await choose('new-ticket-connection', 'Main phone');
    fireEvent.click(screen.getByTestId('new-ticket-submit'));

    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].data).toEqual({ contactId: 11, queueId: 3, whatsappId: 1, userId: ME.id, status: 'open' });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets/uuid-1000'));
  });

  it('says when no contact matches', async () => {
    await setup();
    fireEvent.change(contactBox(), { target: { value: 'zzz' } });
    fireEvent.click(contactBox());
    expect(await screen.findByRole('option', { name: 'No contacts found' })).toBeTruthy();
  });

  it('requires a contact', async () => {
    const { calls } = await setup();
    fireEvent.click(screen.getByTestId('new-ticket-submit'));
    expect(await screen.findByText('Choose a contact')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
  });

  it('an agent must choose a queue, from their own queues', async () => {
    const { calls } = await setup({ profile: 'user', queues: [QUEUES[0]] });
    await chooseContact('mar', /Maria Oliveira/);
    fireEvent.click(screen.getByTestId('new-ticket-submit'));
    expect(await screen.findByText('Choose a queue')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
    // Only the agent's queues are offered, without asking the server for all of them.
    fireEvent.click(trigger('new-ticket-queue'));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['Sales']);
    expect(calls.some((c) => c.url === '/queue')).toBe(false);
    fireEvent.click(screen.getByRole('option', { name: 'Sales' }));
    fireEvent.click(screen.getByTestId('new-ticket-submit'));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].data).toMatchObject({ contactId: 11, queueId: 2 });
  });

  it('an admin may leave the queue out', async () => {
    const { calls } = await setup({ profile: 'admin' });
    await chooseContact('mar', /Maria Oliveira/);
    fireEvent.click(screen.getByTestId('new-ticket-submit'));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].data).toMatchObject({ contactId: 11, queueId: null, whatsappId: null });
  });

  it('ERR_OTHER_OPEN_TICKET held by another user: names that user and the queue, and stays open', async () => {
    const server = await setup();
    server.state.fail['POST /tickets'] = {
      status: 400,
      data: {
        error: 'ERR_OTHER_OPEN_TICKET',
        ticketId: 77,
        ticket: { id: 77, uuid: 'uuid-77', status: 'open', userId: 9, user: { id: 9, name: 'Bruno' }, queue: { id: 3, name: 'Support' } },
      },
    };
    const toasts = collectToasts();
    await chooseContact('mar', /Maria Oliveira/);
    fireEvent.click(screen.getByTestId('new-ticket-submit'));
    const notice = await screen.findByTestId('other-open-notice');
    expect(notice.textContent).toBe('This contact already has an open ticket (#77) with Bruno in the queue Support.');
    expect(toasts.some((t) => t.intent === 'error')).toBe(true);
    expect(screen.getByTestId('location').textContent).toBe('/tickets');
  });

  it("ERR_OTHER_OPEN_TICKET that is the user's own: opens that ticket instead", async () => {
    const server = await setup();
    server.state.fail['POST /tickets'] = {
      status: 400,
      data: {
        error: 'ERR_OTHER_OPEN_TICKET',
        ticketId: 78,
        ticket: { id: 78, uuid: 'uuid-78', status: 'open', userId: ME.id, user: { ...ME }, queue: null },
      },
    };
    await chooseContact('mar', /Maria Oliveira/);
    fireEvent.click(screen.getByTestId('new-ticket-submit'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets/uuid-78'));
    expect(screen.queryByTestId('other-open-notice')).toBeNull();
  });

  it('a waiting ticket nobody has: names the ticket and its queue', async () => {
    const server = await setup();
    server.state.fail['POST /tickets'] = {
      status: 400,
      data: { error: 'ERR_OTHER_OPEN_TICKET', ticketId: 79, ticket: { id: 79, uuid: 'uuid-79', status: 'pending', userId: null, user: null, queue: null } },
    };
    await chooseContact('mar', /Maria Oliveira/);
    fireEvent.click(screen.getByTestId('new-ticket-submit'));
    expect((await screen.findByTestId('other-open-notice')).textContent).toBe('This contact already has an open ticket (#79) in the queue No queue.');
  });

  it('a queue list that fails to load says so', async () => {
    const server = ticketsServer({ contacts: [MARIA] });
    server.state.fail['GET /queue'] = { status: 500, data: { error: 'ERR_INTERNAL_SERVER_ERROR' } };
    const toasts = collectToasts();
    signIn({ profile: 'admin' });
    renderWithProviders(<NewTicketDialog open onOpenChange={() => undefined} />, '/tickets');
    await waitFor(() => expect(toasts.map((t) => t.message)).toContain('Could not load the queues.'));
  });
});
