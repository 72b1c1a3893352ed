import { useState } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Button, Field, Input } from '@fluentui/react-components';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTagSchema, type CreateTagInput } from '@atrium/shared';
import { api } from '../../api/client';
import type { Page } from '../../api/query';
import { realtime } from '../../api/socket';
import { i18n } from '../../i18n';
import { collectToasts, fakeServer, renderWithProviders, signIn } from '../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../test/socket-server';
import { CrudListPage, FormDialog, mergeRecordEvent, RecordCell, saveRecord, type Column, type CrudListPageProps } from '.';

interface Item {
  id: number;
  name: string;
  mine: boolean;
}

const item = (id: number, name: string, mine = true): Item => ({ id, name, mine });

// The strings a CrudListPage reads from its namespace.
i18n.addResourceBundle('en', 'kit-items', {
  title: 'Items',
  search: 'Search items',
  add: 'Add item',
  empty: 'No items yet',
  columns: { name: 'Name', actions: 'Actions' },
  confirmDelete: { title: 'Delete {{name}}?', body: 'It cannot be undone.' },
  toasts: { deleted: 'Item deleted.' },
});

const ITEMS_KEY = ['kit-items'] as const;

/** GET /items (paged by `perPage`, searchParam), POST /items, PUT and DELETE /items/{id}, in memory. */
const itemsServer = (initial: Item[], perPage = 50) => {
  const items = [...initial];
  const calls = fakeServer((call) => {
    if (call.method === 'GET' && call.url === '/items') {
      const { searchParam = '', pageNumber = 1 } = call.params as { searchParam?: string; pageNumber?: number };
      const found = items.filter((i) => i.name.toLowerCase().includes(searchParam.toLowerCase()));
      return { data: { records: found.slice((pageNumber - 1) * perPage, pageNumber * perPage), hasMore: found.length > pageNumber * perPage } };
    }
    if (call.method === 'POST' && call.url === '/items') {
      const created = item(items.length + 100, (call.data as CreateTagInput).name);
      items.push(created);
      return { status: 201, data: created };
    }
    const id = Number(/^\/items\/(\d+)$/.exec(call.url)?.[1]);
    if (call.method === 'PUT' && id) {
      const found = items.find((i) => i.id === id)!;
      found.name = (call.data as CreateTagInput).name;
      return { data: found };
    }
    if (call.method === 'DELETE' && id) {
      items.splice(
        items.findIndex((i) => i.id === id),
        1,
      );
      return { data: {} };
    }
    return undefined;
  });
  return { items, calls };
};

const itemsApi = {
  page: async (searchParam: string, pageNumber: number): Promise<Page<Item>> => {
    const { data } = await api.get<{ records: Item[]; hasMore: boolean }>('/items', { params: { searchParam, pageNumber } });
    return { items: data.records, hasMore: data.hasMore };
  },
  create: async (input: CreateTagInput) => (await api.post<Item>('/items', input)).data,
  update: async (id: number, input: Partial<CreateTagInput>) => (await api.put<Item>(`/items/${id}`, input)).data,
  remove: (id: number) => api.delete(`/items/${id}`),
};

const columns: Column<Item>[] = [{ id: 'name', header: 'Name', cell: (i) => i.name, cellTestId: (i) => `item-name-${i.id}` }];

/** The add/edit dialog of the page: a FormDialog saving with the kit's saveRecord (POST or PUT, reload, toast). */
function ItemDialog({ item: edited, onClose }: { item: Item | undefined; onClose: () => void }) {
  return (
    <FormDialog
      title={edited ? `Edit ${edited.name}` : 'Add item'}
      schema={createTagSchema}
      initialValues={{ name: edited?.name ?? '', color: '#fff', kanban: false }}
      testId="item-dialog"
      onClose={onClose}
      onSubmit={(data) => saveRecord(itemsApi, edited?.id, data, { listKey: ITEMS_KEY, savedMessage: 'Item saved.' })}
    >
      {(form) => (
        <Field label="Name" {...form.field('name')}>
          <Input data-testid="item-dialog-name" {...form.text('name')} />
        </Field>
      )}
    </FormDialog>
  );
}

/** A whole page as a feature declares it. */
const ItemsPage = (props: Partial<CrudListPageProps<Item, { action: string; record?: Item; id?: number }>>) => (
  <div style={{ height: 400 }}>
    <CrudListPage<Item, { action: string; record?: Item; id?: number }>
      namespace="kit-items"
      queryKey={[...ITEMS_KEY, 'page']}
      listKey={ITEMS_KEY}
      api={itemsApi}
      testIds={{ page: 'items', row: 'item' }}
      columns={columns}
      deleteTitleValues={(i) => ({ name: i.name })}
      dialog={({ item: edited, onClose }) => <ItemDialog item={edited} onClose={onClose} />}
      {...props}
    />
  </div>
);

type PageProps = Parameters<typeof ItemsPage>[0];

/** Signed in (company 3), the page over an in-memory server holding `rows`, `perPage` a page. */
const showPage = (rows: Item[], props: PageProps = {}, perPage?: number) => {
  const server = itemsServer(rows, perPage);
  signIn({ companyId: 3 });
  renderWithProviders(<ItemsPage {...props} />);
  return server;
};

const searchFor = (text: string) => {
  const box = screen.getByTestId('items-search');
  fireEvent.change(box.querySelector('input') ?? box, { target: { value: text } });
};

describe('CrudListPage', () => {
  it('shows the namespace’s title, search and add button, one row per record with edit and delete', async () => {
    showPage([item(1, 'Alpha'), item(2, 'Beta')]);
    await screen.findByTestId('item-row-2');
    expect(screen.getByRole('heading', { name: 'Items' })).toBeTruthy();
    expect(screen.getByTestId('items-add').textContent).toBe('Add item');
    const table = screen.getByRole('table', { name: 'Items' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Actions']);
    expect(screen.getByTestId('item-name-1').textContent).toBe('Alpha');
    expect(screen.getByTestId('item-edit-1')).toBeTruthy();
    expect(screen.getByTestId('item-delete-2')).toBeTruthy();
    expect(screen.getByTestId('items-scroller')).toBeTruthy();
  });

  it('shows the empty state from the namespace', async () => {
    showPage([]);
    expect((await screen.findByTestId('empty-state')).textContent).toContain('No items yet');
  });

  it('searches with the debounced term, lower-cased when asked', async () => {
    const { calls } = showPage([item(1, 'Alpha'), item(2, 'Beta')], { lowerCaseSearch: true });
    await screen.findByTestId('item-row-2');
    searchFor(' BET ');
    // The request goes out after the old rows leave (the new term's list starts empty): wait for both.
    await waitFor(() => expect(calls.filter((c) => c.url === '/items').map((c) => (c.params as { searchParam: string }).searchParam)).toEqual(['', 'bet']));
    await screen.findByTestId('item-row-2');
    expect(screen.queryByTestId('item-row-1')).toBeNull();
  });

  it('opens the dialog empty to add and with the row to edit; a save reloads the list and toasts', async () => {
    const { calls } = showPage([item(1, 'Alpha'), item(2, 'Beta')]);
    const toasts = collectToasts();
    fireEvent.click(await screen.findByTestId('item-edit-1'));
    let dialog = await screen.findByTestId('item-dialog');
    expect(dialog.textContent).toContain('Edit Alpha');
    expect((within(dialog).getByTestId('item-dialog-name') as HTMLInputElement).value).toBe('Alpha');
    fireEvent.change(within(dialog).getByTestId('item-dialog-name'), { target: { value: 'Alpha 2' } });
    fireEvent.click(within(dialog).getByTestId('item-dialog-save'));
    await waitFor(() => expect(screen.getByTestId('item-name-1').textContent).toBe('Alpha 2'));
    expect(screen.queryByTestId('item-dialog')).toBeNull();
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/items/1', data: { name: 'Alpha 2' } });
    expect(toasts.filter((t) => t.intent === 'success').map((t) => t.message)).toEqual(['Item saved.']);

    fireEvent.click(screen.getByTestId('items-add'));
    dialog = await screen.findByTestId('item-dialog');
    expect(dialog.textContent).toContain('Add item');
    expect((within(dialog).getByTestId('item-dialog-name') as HTMLInputElement).value).toBe('');
    fireEvent.change(within(dialog).getByTestId('item-dialog-name'), { target: { value: 'Gamma' } });
    fireEvent.click(within(dialog).getByTestId('item-dialog-save'));
    await waitFor(() => expect(screen.queryByTestId('item-dialog')).toBeNull());
    expect((await screen.findByTestId('item-name-102')).textContent).toBe('Gamma');
    expect(calls.find((c) => c.method === 'POST')?.data).toMatchObject({ name: 'Gamma' });
  });

  it('asks before deleting, with the row in the title; then deletes, reloads and toasts', async () => {
    const { calls } = showPage([item(1, 'Alpha'), item(2, 'Beta')]);
    const toasts = collectToasts();
    fireEvent.click(await screen.findByTestId('item-delete-2'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Delete Beta?');
    expect(dialog.textContent).toContain('It cannot be undone.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('item-row-2')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/items/2']);
    expect(toasts.some((t) => t.intent === 'success' && t.message === 'Item deleted.')).toBe(true);
  });

  it('shows add, edit and delete only to whom they are allowed, row by row', async () => {
    showPage([item(1, 'Mine'), item(2, 'Theirs', false)], { canAdd: false, canEdit: (i) => i.mine, canDelete: false });
    await screen.findByTestId('item-row-2');
    expect(screen.queryByTestId('items-add')).toBeNull();
    expect(screen.getByTestId('item-edit-1')).toBeTruthy();
    expect(screen.queryByTestId('item-edit-2')).toBeNull();
    expect(screen.queryByTestId('item-delete-1')).toBeNull();
  });

  it('puts a page’s own header buttons, row buttons and dialogs beside the kit’s', async () => {
    itemsServer([item(1, 'Alpha')]);
    const opened: number[] = [];
    signIn();
    function Page() {
      const [extraOpen, setExtraOpen] = useState(false);
      return (
        <ItemsPage
          headerExtra={<Button data-testid="items-export" onClick={() => setExtraOpen(true)}>Export</Button>}
          rowActions={(i) => <Button data-testid={`item-open-${i.id}`} onClick={() => opened.push(i.id)}>Open</Button>}
          actionsWidth={140}
        >
          {extraOpen ? <div data-testid="export-dialog" /> : null}
        </ItemsPage>
      );
    }
    renderWithProviders(<Page />);
    fireEvent.click(await screen.findByTestId('item-open-1'));
    expect(opened).toEqual([1]);
    expect(within(screen.getByTestId('item-row-1')).getByTestId('item-edit-1')).toBeTruthy();
    fireEvent.click(screen.getByTestId('items-export'));
    expect(screen.getByTestId('export-dialog')).toBeTruthy();
  });

  it('offers a load-more button when asked, while more pages are coming', async () => {
    const { calls } = showPage([item(1, 'A1'), item(2, 'A2'), item(3, 'A3')], { loadMoreButton: true }, 2);
    await screen.findByTestId('item-row-2');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByTestId('item-row-3');
    expect(calls.filter((c) => c.url === '/items').map((c) => (c.params as { pageNumber: number }).pageNumber)).toEqual([1, 2]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());
  });
});

describe('CrudListPage realtime', () => {
  let socketServer: TestSocketServer;
  beforeAll(async () => {
    socketServer = await startSocketServer();
  });
  afterAll(async () => {
    await socketServer.close();
  });

  const connect = async () => {
    realtime.connect({ url: socketServer.url, token: 'token-1', companyId: 3, userId: 7, renewToken: async () => null });
    await until(() => realtime.connected && socketServer.sockets.length > 0);
    return socketServer.sockets[socketServer.sockets.length - 1];
  };

  it('reads the list again on the company event of its resource', async () => {
    const { items, calls } = showPage([item(1, 'Alpha')], { realtime: { resource: 'tag' } });
    await screen.findByTestId('item-row-1');
    const socket = await connect();
    items.push(item(2, 'Beta'));
    socket.emit('company-3-tag', { action: 'create' });
    expect((await screen.findByTestId('item-name-2')).textContent).toBe('Beta');
    expect(calls.filter((c) => c.url === '/items')).toHaveLength(2);
  });

  it('patches the loaded rows with `merge`, without asking the server, on a global event name', async () => {
    const { calls } = showPage([item(1, 'Alpha'), item(2, 'Beta')], {
      realtime: { event: 'kit-items-changed', merge: (rows, event) => mergeRecordEvent(rows, event) },
    });
    await screen.findByTestId('item-row-2');
    const socket = await connect();
    socket.emit('kit-items-changed', { action: 'update', record: item(1, 'Alpha renamed') });
    await waitFor(() => expect(screen.getByTestId('item-name-1').textContent).toBe('Alpha renamed'));
    socket.emit('kit-items-changed', { action: 'delete', id: 2 });
    await waitFor(() => expect(screen.queryByTestId('item-row-2')).toBeNull());
    expect(calls.filter((c) => c.url === '/items')).toHaveLength(1);
  });
});

describe('mergeRecordEvent', () => {
  const rows = [item(1, 'A'), item(2, 'B')];

  it('drops a deleted row, by its id or its record', () => {
    expect(mergeRecordEvent(rows, { action: 'delete', id: 1 })).toEqual([item(2, 'B')]);
    expect(mergeRecordEvent(rows, { action: 'delete', record: item(2, 'B') })).toEqual([item(1, 'A')]);
  });

  it('merges a changed record into its row', () => {
    expect(mergeRecordEvent(rows, { action: 'update', record: { ...item(2, 'B2'), mine: false } })).toEqual([item(1, 'A'), item(2, 'B2', false)]);
  });

  it('adds a record not loaded at the end, or the start; with onlyCreated only a created one', () => {
    expect(mergeRecordEvent(rows, { action: 'update', record: item(3, 'C') }).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(mergeRecordEvent(rows, { action: 'create', record: item(3, 'C') }, { insert: 'start' }).map((r) => r.id)).toEqual([3, 1, 2]);
    expect(mergeRecordEvent(rows, { action: 'update', record: item(3, 'C') }, { onlyCreated: true })).toBe(rows);
  });

  it('leaves the rows as they are without a record', () => {
    expect(mergeRecordEvent(rows, { action: 'update' })).toBe(rows);
  });
});

describe('RecordCell', () => {
  it('shows the name with its badges and the preview line, the whole text in its tooltip', () => {
    render(<RecordCell name="Catalogue" nameTestId="cell-name" badges={<span data-testid="cell-badge">3 files</span>} preview="Our products for 2024" />);
    expect(screen.getByTestId('cell-name').textContent).toBe('Catalogue');
    expect(screen.getByTestId('cell-badge').textContent).toBe('3 files');
    expect(screen.getByTitle('Our products for 2024').textContent).toBe('Our products for 2024');
  });
});
