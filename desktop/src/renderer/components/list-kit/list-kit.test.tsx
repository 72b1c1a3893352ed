import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import { Field, Input, Switch } from '@fluentui/react-components';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTagSchema } from '@atrium/shared';
import { api } from '../../api/client';
import { usePagedQuery, type Page } from '../../api/query';
import { collectToasts, fakeServer, renderWithProviders, signIn } from '../../test/render';
import {
  DataTable,
  DeleteDialog,
  EditDeleteActions,
  FormDialog,
  InfiniteList,
  ListHeader,
  nearBottom,
  useListDialogs,
  useSearch,
  type Column,
} from '.';

interface Item {
  id: number;
  name: string;
  note: string;
}

/** A shared schema (the tag's: name 3 to 100, colour a hex code, kanban 0/1 from a boolean). */
const itemSchema = createTagSchema;

const ITEMS_KEY = ['kit-items'] as const;

/** GET /items (paged, 2 per page, searchParam), POST, DELETE /items/{id}, in memory. */
const itemsServer = (initial: Item[]) => {
  const items = [...initial];
  const calls = fakeServer((call) => {
    if (call.method === 'GET' && call.url === '/items') {
      const { searchParam = '', pageNumber = 1 } = call.params as { searchParam?: string; pageNumber?: number };
      const found = items.filter((i) => i.name.toLowerCase().includes(searchParam.toLowerCase()));
      const page = found.slice((pageNumber - 1) * 2, pageNumber * 2);
      return { data: { records: page, hasMore: found.length > pageNumber * 2 } };
    }
    if (call.method === 'POST' && call.url === '/items') {
      const created = { id: items.length + 100, ...(call.data as Omit<Item, 'id'>) };
      items.push(created);
      return { status: 201, data: created };
    }
    const id = Number(/^\/items\/(\d+)$/.exec(call.url)?.[1]);
    if (call.method === 'DELETE' && id) {
      if (id === 99) return { status: 403, data: { error: 'ERR_NO_PERMISSION' } };
      items.splice(
        items.findIndex((i) => i.id === id),
        1,
      );
      return { data: { message: 'deleted' } };
    }
    return undefined;
  });
  return { items, calls };
};

const fetchItems = async (searchParam: string, pageNumber: number): Promise<Page<Item>> => {
  const { data } = await api.get<{ records: Item[]; hasMore: boolean }>('/items', { params: { searchParam, pageNumber } });
  return { items: data.records, hasMore: data.hasMore };
};

/** A list page built from the kit, as a feature would build it. */
function ItemsPage() {
  const { search, setSearch, searchParam } = useSearch();
  const list = usePagedQuery<Item>([...ITEMS_KEY, { searchParam }], (page) => fetchItems(searchParam, page));
  const dialogs = useListDialogs<Item>();
  const columns: Column<Item>[] = [
    { id: 'name', header: 'Name', cell: (item) => item.name, cellTestId: (item) => `item-name-${item.id}` },
    { id: 'note', header: 'Note', cell: (item) => item.note, secondary: true },
  ];
  return (
    <div style={{ height: 300 }}>
      <ListHeader
        title="Items"
        search={{ value: search, onChange: setSearch, label: 'Search items', testId: 'items-search' }}
        add={{ label: 'Add item', onClick: dialogs.openAdd, testId: 'items-add' }}
      />
      <InfiniteList
        list={list}
        emptyTitle="No items"
        testId="items-scroller"
      >
        <DataTable
          label="Items"
          rows={list.items}
          columns={columns}
          rowKey={(item) => item.id}
          rowTestId={(item) => `item-row-${item.id}`}
          actions={(item) => (
            <EditDeleteActions testIdPrefix="item" id={item.id} onEdit={() => dialogs.openEdit(item)} onDelete={() => dialogs.askDelete(item)} />
          )}
        />
      </InfiniteList>
      {dialogs.editing ? (
        <FormDialog
          title={dialogs.edited ? 'Edit item' : 'Add item'}
          schema={itemSchema}
          initialValues={{ name: dialogs.edited?.name ?? '', color: dialogs.edited?.note ?? '#fff', kanban: true }}
          messages={{ name: { tooShort: 'Mensagem muito curta', required: 'Obrigatório' } }}
          testId="item-modal"
          onClose={dialogs.closeForm}
          onSubmit={async (data) => {
            await api.post('/items', data);
          }}
        >
          {(form) => (
            <>
              <Field label="Name" {...form.field('name')}>
                <Input data-testid="item-name" {...form.text('name')} />
              </Field>
              <Field label="Colour" {...form.field('color')}>
                <Input data-testid="item-color" {...form.text('color')} />
              </Field>
              <Switch label="Kanban" {...form.check('kanban')} />
            </>
          )}
        </FormDialog>
      ) : null}
      <DeleteDialog
        item={dialogs.deleting}
        onClose={dialogs.closeDelete}
        title={(item) => `Delete ${item.name}?`}
        body="It cannot be undone."
        remove={(item) => api.delete(`/items/${item.id}`)}
        listKey={ITEMS_KEY}
        deletedMessage="Item deleted."
      />
    </div>
  );
}

/** Gives a happy-dom element the box a browser would lay out. */
const layOut = (el: HTMLElement, box: { scrollHeight: number; clientHeight: number; scrollTop: number }) => {
  Object.defineProperty(el, 'scrollHeight', { configurable: true, value: box.scrollHeight });
  Object.defineProperty(el, 'clientHeight', { configurable: true, value: box.clientHeight });
  el.scrollTop = box.scrollTop;
};

const item = (id: number, name: string, note = ''): Item => ({ id, name, note });

afterEach(() => {
  vi.useRealTimers();
});

describe('list kit: search', () => {
  it('gives the term to search with 500 ms after typing stops, trimmed', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useSearch({ lowerCase: true }));
    act(() => result.current.setSearch(' An'));
    act(() => vi.advanceTimersByTime(300));
    act(() => result.current.setSearch(' Ana '));
    act(() => vi.advanceTimersByTime(499));
    expect(result.current.search).toBe(' Ana ');
    expect(result.current.searchParam).toBe('');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.searchParam).toBe('ana');
  });

  it('a list page asks the server with the debounced term and shows what it answers', async () => {
    const { calls } = itemsServer([item(1, 'Alpha'), item(2, 'Beta')]);
    signIn();
    renderWithProviders(<ItemsPage />);
    await screen.findByTestId('item-row-2');
    const box = screen.getByTestId('items-search');
    fireEvent.change(box.querySelector('input') ?? box, { target: { value: 'bet' } });
    await waitFor(() => expect(screen.queryByTestId('item-row-1')).toBeNull());
    expect(screen.getByTestId('item-row-2')).toBeTruthy();
    const searches = calls.filter((c) => c.url === '/items').map((c) => (c.params as { searchParam: string }).searchParam);
    // No request for the partial terms typed in between: only '' and then the term.
    expect(searches).toEqual(['', 'bet']);
  });
});

describe('list kit: infinite scroll and empty state', () => {
  it('nearBottom: within 100 px of the end', () => {
    expect(nearBottom({ scrollHeight: 1000, clientHeight: 400, scrollTop: 600 })).toBe(true);
    expect(nearBottom({ scrollHeight: 1000, clientHeight: 400, scrollTop: 500 })).toBe(true);
    expect(nearBottom({ scrollHeight: 1000, clientHeight: 400, scrollTop: 499 })).toBe(false);
    expect(nearBottom({ scrollHeight: 1000, clientHeight: 400, scrollTop: 0 })).toBe(false);
  });

  it('loads the next page when scrolled within 100 px of the bottom, not before, and stops at the end', async () => {
    const { calls } = itemsServer([item(1, 'A1'), item(2, 'A2'), item(3, 'A3'), item(4, 'A4'), item(5, 'A5')]);
    signIn();
    renderWithProviders(<ItemsPage />);
    await screen.findByTestId('item-row-2');
    const scroller = screen.getByTestId('items-scroller');
    const pages = () => calls.filter((c) => c.url === '/items').map((c) => (c.params as { pageNumber: number }).pageNumber);

    layOut(scroller, { scrollHeight: 1000, clientHeight: 400, scrollTop: 480 });
    fireEvent.scroll(scroller);
    expect(pages()).toEqual([1]);

    layOut(scroller, { scrollHeight: 1000, clientHeight: 400, scrollTop: 520 });
    fireEvent.scroll(scroller);
    await screen.findByTestId('item-row-4');
    expect(pages()).toEqual([1, 2]);

    fireEvent.scroll(scroller);
    await screen.findByTestId('item-row-5');
    expect(pages()).toEqual([1, 2, 3]);
    fireEvent.scroll(scroller);
    expect(pages()).toEqual([1, 2, 3]);
  });

  it('shows the empty state when there is nothing', async () => {
    itemsServer([]);
    signIn();
    renderWithProviders(<ItemsPage />);
    const empty = await screen.findByTestId('empty-state');
    expect(empty.textContent).toContain('No items');
  });
});

describe('list kit: table and row actions', () => {
  it('renders a header, one row per record with its cells, and the row actions named by their tooltips', () => {
    const edits: number[] = [];
    const columns: Column<Item>[] = [
      { id: 'name', header: 'Name', cell: (i) => i.name, cellTestId: (i) => `name-${i.id}` },
      { id: 'note', header: 'Note', cell: (i) => i.note, width: 120 },
    ];
    signIn();
    renderWithProviders(
      <DataTable
        label="Things"
        rows={[item(1, 'One', 'first'), item(2, 'Two', 'second')]}
        columns={columns}
        rowKey={(i) => i.id}
        rowTestId={(i) => `row-${i.id}`}
        actions={(i) => <EditDeleteActions testIdPrefix="thing" id={i.id} onEdit={() => edits.push(i.id)} />}
      />,
    );
    const table = screen.getByRole('table', { name: 'Things' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Note', '']);
    expect(screen.getByTestId('name-2').textContent).toBe('Two');
    expect(within(screen.getByTestId('row-1')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['One', 'first', '']);
    // No delete handler: no delete button.
    expect(screen.queryByTestId('thing-delete-1')).toBeNull();
    fireEvent.click(within(screen.getByTestId('row-2')).getByRole('button', { name: 'Edit' }));
    expect(edits).toEqual([2]);
  });
});

describe('list kit: form dialog', () => {
  it('validates with the schema, shows the spec messages, sends nothing until valid, then saves and closes', async () => {
    const { calls } = itemsServer([]);
    signIn();
    renderWithProviders(<ItemsPage />);
    fireEvent.click(await screen.findByTestId('items-add'));
    const modal = await screen.findByTestId('item-modal');

    fireEvent.click(within(modal).getByTestId('item-modal-save'));
    expect(await within(modal).findByText('Obrigatório')).toBeTruthy();
    fireEvent.change(within(modal).getByTestId('item-name'), { target: { value: 'ab' } });
    // Typing clears that field's message.
    expect(within(modal).queryByText('Obrigatório')).toBeNull();
    fireEvent.change(within(modal).getByTestId('item-color'), { target: { value: 'red' } });
    fireEvent.click(within(modal).getByTestId('item-modal-save'));
    expect(await within(modal).findByText('Mensagem muito curta')).toBeTruthy();
    // A field without its own messages gets the common words.
    expect(within(modal).getByText('Invalid value')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(modal).getByTestId('item-name'), { target: { value: '  Gamma ' } });
    fireEvent.change(within(modal).getByTestId('item-color'), { target: { value: '#c62828' } });
    fireEvent.click(within(modal).getByRole('switch', { name: 'Kanban' }));
    fireEvent.click(within(modal).getByTestId('item-modal-save'));
    await waitFor(() => expect(screen.queryByTestId('item-modal')).toBeNull());
    // The parsed data (trimmed by the schema) is what is sent.
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({ name: 'Gamma', color: '#c62828', kanban: 0 });
  });

  it('a failed save is toasted and the dialog stays open with what was typed', async () => {
    fakeServer(() => ({ status: 400, data: { error: 'ERR_DUPLICATED' } }));
    const toasts = collectToasts();
    let closed = false;
    signIn();
    renderWithProviders(
      <FormDialog
        title="Add"
        schema={itemSchema}
        initialValues={{ name: 'Delta', color: '#fff', kanban: false }}
        testId="f"
        onClose={() => (closed = true)}
        onSubmit={async (data) => {
          await api.post('/items', data);
        }}
      >
        {(form) => <Input data-testid="f-name" {...form.text('name')} />}
      </FormDialog>,
    );
    fireEvent.click(await screen.findByTestId('f-save'));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error' && t.message.includes('ERR_DUPLICATED'))).toBe(true));
    expect(closed).toBe(false);
    expect((screen.getByTestId('f-name') as HTMLInputElement).value).toBe('Delta');
  });
});

describe('list kit: delete confirmation', () => {
  it('asks first; confirming deletes, reloads the list and shows the success toast', async () => {
    const { calls } = itemsServer([item(1, 'Alpha'), item(2, 'Beta')]);
    const toasts = collectToasts();
    signIn();
    renderWithProviders(<ItemsPage />);
    fireEvent.click(await screen.findByTestId('item-delete-2'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Delete Beta?');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('item-row-2')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/items/2']);
    expect(toasts.some((t) => t.intent === 'success' && t.message === 'Item deleted.')).toBe(true);
    expect(screen.getByTestId('item-row-1')).toBeTruthy();
  });

  it('cancel deletes nothing; a refused delete is the error toast and the row stays', async () => {
    const { calls } = itemsServer([item(99, 'Locked')]);
    const toasts = collectToasts();
    signIn();
    renderWithProviders(<ItemsPage />);
    fireEvent.click(await screen.findByTestId('item-delete-99'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByTestId('item-delete-99'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error')).toBe(true));
    expect(screen.getByTestId('item-row-99')).toBeTruthy();
  });
});
