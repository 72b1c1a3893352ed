import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp, signIn } from '../../../test/render';
import { makeContact, makeMessage, makeTicket, ME, ticketsServer } from '../test/fake-tickets-server';

const theirs = makeTicket(3, { userId: 9, user: { id: 9, name: 'Bruno' }, contact: makeContact(13, { name: 'Carlos Lima', number: '5531998887777' }), contactId: 13 });

describe('peek dialog (admins)', () => {
  it("shows a ticket's messages read-only, without leaving the list", async () => {
    const { calls } = ticketsServer({
      tickets: [theirs],
      messages: [
        makeMessage(1, 3, { body: 'Is the store open on Sunday?' }),
        makeMessage(2, 3, { fromMe: true, ack: 2, body: 'Yes, from 9 to 13.', user: { id: 9, name: 'Bruno' } }),
      ],
    });
    signIn({ id: ME.id, profile: 'admin' });
    renderApp('/tickets');
    fireEvent.click(await screen.findByTestId('ticket-peek-3'));
    const dialog = await screen.findByTestId('peek-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('message-1').textContent).toContain('Is the store open on Sunday?'));
    expect(within(dialog).getByTestId('message-2').textContent).toContain('Yes, from 9 to 13.');
    expect(within(dialog).queryAllByRole('button', { name: /^Message actions/ })).toHaveLength(0);
    const surface = dialog.closest('[role="dialog"]') as HTMLElement;
    expect(surface.textContent).toContain('Messages of ticket #3');
    expect(surface.textContent).toContain('Carlos Lima');
    expect(calls.some((c) => c.method === 'GET' && c.url === '/messages/3')).toBe(true);
    expect(screen.getByTestId('location').textContent).toBe('/tickets');
    expect(screen.queryByTestId('message-input')).toBeNull();

    // The surface is aria-hidden until its enter transition ends.
    fireEvent.click(await within(surface).findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('peek-dialog')).toBeNull());
  });

  it('agents have no peek icon', async () => {
    ticketsServer({ tickets: [makeTicket(3, { userId: ME.id })] });
    signIn({ id: ME.id, profile: 'user', queues: [{ id: 2, name: 'Sales', color: '#2e7d32' }] });
    renderApp('/tickets');
    await screen.findByTestId('ticket-item-3');
    expect(screen.queryByTestId('ticket-peek-3')).toBeNull();
  });
});
