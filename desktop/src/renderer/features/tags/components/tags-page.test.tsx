import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../../test/render';
import type { Tag } from '../api/tags';

const tag = (id: number, name: string, extra: Partial<Tag> = {}): Tag => ({ id, name, color: '#00838f', kanban: 0, userId: 1, ticketsCount: 0, ...extra });

/** GET/POST/PUT/DELETE /tags in memory, as the server answers them. */
const tagsServer = (initial: Tag[]) => {
  const tags = [...initial];
  const calls = fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply();
    if (call.method === 'GET' && call.url === '/tags/') {
      const term = String((call.params as { searchParam?: string })?.searchParam ?? '').toLowerCase();
      return { data: { tags: tags.filter((t) => t.name.toLowerCase().includes(term)), count: tags.length, hasMore: false } };
    }
    if (call.method === 'POST' && call.url === '/tags') {
      const body = call.data as Tag;
      if (tags.some((t) => t.name.toLowerCase() === body.name.toLowerCase())) return { status: 400, data: { error: 'ERR_TAG_ALREADY_EXISTS' } };
      const created = tag(tags.length + 10, body.name, { color: body.color, kanban: body.kanban });
      tags.push(created);
      return { status: 201, data: created };
    }
    const id = Number(/^\/tags\/(\d+)$/.exec(call.url)?.[1]);
    if (call.method === 'PUT' && id) {
      const found = tags.find((t) => t.id === id)!;
      Object.assign(found, call.data);
      return { data: found };
    }
    if (call.method === 'DELETE' && id) {
      tags.splice(tags.findIndex((t) => t.id === id), 1);
      return { data: { message: 'Tag deleted' } };
    }
    return { data: [] };
  });
  return { tags, calls };
};

describe('/tags', () => {
  it('lists each tag as a coloured chip with its ticket count and a kanban mark', async () => {
    tagsServer([tag(1, 'VIP', { color: '#6a1b9a', ticketsCount: 3, kanban: 1 }), tag(2, 'Billing', { ticketsCount: 0 })]);
    signIn({ profile: 'admin' });
    renderApp('/tags');
    const chip = await screen.findByTestId('tag-chip-1');
    expect(chip.textContent).toBe('VIP');
    expect(chip.style.backgroundColor).toMatch(/^(#6a1b9a|rgb\(106, 27, 154\))$/);
    expect(screen.getByTestId('tag-count-1').textContent).toBe('3');
    expect(screen.getByTestId('tag-count-2').textContent).toBe('0');
    expect(screen.getByTestId('tag-kanban-1')).toBeTruthy();
    expect(screen.queryByTestId('tag-kanban-2')).toBeNull();
  });

  it('search asks the server with searchParam', async () => {
    const { calls } = tagsServer([tag(1, 'VIP'), tag(2, 'Billing')]);
    signIn({ profile: 'admin' });
    renderApp('/tags');
    await screen.findByTestId('tag-row-2');
    fireEvent.change(screen.getByTestId('tags-search').querySelector('input') ?? screen.getByTestId('tags-search'), { target: { value: 'bil' } });
    await waitFor(() => expect(screen.queryByTestId('tag-row-1')).toBeNull());
    expect(calls.some((c) => c.url === '/tags/' && (c.params as { searchParam: string }).searchParam === 'bil')).toBe(true);
    expect(screen.getByTestId('tag-row-2')).toBeTruthy();
  });

  it('an admin adds a kanban tag: too short a name is refused first, then POST /tags with name, colour and kanban', async () => {
    const { calls } = tagsServer([]);
    const toasts = collectToasts();
    signIn({ profile: 'admin' });
    renderApp('/tags');
    fireEvent.click(await screen.findByTestId('tags-add'));
    const modal = await screen.findByTestId('tag-modal');
    fireEvent.change(within(modal).getByTestId('tag-name'), { target: { value: 'ab' } });
    fireEvent.click(within(modal).getByTestId('tag-save'));
    expect(await within(modal).findByText('Too short (at least 3 characters)')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(modal).getByTestId('tag-name'), { target: { value: 'Urgente' } });
    fireEvent.change(within(modal).getByTestId('tag-color'), { target: { value: '#c62828' } });
    fireEvent.click(within(modal).getByRole('switch', { name: 'Kanban lane' }));
    fireEvent.click(within(modal).getByTestId('tag-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/tags')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({ name: 'Urgente', color: '#c62828', kanban: 1 });
    await waitFor(() => expect(screen.queryByTestId('tag-modal')).toBeNull());
    expect((await screen.findByTestId('tag-chip-10')).textContent).toBe('Urgente');
    expect(toasts.some((t) => t.intent === 'success' && t.message === 'Tag saved.')).toBe(true);
  });

  it('an agent adds a tag without the kanban switch and has no edit button', async () => {
    const { calls } = tagsServer([tag(1, 'VIP')]);
    signIn({ profile: 'user' });
    renderApp('/tags');
    await screen.findByTestId('tag-row-1');
    expect(screen.queryByTestId('tag-edit-1')).toBeNull();
    expect(screen.getByTestId('tag-delete-1')).toBeTruthy();
    fireEvent.click(screen.getByTestId('tags-add'));
    const modal = await screen.findByTestId('tag-modal');
    expect(within(modal).queryByRole('switch')).toBeNull();
    fireEvent.change(within(modal).getByTestId('tag-name'), { target: { value: 'Retorno' } });
    fireEvent.click(within(modal).getByTestId('tag-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({ name: 'Retorno', color: '#A4CCCC', kanban: 0 });
  });

  it('a duplicate name shows the translated error and keeps the dialog open', async () => {
    tagsServer([tag(1, 'VIP')]);
    const toasts = collectToasts();
    signIn({ profile: 'admin' });
    renderApp('/tags');
    fireEvent.click(await screen.findByTestId('tags-add'));
    const modal = await screen.findByTestId('tag-modal');
    fireEvent.change(within(modal).getByTestId('tag-name'), { target: { value: 'vip' } });
    fireEvent.click(within(modal).getByTestId('tag-save'));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error' && t.message === 'A tag with this name already exists.')).toBe(true));
    expect(screen.getByTestId('tag-modal')).toBeTruthy();
  });

  it('an admin edits a tag (PUT /tags/{id}) and deletes another after confirming', async () => {
    const { calls } = tagsServer([tag(1, 'VIP'), tag(2, 'Billing')]);
    signIn({ profile: 'admin' });
    renderApp('/tags');
    fireEvent.click(await screen.findByTestId('tag-edit-1'));
    const modal = await screen.findByTestId('tag-modal');
    expect((within(modal).getByTestId('tag-name') as HTMLInputElement).value).toBe('VIP');
    fireEvent.change(within(modal).getByTestId('tag-name'), { target: { value: 'VIP Gold' } });
    fireEvent.click(within(modal).getByTestId('tag-save'));
    await waitFor(() => expect(screen.getByTestId('tag-chip-1').textContent).toBe('VIP Gold'));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/tags/1', data: { name: 'VIP Gold', color: '#00838f', kanban: 0 } });

    fireEvent.click(screen.getByTestId('tag-delete-2'));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('tag-row-2')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/tags/2')).toBe(true);
  });
});
