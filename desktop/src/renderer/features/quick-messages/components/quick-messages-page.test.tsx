import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../../test/render';
import { acceptsMedia, type QuickMessage } from '../api/quick-messages';
import { QUICK_MESSAGE_MEDIA_TYPES } from '@atrium/shared';

const qm = (id: number, shortcode: string, extra: Partial<QuickMessage> = {}): QuickMessage => ({
  id,
  shortcode,
  message: `Text of ${shortcode}`,
  geral: false,
  status: true,
  isMedia: false,
  mediaPath: null,
  mediaName: null,
  userId: 1,
  ...extra,
});

/** /quick-messages in memory, as the server answers it. */
const qmServer = (initial: QuickMessage[]) => {
  const records = [...initial];
  const calls = fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply();
    if (call.method === 'GET' && call.url === '/quick-messages') {
      const term = String((call.params as { searchParam?: string })?.searchParam ?? '').toLowerCase();
      const found = records.filter((r) => r.shortcode.toLowerCase().includes(term) || r.message.toLowerCase().includes(term));
      return { data: { records: found, count: found.length, hasMore: false } };
    }
    if (call.method === 'POST' && call.url === '/quick-messages') {
      const created = qm(records.length + 20, (call.data as QuickMessage).shortcode, call.data as Partial<QuickMessage>);
      records.push(created);
      return { status: 201, data: created };
    }
    const media = /^\/quick-messages\/(\d+)\/media-upload$/.exec(call.url);
    if (media) {
      const found = records.find((r) => r.id === Number(media[1]))!;
      if (call.method === 'POST') Object.assign(found, { mediaName: ((call.data as FormData).get('file') as File).name, mediaPath: 'x.pdf', isMedia: true });
      else Object.assign(found, { mediaName: null, mediaPath: null, isMedia: false });
      return { data: found };
    }
    const id = Number(/^\/quick-messages\/(\d+)$/.exec(call.url)?.[1]);
    if (call.method === 'PUT' && id) {
      const found = records.find((r) => r.id === id)!;
      Object.assign(found, call.data);
      return { data: found };
    }
    if (call.method === 'DELETE' && id) {
      records.splice(records.findIndex((r) => r.id === id), 1);
      return { data: { message: 'Quick message deleted' } };
    }
    return { data: [] };
  });
  return { records, calls };
};

describe('/quick-messages', () => {
  it('lists shortcode and attachment name (or none); edit and delete only on the own or as admin', async () => {
    qmServer([qm(1, 'pix', { mediaName: 'tabela.pdf', mediaPath: 'a.pdf', isMedia: true }), qm(2, 'ola', { userId: 99, geral: true })]);
    signIn({ id: 1, profile: 'user' });
    renderApp('/quick-messages');
    expect((await screen.findByTestId('quick-message-shortcode-1')).textContent).toBe('/pix');
    expect(screen.getByTestId('quick-message-media-1').textContent).toBe('tabela.pdf');
    expect(screen.getByTestId('quick-message-media-2').textContent).toBe('None');
    expect(screen.getByTestId('quick-message-edit-1')).toBeTruthy();
    expect(screen.queryByTestId('quick-message-edit-2')).toBeNull();
    expect(screen.queryByTestId('quick-message-delete-2')).toBeNull();
  });

  it('search sends searchParam', async () => {
    const { calls } = qmServer([qm(1, 'pix'), qm(2, 'ola')]);
    signIn({ id: 1 });
    renderApp('/quick-messages');
    await screen.findByTestId('quick-message-row-2');
    const box = screen.getByTestId('quick-messages-search');
    fireEvent.change(box.querySelector('input') ?? box, { target: { value: 'pix' } });
    await waitFor(() => expect(screen.queryByTestId('quick-message-row-2')).toBeNull());
    expect(calls.some((c) => c.url === '/quick-messages' && (c.params as { searchParam: string }).searchParam === 'pix')).toBe(true);
  });

  it('adds one with an attachment: required fields first, then POST and the upload as `file`', async () => {
    const { calls } = qmServer([]);
    const toasts = collectToasts();
    signIn({ id: 1, profile: 'admin' });
    renderApp('/quick-messages');
    fireEvent.click(await screen.findByTestId('quick-messages-add'));
    const modal = await screen.findByTestId('quick-message-modal');
    fireEvent.click(within(modal).getByTestId('quick-message-save'));
    expect((await within(modal).findAllByText('Required')).length).toBe(2);
    fireEvent.change(within(modal).getByTestId('quick-message-shortcode'), { target: { value: 'boleto' } });
    fireEvent.change(within(modal).getByTestId('quick-message-message'), { target: { value: 'Segue o boleto, {{firstName}}.' } });
    fireEvent.click(within(modal).getByRole('switch', { name: 'Shared with the whole company' }));
    fireEvent.change(within(modal).getByTestId('quick-message-file'), {
      target: { files: [new File(['%PDF'], 'boleto.pdf', { type: 'application/pdf' })] },
    });
    expect(within(modal).getByTestId('quick-message-media-name').textContent).toBe('boleto.pdf');
    fireEvent.click(within(modal).getByTestId('quick-message-save'));
    await waitFor(() => expect(screen.queryByTestId('quick-message-modal')).toBeNull());
    expect(calls.find((c) => c.method === 'POST' && c.url === '/quick-messages')?.data).toEqual({
      shortcode: 'boleto',
      message: 'Segue o boleto, {{firstName}}.',
      geral: true,
      status: true,
    });
    const upload = calls.find((c) => c.url === '/quick-messages/20/media-upload');
    expect(((upload?.data as FormData).get('file') as File).name).toBe('boleto.pdf');
    expect((await screen.findByTestId('quick-message-media-20')).textContent).toBe('boleto.pdf');
    expect(toasts.some((t) => t.intent === 'success' && t.message === 'Quick message saved.')).toBe(true);
  });

  it('an agent has no share switch; a refused file type is not attached', async () => {
    qmServer([]);
    const toasts = collectToasts();
    signIn({ id: 1, profile: 'user' });
    renderApp('/quick-messages');
    fireEvent.click(await screen.findByTestId('quick-messages-add'));
    const modal = await screen.findByTestId('quick-message-modal');
    expect(within(modal).queryByRole('switch', { name: 'Shared with the whole company' })).toBeNull();
    expect((within(modal).getByRole('switch', { name: /^Active/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(within(modal).getByTestId('quick-message-file'), {
      target: { files: [new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' })] },
    });
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error')).toBe(true));
    expect(within(modal).queryByTestId('quick-message-media-name')).toBeNull();
  });

  it('switches a quick message off (status) and marks it inactive in the list', async () => {
    const { calls } = qmServer([qm(1, 'pix'), qm(2, 'ola', { status: false })]);
    signIn({ id: 1, profile: 'user' });
    renderApp('/quick-messages');
    expect(await screen.findByTestId('quick-message-inactive-2')).toBeTruthy();
    expect(screen.queryByTestId('quick-message-inactive-1')).toBeNull();
    fireEvent.click(await screen.findByTestId('quick-message-edit-1'));
    const modal = await screen.findByTestId('quick-message-modal');
    fireEvent.click(within(modal).getByRole('switch', { name: /^Active/ }));
    fireEvent.click(within(modal).getByTestId('quick-message-save'));
    await waitFor(() => expect(screen.queryByTestId('quick-message-modal')).toBeNull());
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/quick-messages/1', data: { status: false } });
    expect(await screen.findByTestId('quick-message-inactive-1')).toBeTruthy();
  });

  it('edits (PUT), removes the attachment (DELETE media-upload) and deletes after confirming', async () => {
    const { calls } = qmServer([qm(1, 'pix', { mediaName: 'tabela.pdf', mediaPath: 'a.pdf', isMedia: true }), qm(2, 'ola')]);
    signIn({ id: 1 });
    renderApp('/quick-messages');
    fireEvent.click(await screen.findByTestId('quick-message-edit-1'));
    const modal = await screen.findByTestId('quick-message-modal');
    expect((within(modal).getByTestId('quick-message-shortcode') as HTMLInputElement).value).toBe('pix');
    fireEvent.change(within(modal).getByTestId('quick-message-shortcode'), { target: { value: 'pix2' } });
    fireEvent.click(within(modal).getByTestId('quick-message-media-remove'));
    fireEvent.click(within(modal).getByTestId('quick-message-save'));
    await waitFor(() => expect(screen.getByTestId('quick-message-shortcode-1').textContent).toBe('/pix2'));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/quick-messages/1', data: { shortcode: 'pix2', message: 'Text of pix' } });
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/quick-messages/1/media-upload')).toBe(true);
    await waitFor(() => expect(screen.getByTestId('quick-message-media-1').textContent).toBe('None'));

    fireEvent.click(screen.getByTestId('quick-message-delete-2'));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('quick-message-row-2')).toBeNull());
  });
});

describe('acceptsMedia', () => {
  it('takes wildcard families and exact types only', () => {
    expect(acceptsMedia({ type: 'image/png' }, QUICK_MESSAGE_MEDIA_TYPES)).toBe(true);
    expect(acceptsMedia({ type: 'application/pdf' }, QUICK_MESSAGE_MEDIA_TYPES)).toBe(true);
    expect(acceptsMedia({ type: 'application/zip' }, QUICK_MESSAGE_MEDIA_TYPES)).toBe(false);
    expect(acceptsMedia({ type: '' }, QUICK_MESSAGE_MEDIA_TYPES)).toBe(false);
  });
});
