import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { collectToasts, renderApp, signIn } from '../../../test/render';
import type { TicketNote } from '../api/types';
import { makeContact, makeMessage, makeTicket, ME, ticketsServer } from '../test/fake-tickets-server';

const MARIA = makeContact(11, {
  name: 'Maria Oliveira',
  number: '5511987654321',
  email: 'maria@example.com',
  extraInfo: [{ id: 51, name: 'CPF', value: '123.456.789-00' }],
});

const setup = (notes: TicketNote[] = []) => {
  const ticket = makeTicket(1, { contact: MARIA, contactId: MARIA.id });
  const server = ticketsServer({
    tickets: [ticket],
    contacts: [structuredClone(MARIA)],
    notes,
    messages: [makeMessage(1, 1, { body: 'Hi' })],
  });
  signIn({ id: ME.id, name: ME.name });
  renderApp('/tickets/uuid-1');
  return server;
};

/** Opens the drawer from the conversation header and waits for the contact to load. */
const openDrawer = async () => {
  // Named by what it shows (the contact), described by what it does.
  // Its name is what it shows (the avatar's initials are decoration); what it does is its description.
  fireEvent.click(await screen.findByRole('button', { name: /^Maria Oliveira #\d+ ?Assigned to /, description: 'Contact details' }));
  const drawer = await screen.findByRole('dialog');
  await waitFor(() => expect((within(drawer).getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Maria Oliveira'));
  return drawer;
};

const field = (drawer: HTMLElement, label: RegExp) => within(drawer).getByLabelText(label) as HTMLInputElement;

describe('contact drawer: header and edit form', () => {
  it('shows the contact and fills the form from GET /contacts/{id}', async () => {
    setup();
    const drawer = await openDrawer();
    expect(within(drawer).getByTestId('contact-drawer-header').textContent).toContain('Maria Oliveira');
    expect(within(drawer).getByTestId('contact-drawer-header').textContent).toContain('5511987654321');
    expect(within(drawer).getByTestId('contact-drawer-header').textContent).toContain('maria@example.com');
    expect(field(drawer, /^Number/).value).toBe('5511987654321');
    expect(field(drawer, /^Email/).value).toBe('maria@example.com');
    expect(field(drawer, /^Field/).value).toBe('CPF');
    expect(field(drawer, /^Value/).value).toBe('123.456.789-00');
    expect(within(drawer).getByTestId('contact-extra-list').textContent).toContain('CPF');
  });

  it('saves name, number, email and the extra info pairs with PUT /contacts/{id}; the header follows', async () => {
    const { calls } = setup();
    const toasts = collectToasts();
    const drawer = await openDrawer();
    fireEvent.change(field(drawer, /^Name/), { target: { value: 'Maria O. Santos' } });
    fireEvent.change(field(drawer, /^Email/), { target: { value: 'maria.santos@example.com' } });
    fireEvent.change(field(drawer, /^Value/), { target: { value: '987.654.321-00' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Add field' }));
    const names = within(drawer).getAllByLabelText(/^Field/) as HTMLInputElement[];
    const values = within(drawer).getAllByLabelText(/^Value/) as HTMLInputElement[];
    expect(names).toHaveLength(2);
    fireEvent.change(names[1], { target: { value: 'Plan' } });
    fireEvent.change(values[1], { target: { value: 'Gold' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url === '/contacts/11')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT' && c.url === '/contacts/11');
    expect(put?.data).toEqual({
      name: 'Maria O. Santos',
      number: '5511987654321',
      email: 'maria.santos@example.com',
      extraInfo: [
        { id: 51, name: 'CPF', value: '987.654.321-00' },
        { name: 'Plan', value: 'Gold' },
      ],
    });
    await waitFor(() => expect(toasts.map((t) => t.message)).toContain('Contact saved.'));
    await waitFor(() => expect(screen.getByTestId('conversation-contact').textContent).toContain('Maria O. Santos'));
    await waitFor(() => expect(within(drawer).getByTestId('contact-extra-list').textContent).toContain('Gold'));
  });

  it('removing a pair sends the list without it (the server deletes what is not sent)', async () => {
    const { calls } = setup();
    const drawer = await openDrawer();
    fireEvent.click(within(drawer).getByRole('button', { name: 'Remove CPF' }));
    expect(within(drawer).queryAllByLabelText(/^Field/)).toHaveLength(0);
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect((calls.find((c) => c.method === 'PUT')?.data as { extraInfo: unknown[] }).extraInfo).toEqual([]);
  });

  it('validates with the contact rules before saving (name 2-50, number 8-50, valid email)', async () => {
    const { calls } = setup();
    const drawer = await openDrawer();
    fireEvent.change(field(drawer, /^Name/), { target: { value: 'M' } });
    fireEvent.change(field(drawer, /^Number/), { target: { value: '123' } });
    fireEvent.change(field(drawer, /^Email/), { target: { value: 'not-an-email' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save' }));
    expect(await within(drawer).findByText('Too short (at least 2 characters)')).toBeTruthy();
    expect(within(drawer).getByText('Too short (at least 8 characters)')).toBeTruthy();
    expect(within(drawer).getByText('Invalid email')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('a refused save keeps the form and shows the translated error', async () => {
    const server = setup();
    server.state.fail['PUT /contacts/:id'] = { status: 400, data: { error: 'ERR_DUPLICATED_CONTACT' } };
    const toasts = collectToasts();
    const drawer = await openDrawer();
    fireEvent.change(field(drawer, /^Number/), { target: { value: '5511911112222' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error')).toBe(true));
    expect(toasts.find((t) => t.intent === 'error')?.message).not.toBe('ERR_DUPLICATED_CONTACT');
    expect(field(drawer, /^Number/).value).toBe('5511911112222');
  });
});

describe('contact drawer: ticket notes', () => {
  const note = (id: number, text: string) => ({
    id,
    note: text,
    ticketId: 1,
    contactId: 11,
    user: { id: 7, name: 'Ana Admin' },
    createdAt: new Date(2024, 4, 3, 10, 30).toISOString(),
  });

  it('lists the notes of the ticket (GET /ticket-notes/list with ticketId and contactId)', async () => {
    const { calls } = setup([note(1, 'Prefers calls after 6 pm')]);
    const drawer = await openDrawer();
    const list = await within(drawer).findByTestId('ticket-notes');
    await waitFor(() => expect(list.textContent).toContain('Prefers calls after 6 pm'));
    expect(list.textContent).toContain('Ana Admin');
    expect(list.textContent).toContain('03/05/2024 10:30');
    expect(calls.find((c) => c.url === '/ticket-notes/list')?.params).toEqual({ ticketId: 1, contactId: 11 });
  });

  it('adds a note (POST /ticket-notes) with its success toast, and refuses one under 2 characters', async () => {
    const { calls } = setup();
    const toasts = collectToasts();
    const drawer = await openDrawer();
    await within(drawer).findByText('No notes');
    const box = within(drawer).getByPlaceholderText('Write a note');
    fireEvent.change(box, { target: { value: ' x ' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Add note' }));
    expect(await within(drawer).findByText('Too short (at least 2 characters)')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/ticket-notes')).toBe(false);

    fireEvent.change(box, { target: { value: 'Asked for a refund' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Add note' }));
    await waitFor(() => expect(within(drawer).getByTestId('ticket-notes').textContent).toContain('Asked for a refund'));
    expect(calls.find((c) => c.method === 'POST' && c.url === '/ticket-notes')?.data).toEqual({ note: 'Asked for a refund', ticketId: 1, contactId: 11 });
    expect(toasts.map((t) => t.message)).toContain('Note added successfully!');
    expect((box as HTMLTextAreaElement).value).toBe('');
  });

  it('deletes a note (DELETE /ticket-notes/{id}) with its success toast', async () => {
    const { calls } = setup([note(1, 'Old note'), note(2, 'Keep me')]);
    const toasts = collectToasts();
    const drawer = await openDrawer();
    await waitFor(() => expect(within(drawer).getByTestId('ticket-notes').textContent).toContain('Old note'));
    fireEvent.click(within(drawer).getByRole('button', { name: 'Delete note: Old note' }));
    await waitFor(() => expect(within(drawer).getByTestId('ticket-notes').textContent).not.toContain('Old note'));
    expect(within(drawer).getByTestId('ticket-notes').textContent).toContain('Keep me');
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/ticket-notes/1')).toBe(true);
    expect(toasts.map((t) => t.message)).toContain('Note deleted successfully!');
  });

  it('in Portuguese the toasts are the family’s words', async () => {
    const { i18n } = await import('../../../i18n');
    await i18n.changeLanguage('pt');
    setup();
    const toasts = collectToasts();
    fireEvent.click(await screen.findByRole('button', { description: 'Dados do contato' }));
    const drawer = await screen.findByRole('dialog');
    const box = await within(drawer).findByPlaceholderText('Escreva uma observação');
    fireEvent.change(box, { target: { value: 'Cliente VIP' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(toasts.map((t) => t.message)).toContain('Observação adicionada com sucesso!'));
  });
});
