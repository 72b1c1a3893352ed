import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setServerUrl } from '../../../api/client';
import { realtime } from '../../../api/socket';
import { collectToasts, fakeServer, planReply, renderApp, renderWithProviders, signIn, type FakeCall } from '../../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';
import type { Announcement } from '../api/announcements';
import { applyAnnouncementEvent } from '../hooks/use-active-announcements';
import { isAcceptedImage, priorityKey } from '../hooks/announcement-rules';
import { useSeenAnnouncements } from '../stores/seen-store';
import { AnnouncementsBell } from './announcements-bell';

const announcement = (id: number, overrides: Partial<Announcement> = {}): Announcement => ({
  id,
  title: `Notice ${id}`,
  text: `Text of notice ${id}`,
  priority: 3,
  status: true,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  companyId: 1,
  createdAt: `2030-01-${String(10 + id).padStart(2, '0')}T12:00:00.000Z`,
  updatedAt: '2030-01-01T12:00:00.000Z',
  ...overrides,
});

beforeEach(() => {
  useSeenAnnouncements.setState({ byUser: {} });
});

describe('announcement rules', () => {
  it('names priorities 1 high, 2 medium, 3 low', () => {
    expect([1, 2, 3].map(priorityKey)).toEqual(['high', 'medium', 'low']);
  });

  it('accepts png, jpg and jpeg images up to 5 MB only', () => {
    for (const name of ['a.png', 'b.JPG', 'c.jpeg']) expect(isAcceptedImage({ name, size: 1000 })).toBe(true);
    for (const name of ['a.gif', 'b.pdf', 'png', 'c.jpeg.exe']) expect(isAcceptedImage({ name, size: 1000 })).toBe(false);
    expect(isAcceptedImage({ name: 'big.png', size: 5 * 1024 * 1024 + 1 })).toBe(false);
  });

  it('applies realtime events to the bell list: upsert newest first, drop deleted and switched-off ones', () => {
    const list = [announcement(2), announcement(1)];
    expect(applyAnnouncementEvent(list, { action: 'create', record: announcement(3) })?.map((a) => a.id)).toEqual([3, 2, 1]);
    expect(applyAnnouncementEvent(list, { action: 'update', record: { ...announcement(1), title: 'Changed' } })?.[1].title).toBe('Changed');
    expect(applyAnnouncementEvent(list, { action: 'update', record: { id: 2, status: false } })?.map((a) => a.id)).toEqual([1]);
    expect(applyAnnouncementEvent(list, { action: 'delete', id: 1 })?.map((a) => a.id)).toEqual([2]);
    expect(applyAnnouncementEvent(undefined, { action: 'create', record: announcement(3) })).toBeUndefined();
  });
});

describe('announcements page', () => {
  const serve = (records: Announcement[] = []) => {
    const calls = fakeServer((call) => {
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url === '/announcements/' && call.method === 'GET') return { data: { records, hasMore: false, count: records.length } };
      if (call.url === '/announcements' && call.method === 'POST') return { status: 201, data: announcement(9, call.data as object) };
      if (/^\/announcements\/\d+$/.test(call.url) && call.method === 'DELETE') return { data: { message: 'ok' } };
      if (call.url === '/announcements/list') return { data: [] };
      return { data: [] };
    });
    return calls;
  };

  it('sends a non-super user to / with an info toast', async () => {
    const calls = serve();
    const toasts = collectToasts();
    signIn({ profile: 'admin', super: false });
    renderApp('/announcements');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    await waitFor(() => expect(toasts.filter((t) => t.intent === 'info').map((t) => t.message)).toEqual(['Only super users can manage announcements.']));
    expect(calls.some((c) => c.url === '/announcements/')).toBe(false);
  });

  it('lists title, priority, media name and status for super users', async () => {
    serve([announcement(1, { priority: 1, mediaName: 'banner.png' }), announcement(2, { status: false })]);
    signIn({ super: true });
    renderApp('/announcements');
    const first = await screen.findByTestId('announcement-row-1');
    expect(first.textContent).toContain('Notice 1');
    expect(first.textContent).toContain('High');
    expect(first.textContent).toContain('banner.png');
    expect(first.textContent).toContain('Active');
    const second = screen.getByTestId('announcement-row-2');
    expect(second.textContent).toContain('Low');
    expect(second.textContent).toContain('No attachment');
    expect(second.textContent).toContain('Inactive');
  });

  it('adds one: title and text required, priority and status sent, success toast', async () => {
    const calls = serve();
    const toasts = collectToasts();
    signIn({ super: true });
    renderApp('/announcements');
    fireEvent.click(await screen.findByTestId('announcements-add'));
    const modal = await screen.findByTestId('announcement-modal');
    fireEvent.click(within(modal).getByTestId('announcement-save'));
    expect((await within(modal).findAllByText('Required')).length).toBe(2);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(modal).getByTestId('announcement-title'), { target: { value: 'Maintenance' } });
    fireEvent.change(within(modal).getByTestId('announcement-text'), { target: { value: 'Tonight at 22h' } });
    fireEvent.change(within(modal).getByTestId('announcement-priority'), { target: { value: '1' } });
    fireEvent.click(within(modal).getByTestId('announcement-status'));
    fireEvent.click(within(modal).getByTestId('announcement-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/announcements')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({ title: 'Maintenance', text: 'Tonight at 22h', priority: 1, status: false });
    await waitFor(() => expect(toasts.some((t) => t.message === 'Announcement saved successfully.')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('announcement-modal')).toBeNull());
  });

  it('uploads a chosen image after saving and refuses other files', async () => {
    const calls = serve();
    const toasts = collectToasts();
    fakeServer((call: FakeCall) => {
      calls.push(call);
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url === '/announcements/') return { data: { records: [], hasMore: false } };
      if (call.url === '/announcements' && call.method === 'POST') return { status: 201, data: announcement(9) };
      if (call.url === '/announcements/9/media-upload') return { data: announcement(9, { mediaName: 'banner.png' }) };
      return { data: [] };
    });
    signIn({ super: true });
    renderApp('/announcements');
    fireEvent.click(await screen.findByTestId('announcements-add'));
    const modal = await screen.findByTestId('announcement-modal');
    fireEvent.change(within(modal).getByTestId('announcement-title'), { target: { value: 'With image' } });
    fireEvent.change(within(modal).getByTestId('announcement-text'), { target: { value: 'Look' } });
    const input = within(modal).getByTestId('announcement-file');
    fireEvent.change(input, { target: { files: [new File(['GIF89a'], 'anim.gif', { type: 'image/gif' })] } });
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error' && t.message.includes('png, jpg or jpeg'))).toBe(true));
    expect(within(modal).queryByTestId('announcement-media-name')).toBeNull();
    fireEvent.change(input, { target: { files: [new File(['png'], 'banner.png', { type: 'image/png' })] } });
    expect((await within(modal).findByTestId('announcement-media-name')).textContent).toBe('banner.png');
    fireEvent.click(within(modal).getByTestId('announcement-save'));
    await waitFor(() => expect(calls.some((c) => c.url === '/announcements/9/media-upload' && c.method === 'POST')).toBe(true));
    const upload = calls.find((c) => c.url === '/announcements/9/media-upload');
    expect(upload?.data).toBeInstanceOf(FormData);
    expect(((upload?.data as FormData).get('file') as File).name).toBe('banner.png');
  });

  it('a refused image keeps the dialog open; saving again updates the announcement created, not a second one', async () => {
    const calls: FakeCall[] = [];
    const toasts = collectToasts();
    let uploads = 0;
    fakeServer((call: FakeCall) => {
      calls.push(call);
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url === '/announcements/') return { data: { records: [], hasMore: false } };
      if (call.url === '/announcements' && call.method === 'POST') return { status: 201, data: announcement(9) };
      if (call.url === '/announcements/9' && call.method === 'PUT') return { data: announcement(9, { title: 'With image' }) };
      if (call.url === '/announcements/9/media-upload') {
        uploads += 1;
        return uploads === 1 ? { status: 413, data: { error: 'ERR_FILE_TOO_LARGE' } } : { data: announcement(9, { mediaName: 'banner.png' }) };
      }
      return { data: [] };
    });
    signIn({ super: true });
    renderApp('/announcements');
    fireEvent.click(await screen.findByTestId('announcements-add'));
    const modal = await screen.findByTestId('announcement-modal');
    fireEvent.change(within(modal).getByTestId('announcement-title'), { target: { value: 'With image' } });
    fireEvent.change(within(modal).getByTestId('announcement-text'), { target: { value: 'Look' } });
    fireEvent.change(within(modal).getByTestId('announcement-file'), { target: { files: [new File(['png'], 'banner.png', { type: 'image/png' })] } });
    fireEvent.click(within(modal).getByTestId('announcement-save'));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error')).toBe(true));
    expect(screen.getByTestId('announcement-modal')).toBeTruthy();
    fireEvent.click(within(modal).getByTestId('announcement-save'));
    await waitFor(() => expect(screen.queryByTestId('announcement-modal')).toBeNull());
    expect(calls.filter((c) => c.method === 'POST' && c.url === '/announcements')).toHaveLength(1);
    expect(calls.filter((c) => c.method === 'PUT' && c.url === '/announcements/9')).toHaveLength(1);
    expect(uploads).toBe(2);
  });

  it('deletes after confirmation with a success toast', async () => {
    const calls = serve([announcement(4)]);
    const toasts = collectToasts();
    signIn({ super: true });
    renderApp('/announcements');
    const row = await screen.findByTestId('announcement-row-4');
    fireEvent.click(within(row).getAllByRole('button')[1]);
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Delete "Notice 4"?');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/announcements/4')).toBe(true));
    await waitFor(() => expect(toasts.some((t) => t.message === 'Announcement deleted successfully.')).toBe(true));
  });
});

describe('announcements bell', () => {
  let server: TestSocketServer;
  beforeAll(async () => {
    server = await startSocketServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => server.reset());

  const openBell = () => fireEvent.click(screen.getByTestId('announcements-bell').querySelector('button')!);
  const badge = () => screen.getByTestId('announcements-bell').querySelector('.fui-CounterBadge')?.textContent ?? '';

  const start = async (list: Announcement[]) => {
    fakeServer((call) => (call.url === '/announcements/list' ? { data: list } : { data: [] }));
    setServerUrl(server.url);
    signIn({ id: 7, companyId: 3 });
    realtime.connect({ url: server.url, token: 'token-1', companyId: 3, userId: 7, renewToken: async () => null });
    await until(() => realtime.connected && server.sockets.length === 1);
    renderWithProviders(<AnnouncementsBell />);
    return server.sockets[0];
  };

  it('counts unseen ones, follows company-announcement live, and clears the badge once opened', async () => {
    const socket = await start([announcement(2, { priority: 2 }), announcement(1, { priority: 1 })]);
    await waitFor(() => expect(badge()).toBe('2'));

    act(() => {
      socket.emit('company-announcement', { action: 'create', record: announcement(3, { title: 'Fresh news' }) });
    });
    await waitFor(() => expect(badge()).toBe('3'));

    openBell();
    const items = await screen.findAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('data-testid'))).toEqual(['announcement-item-3', 'announcement-item-2', 'announcement-item-1']);
    expect(items.map((i) => i.getAttribute('data-priority'))).toEqual(['3', '2', '1']);
    await waitFor(() => expect(badge()).toBe(''));

    act(() => {
      socket.emit('company-announcement', { action: 'delete', id: 2 });
      socket.emit('company-announcement', { action: 'update', record: { id: 1, status: false } });
    });
    await waitFor(() => expect(screen.queryByTestId('announcement-item-2')).toBeNull());
    await waitFor(() => expect(screen.queryByTestId('announcement-item-1')).toBeNull());
    expect(screen.getByTestId('announcement-item-3')).toBeTruthy();
  });

  it('remembers what this user has seen', async () => {
    useSeenAnnouncements.getState().markSeen(7, [1]);
    useSeenAnnouncements.setState({ byUser: {} });
    await start([announcement(2), announcement(1)]);
    await waitFor(() => expect(badge()).toBe('1'));
  });

  it('opens one with its text and image', async () => {
    await start([announcement(5, { text: 'Full text here', mediaUrl: '/media/1/abcdefghijkl.png?expires=1&signature=x', mediaName: 'pic.png' })]);
    await waitFor(() => expect(badge()).toBe('1'));
    openBell();
    fireEvent.click(await screen.findByTestId('announcement-item-5'));
    const dialog = await screen.findByTestId('announcement-dialog');
    expect(dialog.textContent).toContain('Notice 5');
    expect(dialog.textContent).toContain('Full text here');
    expect(within(dialog).getByRole('img', { name: 'pic.png' }).getAttribute('src')).toBe(
      `${server.url}/media/1/abcdefghijkl.png?expires=1&signature=x`,
    );
  });
});
