import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../../test/render';

describe('helps tab', () => {
  const serve = () =>
    fakeServer((call) => {
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url === '/settings') return { data: [] };
      if (call.url === '/helps/list') return { data: [{ id: 1, title: 'Getting started', description: 'First steps', video: 'dQw4w9WgXcQ' }] };
      if (call.method === 'POST' && call.url === '/helps') return { status: 201, data: { id: 2 } };
      if (call.method === 'PUT') return { data: { id: 1 } };
      if (call.method === 'DELETE') return { data: { message: 'ok' } };
      return { data: [] };
    });
  const open = async () => {
    signIn({ super: true });
    renderApp('/settings');
    fireEvent.click(await screen.findByTestId('settings-tab-helps'));
    return screen.findByTestId('helps-tab');
  };

  it('lists title, description and video', async () => {
    serve();
    await open();
    const row = await screen.findByTestId('help-row-1');
    expect(row.textContent).toContain('Getting started');
    expect(row.textContent).toContain('First steps');
    expect(row.textContent).toContain('dQw4w9WgXcQ');
  });

  it('creates one (title required) and edits one, with success toasts', async () => {
    const calls = serve();
    const toasts = collectToasts();
    await open();
    fireEvent.click(screen.getByTestId('help-add'));
    let modal = await screen.findByTestId('help-modal');
    fireEvent.click(within(modal).getByTestId('help-save'));
    await waitFor(() => expect(within(modal).getByText('Required')).toBeTruthy());
    fireEvent.change(within(modal).getByTestId('help-title'), { target: { value: 'Queues' } });
    fireEvent.change(within(modal).getByTestId('help-video'), { target: { value: 'https://youtu.be/abcdefghijk' } });
    fireEvent.change(within(modal).getByTestId('help-description'), { target: { value: 'How queues work' } });
    fireEvent.click(within(modal).getByTestId('help-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/helps')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({ title: 'Queues', video: 'https://youtu.be/abcdefghijk', description: 'How queues work' });
    await waitFor(() => expect(toasts.some((t) => t.message === 'Help video saved successfully.')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('help-modal')).toBeNull());

    fireEvent.click(screen.getByTestId('help-edit-1'));
    modal = await screen.findByTestId('help-modal');
    expect((within(modal).getByTestId('help-title') as HTMLInputElement).value).toBe('Getting started');
    fireEvent.change(within(modal).getByTestId('help-title'), { target: { value: 'Start here' } });
    fireEvent.click(within(modal).getByTestId('help-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url === '/helps/1')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.data).toMatchObject({ title: 'Start here' });
  });

  it('deletes after confirmation', async () => {
    const calls = serve();
    const toasts = collectToasts();
    await open();
    fireEvent.click(await screen.findByTestId('help-delete-1'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/helps/1')).toBe(true));
    await waitFor(() => expect(toasts.some((t) => t.message === 'Help video deleted successfully.')).toBe(true));
  });

  it('a failure listing them is an error toast (spec 01 section 8)', async () => {
    fakeServer((call) => {
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url === '/settings') return { data: [] };
      if (call.url === '/helps/list') return { status: 500, data: { error: 'ERR_INTERNAL_SERVER_ERROR' } };
      return { data: [] };
    });
    const toasts = collectToasts();
    await open();
    await waitFor(() =>
      expect(toasts.some((t) => t.intent === 'error' && t.message === 'An unexpected error occurred. Please try again later.')).toBe(true),
    );
  });
});
