import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { collectToasts, renderWithProviders, signIn } from '../../../test/render';
import type { QueueOption } from '../api/queue-options';
import { makeQueue, queuesServer } from '../test/fake-queues-server';
import { QueueModal } from './queue-modal';
import { nextOptionKey } from './queue-options-editor';

const option = (id: number, key: string, title: string, parentId: number | null = null, message = ''): QueueOption => ({
  id,
  option: key,
  title,
  message,
  queueId: 1,
  parentId,
});

/** Queue 1's menu: 1 Sales (with 1 New customer), 2 Support. */
const tree = () => [
  option(10, '1', 'Sales', null, 'Our sales team'),
  option(11, '2', 'Support', null, 'Tech support'),
  option(20, '1', 'New customer', 10, 'Welcome!'),
];

const openOptions = async (options: QueueOption[] = tree()) => {
  const server = queuesServer({ queues: [makeQueue(1, { greetingMessage: 'Hi' })], options });
  const toasts = collectToasts();
  signIn({ profile: 'admin' });
  renderWithProviders(<QueueModal queue={makeQueue(1, { greetingMessage: 'Hi' })} onClose={() => undefined} />);
  fireEvent.click(await screen.findByTestId('queue-tab-options'));
  await screen.findByTestId('queue-options');
  return { ...server, toasts };
};

const form = (container: HTMLElement) => within(within(container).getByTestId('queue-option-form'));

describe('queue option tree (spec 02 sections 3 and 4)', () => {
  it('is only available once the queue is saved', async () => {
    const { calls } = queuesServer();
    signIn({ profile: 'admin' });
    renderWithProviders(<QueueModal onClose={() => undefined} />);
    fireEvent.click(await screen.findByTestId('queue-tab-options'));
    expect(await screen.findByTestId('queue-options-save-first')).toBeTruthy();
    expect(screen.queryByTestId('queue-option-add')).toBeNull();
    expect(calls.some((c) => c.url === '/queue-options')).toBe(false);
  });

  it('shows the top level (parentId -1) and nests each option’s children, in view mode', async () => {
    const { calls } = await openOptions();
    const sales = await screen.findByTestId('queue-option-10');
    expect(within(sales).getByTestId('queue-option-10-key').textContent).toBe('1');
    expect(screen.getByTestId('queue-option-10-title').textContent).toBe('Sales');
    expect(screen.getByTestId('queue-option-10-message').textContent).toBe('Our sales team');
    expect(screen.getByTestId('queue-option-11-title').textContent).toBe('Support');
    // The child sits inside its parent's block, not beside it.
    const child = await within(sales).findByTestId('queue-option-20');
    expect(within(child).getByTestId('queue-option-20-title').textContent).toBe('New customer');
    expect(within(screen.getByTestId('queue-option-11')).queryByTestId('queue-option-20')).toBeNull();
    // The top level carries the whole tree in `children`: one request.
    const gets = calls.filter((c) => c.method === 'GET' && c.url === '/queue-options').map((c) => c.params);
    expect(gets).toEqual([{ queueId: 1, parentId: -1 }]);
    expect(screen.queryByTestId('queue-option-form')).toBeNull();
  });

  it('loads a level by its parentId when the server sends no children', async () => {
    const server = queuesServer({ queues: [makeQueue(1, { greetingMessage: 'Hi' })], options: tree(), withChildren: false });
    signIn({ profile: 'admin' });
    renderWithProviders(<QueueModal queue={makeQueue(1, { greetingMessage: 'Hi' })} onClose={() => undefined} />);
    fireEvent.click(await screen.findByTestId('queue-tab-options'));
    const sales = await screen.findByTestId('queue-option-10');
    expect(within(await within(sales).findByTestId('queue-option-20')).getByTestId('queue-option-20-title').textContent).toBe('New customer');
    const gets = server.calls.filter((c) => c.method === 'GET' && c.url === '/queue-options').map((c) => c.params);
    expect(gets).toContainEqual({ queueId: 1, parentId: -1 });
    expect(gets).toContainEqual({ queueId: 1, parentId: 10 });
    // A child draft saved at such a level shows up there.
    fireEvent.click(screen.getByTestId('queue-option-10-add-child'));
    const draft = await within(sales).findByTestId(/^queue-option-draft-/);
    fireEvent.change(form(draft).getByTestId('queue-option-title'), { target: { value: 'Existing customer' } });
    fireEvent.click(form(draft).getByTestId('queue-option-save'));
    expect((await within(sales).findByTestId('queue-option-100-key')).textContent).toBe('2');
  });

  it('says so when the queue has no options', async () => {
    await openOptions([]);
    expect(await screen.findByTestId('queue-options-empty')).toBeTruthy();
  });

  it('edit mode: title and message inputs; save sends PUT and returns to view mode', async () => {
    const { calls, toasts } = await openOptions();
    fireEvent.click(await screen.findByTestId('queue-option-11-edit'));
    const support = screen.getByTestId('queue-option-11');
    const f = form(support);
    expect((f.getByTestId('queue-option-title') as HTMLInputElement).value).toBe('Support');
    expect((f.getByTestId('queue-option-message') as HTMLTextAreaElement).value).toBe('Tech support');
    fireEvent.change(f.getByTestId('queue-option-title'), { target: { value: 'Help desk' } });
    fireEvent.change(f.getByTestId('queue-option-message'), { target: { value: 'We help you' } });
    fireEvent.click(f.getByTestId('queue-option-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url === '/queue-options/11')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.data).toEqual({ queueId: 1, parentId: null, title: 'Help desk', message: 'We help you', option: '2' });
    await waitFor(() => expect(screen.getByTestId('queue-option-11-title').textContent).toBe('Help desk'));
    expect(screen.getByTestId('queue-option-11-message').textContent).toBe('We help you');
    expect(within(screen.getByTestId('queue-option-11')).queryByTestId('queue-option-form')).toBeNull();
    expect(toasts.some((t) => t.intent === 'success' && t.message === 'Option saved.')).toBe(true);
  });

  it('cancelling an edit keeps the saved text and calls nothing', async () => {
    const { calls } = await openOptions();
    fireEvent.click(await screen.findByTestId('queue-option-10-edit'));
    const f = form(screen.getByTestId('queue-option-10'));
    fireEvent.change(f.getByTestId('queue-option-title'), { target: { value: 'Changed' } });
    fireEvent.click(f.getByTestId('queue-option-cancel'));
    await waitFor(() => expect(screen.getByTestId('queue-option-10-title').textContent).toBe('Sales'));
    expect(calls.some((c) => c.method === 'PUT' || c.method === 'POST')).toBe(false);
  });

  it('"add option" makes an unsaved draft; saving it POSTs with the next key', async () => {
    const { calls } = await openOptions();
    await screen.findByTestId('queue-option-11');
    fireEvent.click(screen.getByTestId('queue-option-add'));
    const draft = await screen.findByTestId(/^queue-option-draft-/);
    expect(within(draft).getByText('Not saved')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    const f = form(draft);
    // The title is required.
    fireEvent.click(f.getByTestId('queue-option-save'));
    expect(await within(draft).findByText('Required')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(f.getByTestId('queue-option-title'), { target: { value: 'Billing' } });
    fireEvent.change(f.getByTestId('queue-option-message'), { target: { value: 'Invoices and payments' } });
    fireEvent.click(f.getByTestId('queue-option-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/queue-options')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({
      queueId: 1,
      parentId: null,
      title: 'Billing',
      message: 'Invoices and payments',
      option: '3',
    });
    expect((await screen.findByTestId('queue-option-100-key')).textContent).toBe('3');
    expect(screen.getByTestId('queue-option-100-title').textContent).toBe('Billing');
    await waitFor(() => expect(screen.queryByTestId(/^queue-option-draft-/)).toBeNull());
  });

  it('"add sub-option" drafts under its parent and POSTs with that parentId', async () => {
    const { calls } = await openOptions();
    fireEvent.click(await screen.findByTestId('queue-option-10-add-child'));
    const sales = screen.getByTestId('queue-option-10');
    const draft = await within(sales).findByTestId(/^queue-option-draft-/);
    const f = form(draft);
    fireEvent.change(f.getByTestId('queue-option-title'), { target: { value: 'Existing customer' } });
    fireEvent.click(f.getByTestId('queue-option-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({ queueId: 1, parentId: 10, title: 'Existing customer', message: '', option: '2' });
    const saved = await within(sales).findByTestId('queue-option-100');
    expect(within(saved).getByTestId('queue-option-100-key').textContent).toBe('2');
  });

  it('cancelling a draft drops it without a call', async () => {
    const { calls } = await openOptions();
    await screen.findByTestId('queue-option-11');
    fireEvent.click(screen.getByTestId('queue-option-add'));
    const draft = await screen.findByTestId(/^queue-option-draft-/);
    fireEvent.click(form(draft).getByTestId('queue-option-cancel'));
    await waitFor(() => expect(screen.queryByTestId(/^queue-option-draft-/)).toBeNull());
    expect(calls.some((c) => c.method !== 'GET')).toBe(false);
  });

  it('a refused save stays a draft and shows the error toast', async () => {
    const { calls, state, toasts } = await openOptions();
    await screen.findByTestId('queue-option-11');
    state.optionError = 'ERR_NO_PERMISSION';
    fireEvent.click(screen.getByTestId('queue-option-add'));
    const draft = await screen.findByTestId(/^queue-option-draft-/);
    fireEvent.change(form(draft).getByTestId('queue-option-title'), { target: { value: 'Billing' } });
    fireEvent.click(form(draft).getByTestId('queue-option-save'));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error' && t.message === 'You do not have permission to access this resource.')).toBe(true));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(screen.getByTestId(/^queue-option-draft-/)).toBeTruthy();
    expect((form(draft).getByTestId('queue-option-title') as HTMLInputElement).value).toBe('Billing');
  });

  it('deleting asks first, then DELETEs and reloads the renumbered siblings', async () => {
    const { calls, toasts } = await openOptions();
    fireEvent.click(await screen.findByTestId('queue-option-10-delete'));
    await screen.findByText('Delete option Sales?');
    expect(screen.getByText('Its sub-options are deleted too; the keys after it move up.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    const confirmation = screen.getAllByRole('dialog').find((d) => d.textContent?.includes('Delete option Sales?'))!;
    fireEvent.click(await within(confirmation).findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/queue-options/10')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('queue-option-10')).toBeNull());
    expect(screen.queryByTestId('queue-option-20')).toBeNull();
    // Support moved up from key 2 to key 1 (the server renumbered it; the screen reloaded).
    await waitFor(() => expect(screen.getByTestId('queue-option-11-key').textContent).toBe('1'));
    expect(toasts.some((t) => t.intent === 'success' && t.message === 'Option deleted.')).toBe(true);
  });
});

describe('nextOptionKey', () => {
  it('is one after the highest key of the level, compared as numbers', () => {
    expect(nextOptionKey([])).toBe('1');
    expect(nextOptionKey([option(1, '2', 'a'), option(2, '10', 'b'), option(3, '9', 'c')])).toBe('11');
  });
});
