import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactListImportView } from '@atrium/shared';
import { realtime } from '../../../api/socket';
import { usePreferences } from '../../../stores/preferences-store';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';
import type { ContactList, ContactListItem } from '../api/contact-lists';

const NOW = '2026-11-27T00:00:00.000Z';

const list = (id: number, name: string, extra: Partial<ContactList> = {}): ContactList => ({
  id,
  name,
  companyId: 3,
  contactsCount: 0,
  validCount: 0,
  invalidCount: 0,
  uncheckedCount: 0,
  checkState: 'idle',
  campaignId: null,
  lastImport: null,
  createdAt: NOW,
  updatedAt: NOW,
  ...extra,
});

const entry = (id: number, name: string, extra: Partial<ContactListItem> = {}): ContactListItem => ({
  id,
  name,
  number: `55119000000${id}`,
  email: '',
  isWhatsappValid: false,
  checkedAt: null,
  companyId: 3,
  contactListId: 1,
  createdAt: NOW,
  updatedAt: NOW,
  ...extra,
});

const job = (extra: Partial<ContactListImportView>): ContactListImportView => ({
  id: 9,
  contactListId: 1,
  status: 'running',
  fileName: 'clientes.xlsx',
  total: 100,
  processed: 0,
  created: 0,
  duplicates: 0,
  invalid: 0,
  error: null,
  createdAt: NOW,
  finishedAt: null,
  ...extra,
});

/** /contact-lists and /contact-list-items in memory, as the server answers them. */
const listsServer = (lists: ContactList[], items: ContactListItem[]) =>
  fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply({ useCampaigns: true });
    if (call.method === 'GET' && call.url === '/contact-lists/') {
      const term = String((call.params as { searchParam?: string }).searchParam ?? '').toLowerCase();
      return { data: { records: lists.filter((l) => l.name.toLowerCase().includes(term)), hasMore: false } };
    }
    if (call.method === 'POST' && call.url === '/contact-lists') {
      const created = list(lists.length + 10, (call.data as { name: string }).name);
      lists.unshift(created);
      return { status: 201, data: created };
    }
    const one = /^\/contact-lists\/(\d+)$/.exec(call.url);
    if (call.method === 'GET' && one) return { data: lists.find((l) => l.id === Number(one[1])) };
    if (call.method === 'POST' && /^\/contact-lists\/1\/upload$/.test(call.url)) return { status: 202, data: job({ status: 'pending', total: 0 }) };
    if (call.method === 'POST' && /^\/contact-lists\/1\/check$/.test(call.url)) return { data: lists[0] };
    if (call.method === 'GET' && call.url === '/contact-list-items') {
      const { contactListId } = call.params as { contactListId: number };
      return { data: { contacts: items.filter((i) => i.contactListId === contactListId), hasMore: false } };
    }
    if (call.method === 'POST' && call.url === '/contact-list-items') {
      const data = call.data as { name: string; number: string; contactListId: number };
      const created = entry(items.length + 50, data.name, { number: data.number, contactListId: data.contactListId });
      items.push(created);
      return { status: 201, data: created };
    }
    return undefined;
  });

// The pages are lazy routes: loaded once here, so a busy machine's first transform is not a test's time.
beforeAll(async () => {
  await Promise.all([import('./contact-lists-page'), import('./contact-list-items-page')]);
});

describe('/contact-lists', () => {
  it('lists names with the contacts count and the WhatsApp split, and opens a list', async () => {
    listsServer([list(1, 'Clientes', { contactsCount: 5, validCount: 3, invalidCount: 1, uncheckedCount: 1 }), list(2, 'Vazia')], []);
    usePreferences.setState({ cshow: true });
    signIn({ profile: 'admin' });
    renderApp('/contact-lists');
    const count = await screen.findByTestId('contact-list-count-1');
    expect(count.textContent).toContain('5');
    expect(count.textContent).toContain('3 on WhatsApp');
    expect(count.textContent).toContain('1 not on WhatsApp');
    expect(screen.getByTestId('contact-list-count-2').textContent).toBe('0');
    fireEvent.click(screen.getByTestId('contact-list-open-1'));
    expect(await screen.findByTestId('contact-list-items-list-name')).toBeTruthy();
  });

  it('adds a list through the dialog, refusing a one-letter name', async () => {
    const toasts = collectToasts();
    const calls = listsServer([], []);
    usePreferences.setState({ cshow: true });
    signIn({ profile: 'admin' });
    renderApp('/contact-lists');
    fireEvent.click(await screen.findByTestId('contact-lists-add'));
    const name = (await screen.findByTestId('contact-list-name')) as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'A' } });
    fireEvent.click(screen.getByTestId('contact-list-save'));
    await waitFor(() => expect(within(screen.getByTestId('contact-list-dialog')).getByRole('alert')).toBeTruthy());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(name, { target: { value: 'Leads de novembro' } });
    fireEvent.click(screen.getByTestId('contact-list-save'));
    await waitFor(() => expect(toasts.some((t) => t.message === 'Contact list saved.')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({ name: 'Leads de novembro' });
  });
});

describe('/contact-lists/:id/contacts', () => {
  let socketServer: TestSocketServer;
  beforeAll(async () => {
    socketServer = await startSocketServer();
  });
  afterAll(async () => {
    await socketServer.close();
  });
  const connect = async () => {
    realtime.connect({ url: socketServer.url, token: 'token-1', companyId: 3, userId: 1, renewToken: async () => null });
    await until(() => realtime.connected && socketServer.sockets.length > 0);
    return socketServer.sockets[socketServer.sockets.length - 1];
  };

  it('shows found, not-found and unchecked numbers, and why they stay unchecked', async () => {
    listsServer(
      [list(1, 'Clientes', { contactsCount: 3, validCount: 1, invalidCount: 1, uncheckedCount: 1, checkState: 'noConnection' })],
      [entry(1, 'Ana', { isWhatsappValid: true, checkedAt: NOW }), entry(2, 'Bruno', { checkedAt: NOW }), entry(3, 'Carla')],
    );
    usePreferences.setState({ cshow: true });
    signIn({ profile: 'admin' });
    renderApp('/contact-lists/1/contacts');
    expect((await screen.findByTestId('contact-list-item-valid-1')).dataset.state).toBe('valid');
    expect(screen.getByTestId('contact-list-item-valid-2').dataset.state).toBe('invalid');
    expect(screen.getByTestId('contact-list-item-valid-3').dataset.state).toBe('unchecked');
    expect((await screen.findByTestId('contact-list-no-connection')).textContent).toContain('1 numbers are not checked yet');
  });

  it('uploads a spreadsheet and follows the import over realtime to its outcome and invalid-row report', async () => {
    const calls = listsServer([list(1, 'Clientes')], []);
    usePreferences.setState({ cshow: true });
    signIn({ profile: 'admin' });
    const socket = await connect();
    renderApp('/contact-lists/1/contacts');
    await screen.findByTestId('contact-list-items-list-name');
    const input = screen.getByTestId('contact-list-import-input') as HTMLInputElement;
    const file = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'clientes.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/contact-lists/1/upload')).toBe(true));
    expect(((calls.find((c) => c.url === '/contact-lists/1/upload')!.data as FormData).get('file') as File).name).toBe('clientes.xlsx');
    expect(await screen.findByTestId('contact-list-import-progress')).toBeTruthy();

    act(() => void socket.emit('company-3-ContactListItem', { action: 'import', contactListId: 1, import: job({ processed: 40 }) }));
    await waitFor(() => expect(screen.getByTestId('contact-list-import-progress').textContent).toContain('40 of 100'));
    // Another list's import does not show here.
    act(() => void socket.emit('company-3-ContactListItem', { action: 'import', contactListId: 2, import: job({ contactListId: 2, processed: 90 }) }));
    act(
      () =>
        void socket.emit('company-3-ContactListItem', {
          action: 'import',
          contactListId: 1,
          import: job({ status: 'done', processed: 100, created: 95, duplicates: 2, invalid: 3, finishedAt: NOW }),
        }),
    );
    const done = await screen.findByTestId('contact-list-import-done');
    expect(done.textContent).toContain('95 added, 2 duplicates skipped, 3 invalid rows');
    expect(screen.queryByTestId('contact-list-import-progress')).toBeNull();
    expect(screen.getByTestId('contact-list-import-invalid')).toBeTruthy();
  });

  it('refuses a file that is not a spreadsheet before sending it', async () => {
    const toasts = collectToasts();
    const calls = listsServer([list(1, 'Clientes')], []);
    usePreferences.setState({ cshow: true });
    signIn({ profile: 'admin' });
    renderApp('/contact-lists/1/contacts');
    await screen.findByTestId('contact-list-items-list-name');
    const input = screen.getByTestId('contact-list-import-input') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['a;b'], 'clientes.csv', { type: 'text/csv' })] } });
    await waitFor(() => expect(toasts.some((t) => t.message === 'Only .xls and .xlsx spreadsheets can be imported.')).toBe(true));
    expect(calls.some((c) => c.url.endsWith('/upload'))).toBe(false);
  });
});
