import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtime } from '../../../api/socket';
import { fakeServer, planReply, renderApp, signIn } from '../../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';
import type { Contact } from '../api/contacts';

const contact = (id: number, name: string): Contact =>
  ({ id, name, number: `55119999900${String(id).padStart(2, '0')}`, email: `${name.toLowerCase()}@x.com`, profilePicUrl: null }) as Contact;

const contactsServer = (initial: Contact[]) => {
  const contacts = [...initial];
  const calls = fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply();
    if (call.method === 'GET' && call.url === '/contacts') {
      const term = String((call.params as { searchParam?: string }).searchParam ?? '');
      return { data: { contacts: contacts.filter((c) => c.name.toLowerCase().includes(term)), hasMore: false, count: contacts.length } };
    }
    const id = Number(/^\/contacts\/(\d+)$/.exec(call.url)?.[1]);
    if (call.method === 'GET' && id) return { data: contacts.find((c) => c.id === id) };
    if (call.method === 'PUT' && id) return { data: { ...contacts.find((c) => c.id === id), ...(call.data as object) } };
    if (call.method === 'POST' && call.url === '/contacts') return { status: 201, data: { id: 99, ...(call.data as object) } };
    if (call.method === 'DELETE' && id) {
      contacts.splice(
        contacts.findIndex((c) => c.id === id),
        1,
      );
      return { data: { message: 'Contact deleted' } };
    }
    return { data: [] };
  });
  return { contacts, calls };
};

describe('/contacts list', () => {
  it('an admin deletes a contact after confirming; an agent has no delete button', async () => {
    const { calls } = contactsServer([contact(1, 'Ana'), contact(2, 'Bia')]);
    signIn({ profile: 'admin' });
    const { unmount } = renderApp('/contacts');
    fireEvent.click(await screen.findByTestId('contact-delete-2'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('contact-row-2')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/contacts/2')).toBe(true);
    unmount();

    signIn({ profile: 'user' });
    renderApp('/contacts');
    await screen.findByTestId('contact-row-1');
    expect(screen.getByTestId('contact-edit-1')).toBeTruthy();
    expect(screen.queryByTestId('contact-delete-1')).toBeNull();
  });
});

describe('the contact dialog', () => {
  it("opens an edit once the contact is read, with its extra info, and sends the edited list without blank rows", async () => {
    const ana = { ...contact(1, 'Ana'), extraInfo: [{ id: 5, name: 'CPF', value: '123.456.789-00' }] };
    const { calls } = contactsServer([ana, contact(2, 'Bia')]);
    signIn({ profile: 'admin' });
    renderApp('/contacts');
    fireEvent.click(await screen.findByTestId('contact-edit-1'));
    const dialog = await screen.findByTestId('contact-modal');
    expect((within(dialog).getByTestId('contact-name') as HTMLInputElement).value).toBe('Ana');
    const cpf = within(screen.getByTestId('contact-extra-0')).getAllByRole('textbox') as HTMLInputElement[];
    expect(cpf.map((i) => i.value)).toEqual(['CPF', '123.456.789-00']);
    fireEvent.change(within(dialog).getByTestId('contact-name'), { target: { value: 'Ana Paula' } });
    // A row added and left blank is not sent; a new filled one is.
    fireEvent.click(within(dialog).getByTestId('contact-add-extra'));
    fireEvent.click(within(dialog).getByTestId('contact-add-extra'));
    const [field, value] = within(screen.getByTestId('contact-extra-2')).getAllByRole('textbox');
    fireEvent.change(field, { target: { value: 'Plano' } });
    fireEvent.change(value, { target: { value: 'Ouro' } });
    fireEvent.click(within(dialog).getByTestId('contact-save'));
    await waitFor(() => expect(screen.queryByTestId('contact-modal')).toBeNull());
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: '/contacts/1',
      data: {
        name: 'Ana Paula',
        extraInfo: [
          { id: 5, name: 'CPF', value: '123.456.789-00' },
          { name: 'Plano', value: 'Ouro' },
        ],
      },
    });
  });

  it('shows the schema’s message under each wrong field and sends nothing', async () => {
    const { calls } = contactsServer([contact(1, 'Ana')]);
    signIn({ profile: 'admin' });
    renderApp('/contacts');
    fireEvent.click(await screen.findByTestId('contacts-add'));
    const dialog = await screen.findByTestId('contact-modal');
    fireEvent.change(within(dialog).getByTestId('contact-name'), { target: { value: 'A' } });
    fireEvent.change(within(dialog).getByTestId('contact-number'), { target: { value: '55 11' } });
    fireEvent.click(within(dialog).getByTestId('contact-save'));
    expect(await within(dialog).findByText('Too short (at least 2 characters)')).toBeTruthy();
    expect(within(dialog).getByText('Too short (at least 8 characters)')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/contacts')).toBe(false);
    fireEvent.change(within(dialog).getByTestId('contact-name'), { target: { value: 'Caio' } });
    fireEvent.change(within(dialog).getByTestId('contact-number'), { target: { value: '+55 (11) 98888-7777' } });
    fireEvent.click(within(dialog).getByTestId('contact-save'));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.url === '/contacts')?.data).toMatchObject({ name: 'Caio', number: '5511988887777' }));
  });
});

describe('/contacts realtime (company-{id}-contact)', () => {
  let socketServer: TestSocketServer;
  beforeAll(async () => {
    socketServer = await startSocketServer();
  });
  afterAll(async () => {
    await socketServer.close();
  });

  it('a created contact goes on top, an update is merged, a deleted one leaves', async () => {
    contactsServer([contact(1, 'Ana'), contact(2, 'Bia')]);
    signIn({ profile: 'admin', companyId: 3 });
    renderApp('/contacts');
    await screen.findByTestId('contact-row-2');
    realtime.connect({ url: socketServer.url, token: 'token-1', companyId: 3, userId: 7, renewToken: async () => null });
    await until(() => realtime.connected && socketServer.sockets.length > 0);
    const socket = socketServer.sockets[socketServer.sockets.length - 1];
    const rows = () => screen.getAllByTestId(/^contact-row-/).map((r) => r.getAttribute('data-testid'));

    socket.emit('company-3-contact', { action: 'create', contact: contact(7, 'Caio') });
    await screen.findByTestId('contact-row-7');
    expect(rows()).toEqual(['contact-row-7', 'contact-row-1', 'contact-row-2']);
    socket.emit('company-3-contact', { action: 'update', contact: { ...contact(1, 'Ana'), name: 'Ana Paula' } });
    await waitFor(() => expect(screen.getByTestId('contact-row-1').textContent).toContain('Ana Paula'));
    socket.emit('company-3-contact', { action: 'delete', contactId: 2 });
    await waitFor(() => expect(screen.queryByTestId('contact-row-2')).toBeNull());
  });
});
