import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileListView, FileOptionView } from '@atrium/shared';
import { realtime } from '../../../api/socket';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';

const option = (id: number, fileId: number, name: string, extra: Partial<FileOptionView> = {}): FileOptionView => ({
  id,
  fileId,
  name,
  path: null,
  mediaType: null,
  mediaName: null,
  mediaUrl: null,
  size: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});
const list = (id: number, name: string, options: FileOptionView[] = []): FileListView => ({
  id,
  name,
  message: `Message of ${name}`,
  companyId: 3,
  options,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** /files in memory, as the server answers it; `holdUpload` keeps POST /files/uploadList/{id} waiting until released. */
const filesServer = (initial: FileListView[], holdUpload?: Promise<void>) => {
  const lists = [...initial];
  let nextOption = 100;
  const calls = fakeServer(async (call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply();
    if (call.method === 'GET' && call.url === '/files/') {
      const term = String((call.params as { searchParam?: string })?.searchParam ?? '').toLowerCase();
      const found = lists.filter((l) => l.name.toLowerCase().includes(term));
      return { data: { files: found, count: found.length, hasMore: false } };
    }
    const body = call.data as { name: string; message: string; options: { id?: number; name: string; path?: string }[] };
    if (call.method === 'POST' && call.url === '/files') {
      const id = lists.length + 20;
      const created = list(id, body.name, body.options.map((o) => option(++nextOption, id, o.name)));
      lists.push({ ...created, message: body.message });
      return { status: 201, data: lists[lists.length - 1] };
    }
    const upload = /^\/files\/uploadList\/(\d+)$/.exec(call.url);
    if (upload) {
      await holdUpload;
      const found = lists.find((l) => l.id === Number(upload[1]))!;
      const form = call.data as FormData;
      const ids = form.getAll('id').map(Number);
      const files = form.getAll('files') as File[];
      found.options = found.options.map((o) => {
        const at = ids.indexOf(o.id);
        return at < 0 ? o : { ...o, path: `stored-${o.id}.pdf`, mediaName: files[at].name, mediaType: files[at].type };
      });
      return { data: found };
    }
    const id = Number(/^\/files\/(\d+)$/.exec(call.url)?.[1]);
    if (call.method === 'PUT' && id) {
      const found = lists.find((l) => l.id === id)!;
      found.name = body.name;
      found.message = body.message;
      found.options = body.options.map((o) => {
        const kept = found.options.find((x) => x.id === o.id) ?? option(++nextOption, id, o.name);
        return o.path === '' ? { ...kept, name: o.name, path: null, mediaName: null, mediaType: null } : { ...kept, name: o.name };
      });
      return { data: found };
    }
    if (call.method === 'DELETE' && id) {
      lists.splice(lists.findIndex((l) => l.id === id), 1);
      return { data: { message: 'File list deleted' } };
    }
    return { data: [] };
  });
  return { lists, calls };
};

const pdf = (name: string) => new File(['%PDF-1.4'], name, { type: 'application/pdf' });

describe('/files', () => {
  it('lists the file lists with how many files each has, and searches by name', async () => {
    const { calls } = filesServer([list(1, 'Catálogo', [option(1, 1, 'Fotos', { path: 'a.png', mediaName: 'a.png' }), option(2, 1, 'Preços')]), list(2, 'Boas-vindas')]);
    signIn({ profile: 'admin' });
    renderApp('/files');
    expect((await screen.findByTestId('file-list-name-1')).textContent).toBe('Catálogo');
    expect(screen.getByTestId('file-list-count-1').textContent).toBe('1 file');
    expect(screen.getByTestId('file-list-count-2').textContent).toBe('0 files');
    fireEvent.change(screen.getByTestId('files-search'), { target: { value: 'boas' } });
    await waitFor(() => expect(screen.queryByTestId('file-list-row-1')).toBeNull());
    expect(calls.some((c) => c.url === '/files/' && (c.params as { searchParam: string }).searchParam === 'boas')).toBe(true);
  });

  it('is for admins: an agent who opens /files is sent away', async () => {
    filesServer([list(1, 'Catálogo')]);
    signIn({ profile: 'user' });
    renderApp('/files');
    await waitFor(() => expect(screen.getByTestId('location').textContent).not.toBe('/files'));
    expect(screen.queryByTestId('files-add')).toBeNull();
  });

  it('adds a list: name and message checked first, then POST /files and the files uploaded with progress', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { calls } = filesServer([], held);
    const toasts = collectToasts();
    signIn({ profile: 'admin' });
    renderApp('/files');
    fireEvent.click(await screen.findByTestId('files-add'));
    const dialog = await screen.findByTestId('file-list-dialog');
    fireEvent.change(within(dialog).getByTestId('file-list-name'), { target: { value: 'ab' } });
    fireEvent.click(within(dialog).getByTestId('file-list-save'));
    await within(dialog).findByText('Required');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByTestId('file-list-name'), { target: { value: 'Catálogo 2026' } });
    fireEvent.change(within(dialog).getByTestId('file-list-message'), { target: { value: 'Veja nossos produtos' } });
    fireEvent.click(within(dialog).getByTestId('file-list-add-option'));
    fireEvent.click(within(dialog).getByTestId('file-list-add-option'));
    fireEvent.change(within(dialog).getByTestId('file-option-name-0'), { target: { value: 'Tabela' } });
    fireEvent.change(within(dialog).getByTestId('file-option-name-1'), { target: { value: 'Folheto' } });
    fireEvent.change(within(dialog).getByTestId('file-option-file-0'), { target: { files: [pdf('tabela de preços.pdf')] } });
    expect(within(dialog).getByTestId('file-option-media-0').textContent).toBe('tabela de preços.pdf');
    fireEvent.click(within(dialog).getByTestId('file-list-save'));

    expect(await within(dialog).findByTestId('file-list-progress')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.url === '/files')?.data).toEqual({
      name: 'Catálogo 2026',
      message: 'Veja nossos produtos',
      options: [{ name: 'Tabela' }, { name: 'Folheto' }],
    });
    const upload = calls.find((c) => c.url === '/files/uploadList/20')!;
    const form = upload.data as FormData;
    expect((form.getAll('files') as File[]).map((f) => f.name)).toEqual(['tabela de preços.pdf']);
    expect(form.getAll('id')).toEqual(['101']);
    expect(form.get('fileId')).toBe('20');
    expect(form.get('typeArch')).toBe('fileList');
    release();
    await waitFor(() => expect(screen.queryByTestId('file-list-dialog')).toBeNull());
    expect((await screen.findByTestId('file-list-count-20')).textContent).toBe('1 file');
    expect(toasts.some((t) => t.intent === 'success' && t.message === 'File list saved.')).toBe(true);
  });

  it('refuses a file type the server would refuse, and an option without a name', async () => {
    const { calls } = filesServer([]);
    const toasts = collectToasts();
    signIn({ profile: 'admin' });
    renderApp('/files');
    fireEvent.click(await screen.findByTestId('files-add'));
    const dialog = await screen.findByTestId('file-list-dialog');
    fireEvent.click(within(dialog).getByTestId('file-list-add-option'));
    fireEvent.change(within(dialog).getByTestId('file-option-file-0'), { target: { files: [new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' })] } });
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error')).toBe(true));
    expect(within(dialog).queryByTestId('file-option-media-0')).toBeNull();
    fireEvent.change(within(dialog).getByTestId('file-list-name'), { target: { value: 'Sem nome' } });
    fireEvent.change(within(dialog).getByTestId('file-list-message'), { target: { value: 'Mensagem' } });
    fireEvent.click(within(dialog).getByTestId('file-list-save'));
    expect(await within(dialog).findByText('Every file needs a name.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("edits (PUT): drops one option's file with an empty path, removes another option, keeps the rest", async () => {
    const { calls } = filesServer([
      list(1, 'Catálogo', [option(1, 1, 'Fotos', { path: 'a.png', mediaName: 'fotos.png' }), option(2, 1, 'Preços', { path: 'b.pdf', mediaName: 'precos.pdf' }), option(3, 1, 'Mapa')]),
    ]);
    signIn({ profile: 'admin' });
    renderApp('/files');
    fireEvent.click(await screen.findByTestId('file-list-edit-1'));
    const dialog = await screen.findByTestId('file-list-dialog');
    expect(within(dialog).getByTestId('file-option-media-1').textContent).toBe('precos.pdf');
    fireEvent.click(within(dialog).getByTestId('file-option-remove-file-0'));
    fireEvent.click(within(dialog).getByTestId('file-option-remove-2'));
    fireEvent.change(within(dialog).getByTestId('file-list-name'), { target: { value: 'Catálogo novo' } });
    fireEvent.click(within(dialog).getByTestId('file-list-save'));
    await waitFor(() => expect(screen.queryByTestId('file-list-dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: '/files/1',
      data: { name: 'Catálogo novo', message: 'Message of Catálogo', options: [{ id: 1, name: 'Fotos', path: '' }, { id: 2, name: 'Preços' }] },
    });
    expect(calls.some((c) => c.url.startsWith('/files/uploadList/'))).toBe(false);
    expect((await screen.findByTestId('file-list-name-1')).textContent).toBe('Catálogo novo');
    expect(screen.getByTestId('file-list-count-1').textContent).toBe('1 file');
  });

  it('deletes after confirming', async () => {
    const { calls } = filesServer([list(1, 'Catálogo'), list(2, 'Outra')]);
    const toasts = collectToasts();
    signIn({ profile: 'admin' });
    renderApp('/files');
    fireEvent.click(await screen.findByTestId('file-list-delete-1'));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('file-list-row-1')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/files/1')).toBe(true);
    expect(toasts.some((t) => t.intent === 'success' && t.message === 'File list deleted.')).toBe(true);
    expect(screen.getByTestId('file-list-row-2')).toBeTruthy();
  });
});

describe('/files realtime (company-{id}-file)', () => {
  let socketServer: TestSocketServer;
  beforeAll(async () => {
    socketServer = await startSocketServer();
  });
  afterAll(async () => {
    realtime.disconnect();
    await socketServer.close();
  });

  it('reads the lists again when a colleague adds or deletes one', async () => {
    const { lists } = filesServer([list(1, 'Catálogo')]);
    signIn({ profile: 'admin', companyId: 3 });
    renderApp('/files');
    await screen.findByTestId('file-list-row-1');
    realtime.connect({ url: socketServer.url, token: 'token-1', companyId: 3, userId: 7, renewToken: async () => null });
    await until(() => realtime.connected && socketServer.sockets.length > 0);
    const socket = socketServer.sockets[socketServer.sockets.length - 1];

    lists.push(list(2, 'Novidades'));
    socket.emit('company-3-file', { action: 'create', record: lists[1] });
    expect((await screen.findByTestId('file-list-name-2')).textContent).toBe('Novidades');

    lists.splice(0, 1);
    socket.emit('company-3-file', { action: 'delete', id: 1 });
    await waitFor(() => expect(screen.queryByTestId('file-list-row-1')).toBeNull());
    expect(screen.getByTestId('file-list-row-2')).toBeTruthy();
  });
});
