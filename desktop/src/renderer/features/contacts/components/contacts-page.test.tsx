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
