import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp, signIn } from '../../../test/render';
import { makeContact, makeMessage, makeTicket, ME, ticketsServer } from '../test/fake-tickets-server';
import { WIDE_MIN } from './tickets-page';

const initialWidth = window.innerWidth;
const setWidth = (value: number) => {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value });
  window.dispatchEvent(new Event('resize'));
};
afterEach(() => setWidth(initialWidth));

const LONG = makeContact(11, { name: 'Maria Aparecida Oliveira' });

const setup = (path = '/tickets') => {
  const server = ticketsServer({
    tickets: [makeTicket(1, { contact: LONG, contactId: LONG.id }), makeTicket(2)],
    contacts: [LONG],
    messages: [makeMessage(1, 1, { body: 'Bom dia' }), makeMessage(2, 2, { body: 'Oi' })],
  });
  signIn({ id: ME.id });
  renderApp(path);
  return server;
};

const visible = (testId: string) => {
  const el = screen.queryByTestId(testId);
  return !!el && !el.hidden && el.style.display !== 'none';
};

describe('tickets page layout', () => {
  it(`from ${WIDE_MIN} px: the list and the conversation side by side`, async () => {
    setWidth(WIDE_MIN);
    setup('/tickets/uuid-1');
    await screen.findByTestId('conversation');
    // The list and the conversation load separately; either may arrive first.
    expect(await screen.findByTestId('ticket-item-1')).toBeTruthy();
    expect(screen.queryByTestId('tickets-pane-list')).toBeNull();
    expect((await screen.findByTestId('conversation-contact')).textContent).toContain('Maria Aparecida Oliveira');
  });

  it('shows the welcome panel beside the list when no ticket is chosen', async () => {
    setWidth(1280);
    setup('/tickets');
    expect(await screen.findByTestId('tickets-welcome')).toBeTruthy();
    expect(await screen.findByTestId('ticket-item-1')).toBeTruthy();
  });

  it(`under ${WIDE_MIN} px: two panes that switch, keeping what was typed`, async () => {
    setWidth(WIDE_MIN - 1);
    setup('/tickets');
    await screen.findByTestId('ticket-item-1');
    expect(visible('tickets-list-pane')).toBe(true);
    expect(screen.queryByTestId('conversation')).toBeNull();
    expect(screen.getByTestId('tickets-pane-attendance').hasAttribute('disabled') || screen.getByTestId('tickets-pane-attendance').getAttribute('aria-disabled') === 'true').toBe(true);

    // Opening a ticket shows its conversation in place of the list.
    fireEvent.click(screen.getByTestId('ticket-item-1'));
    await waitFor(() => expect(visible('tickets-conversation-pane')).toBe(true));
    expect(visible('tickets-list-pane')).toBe(false);
    expect(screen.getByTestId('location').textContent).toBe('/tickets/uuid-1');
    // The contact name is cut to 10 characters on a narrow screen.
    await waitFor(() => expect(screen.getByTestId('conversation-contact').textContent).toContain('Maria Apar...'));
    expect(screen.getByTestId('conversation-contact').textContent).not.toContain('Oliveira');

    const text = await screen.findByTestId('message-input');
    fireEvent.change(text, { target: { value: 'half-typed answer' } });
    fireEvent.click(screen.getByTestId('tickets-pane-list'));
    await waitFor(() => expect(visible('tickets-list-pane')).toBe(true));
    expect(visible('tickets-conversation-pane')).toBe(false);
    fireEvent.click(screen.getByTestId('tickets-pane-attendance'));
    await waitFor(() => expect(visible('tickets-conversation-pane')).toBe(true));
    expect((screen.getByTestId('message-input') as HTMLTextAreaElement).value).toBe('half-typed answer');

    // Choosing the same ticket again from the list shows it again.
    fireEvent.click(screen.getByTestId('tickets-pane-list'));
    await waitFor(() => expect(visible('tickets-list-pane')).toBe(true));
    fireEvent.click(screen.getByTestId('ticket-item-1'));
    await waitFor(() => expect(visible('tickets-conversation-pane')).toBe(true));

    // Back returns to the list.
    fireEvent.click(within(screen.getByTestId('conversation')).getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
    expect(visible('tickets-list-pane')).toBe(true);
    expect(screen.queryByTestId('conversation')).toBeNull();
  });

  it('follows a resize across the breakpoint', async () => {
    setWidth(1024);
    setup('/tickets/uuid-2');
    await screen.findByTestId('conversation');
    expect(screen.queryByTestId('tickets-pane-list')).toBeNull();
    act(() => setWidth(480));
    expect(await screen.findByTestId('tickets-pane-list')).toBeTruthy();
    expect(visible('tickets-conversation-pane')).toBe(true);
  });
});

describe('accepting a waiting ticket', () => {
  it('switches the list to the assigned tab with the accepted ticket selected, its conversation open', async () => {
    setWidth(1366);
    const waiting = makeTicket(3, { status: 'pending', userId: null, user: null, contact: makeContact(13, { name: 'Joana Lima' }), contactId: 13 });
    const server = ticketsServer({
      tickets: [makeTicket(1), waiting],
      contacts: [],
      messages: [makeMessage(5, 3, { body: 'Preciso de ajuda' })],
    });
    signIn({ id: ME.id });
    renderApp('/tickets');
    fireEvent.click(await screen.findByTestId('tickets-subtab-pending'));
    fireEvent.click(await screen.findByTestId('ticket-accept-3'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets/uuid-3'));
    expect(server.calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/tickets/3', data: { status: 'open', userId: ME.id } });
    await waitFor(() => expect(screen.getByTestId('tickets-subtab-open').getAttribute('aria-selected')).toBe('true'));
    const item = await screen.findByTestId('ticket-item-3');
    expect(item.getAttribute('aria-current')).toBe('true');
    expect(await screen.findByText('Preciso de ajuda')).toBeTruthy();
  });
});
