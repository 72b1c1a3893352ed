import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { collectToasts, fakeServer, planReply, renderApp, renderWithProviders, signIn, type FakeCall } from '../../../test/render';
import type { Schedule } from '../api/schedules';
import { dayKey, gridWindow, monthGrid, placeByDay } from '../lib/calendar';
import { defaultSendAt, fromLocalInput, isAttachable, toLocalInput } from '../lib/rules';
import { ScheduleCalendar } from './schedule-calendar';
import { ScheduleModal } from './schedule-modal';

const at = (y: number, m: number, d: number, h = 9, min = 0) => new Date(y, m - 1, d, h, min).toISOString();

const schedule = (overrides: Partial<Schedule> = {}): Schedule => ({
  id: 1,
  body: 'Olá, lembrete da sua consulta',
  sendAt: at(2031, 3, 14, 9, 30),
  sentAt: null,
  status: 'PENDENTE',
  error: null,
  attempts: 0,
  contactId: 9,
  contact: { id: 9, name: 'Carla Contato', number: '5511988887777' },
  userId: 7,
  whatsappId: null,
  ticketId: null,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  ...overrides,
});

const CARLA = { id: 9, name: 'Carla Contato', number: '5511988887777' };

/** The API as the schedules screen uses it; `list` is what GET /schedules answers. */
const server = (list: Schedule[] = []) =>
  fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply({ useSchedules: true });
    if (call.method === 'GET' && call.url === '/schedules') return { data: { schedules: list, hasMore: false, count: list.length } };
    if (call.method === 'GET' && call.url === '/contacts/9') return { data: CARLA };
    if (call.method === 'GET' && call.url === '/contacts') return { data: { contacts: [CARLA], hasMore: false, count: 1 } };
    if (call.method === 'POST' && call.url === '/schedules') return { status: 201, data: schedule({ id: 55, ...(call.data as object) }) };
    if (call.method === 'PUT' && call.url.startsWith('/schedules/')) return { data: schedule({ ...(call.data as object) }) };
    if (call.method === 'POST' && call.url.endsWith('/media-upload')) return { data: schedule({ id: 55, mediaName: 'photo.png' }) };
    if (call.method === 'DELETE' && call.url.startsWith('/schedules/')) return { data: { message: 'Schedule deleted' } };
    return undefined;
  });

const posts = (calls: FakeCall[], url: string) => calls.filter((c) => c.method === 'POST' && c.url === url);

describe('calendar placement', () => {
  it('lays a month out as six whole weeks from the locale’s first week day', () => {
    const days = monthGrid(new Date(2031, 2, 1), 0);
    expect(days).toHaveLength(42);
    // March 2031 begins on a Saturday: the grid starts on Sunday 23 February.
    expect(dayKey(days[0])).toBe('2031-02-23');
    expect(dayKey(days[41])).toBe('2031-04-05');
    expect(dayKey(monthGrid(new Date(2031, 2, 1), 1)[0])).toBe('2031-02-24');
    const window = gridWindow(new Date(2031, 2, 1), 0);
    expect(window.from).toEqual(new Date(2031, 1, 23));
    expect(window.to).toEqual(new Date(2031, 3, 6));
  });

  it('groups schedules by the local day of sendAt, soonest first', () => {
    const byDay = placeByDay([
      schedule({ id: 1, sendAt: at(2031, 3, 14, 18, 0) }),
      schedule({ id: 2, sendAt: at(2031, 3, 14, 8, 0) }),
      schedule({ id: 3, sendAt: at(2031, 3, 14, 23, 59) }),
      schedule({ id: 4, sendAt: at(2031, 3, 15, 0, 0) }),
    ]);
    expect(byDay.get('2031-03-14')?.map((s) => s.id)).toEqual([2, 1, 3]);
    expect(byDay.get('2031-03-15')?.map((s) => s.id)).toEqual([4]);
  });

  it('puts each event in its day’s cell with the time, the contact name, and edit and delete icons', () => {
    const items = [
      schedule({ id: 1, sendAt: at(2031, 3, 14, 9, 30) }),
      schedule({ id: 2, sendAt: at(2031, 3, 14, 8, 5), contact: { id: 3, name: 'Bruno', number: null }, userId: 99 }),
      schedule({ id: 3, sendAt: at(2031, 4, 1, 0, 0), status: 'ERRO' }),
    ];
    renderWithProviders(
      <ScheduleCalendar
        month={new Date(2031, 2, 1)}
        schedules={items}
        weekStartsOn={0}
        onEdit={() => undefined}
        onDelete={() => undefined}
        canEdit={() => true}
        canDelete={(s) => s.userId === 7}
      />,
    );
    const day14 = screen.getByTestId('calendar-day-2031-03-14');
    const events = within(day14).getAllByTestId(/^schedule-event-/);
    expect(events.map((e) => e.dataset.testid)).toEqual(['schedule-event-2', 'schedule-event-1']);
    expect(events[0].textContent).toContain('08:05');
    expect(events[0].textContent).toContain('Bruno');
    expect(events[1].textContent).toContain('09:30');
    expect(events[1].textContent).toContain('Carla Contato');
    expect(within(events[1]).getByTestId('schedule-edit-1')).toBeTruthy();
    expect(within(events[1]).getByTestId('schedule-delete-1')).toBeTruthy();
    // Not the caller's: no delete icon.
    expect(within(events[0]).queryByTestId('schedule-delete-2')).toBeNull();
    // 1 April is in the grid's last week, outside the month.
    const april = screen.getByTestId('calendar-day-2031-04-01');
    expect(april.dataset.outside).toBe('true');
    expect(within(april).getByTestId('schedule-event-3').dataset.status).toBe('ERRO');
    expect(within(screen.getByTestId('calendar-day-2031-03-15')).queryAllByTestId(/^schedule-event-/)).toHaveLength(0);
  });
});

describe('schedules page', () => {
  afterEach(() => {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1024 });
  });

  it('loads the visible weeks of the month and shows each schedule on its day', async () => {
    const now = new Date();
    const item = schedule({ id: 21, sendAt: new Date(now.getFullYear(), now.getMonth(), 15, 10, 0).toISOString() });
    const calls = server([item]);
    signIn();
    renderApp('/schedules');
    const event = await screen.findByTestId('schedule-event-21');
    expect(event.textContent).toContain('Carla Contato');
    const cell = screen.getByTestId(`calendar-day-${dayKey(new Date(item.sendAt))}`);
    expect(cell.contains(event)).toBe(true);
    const get = calls.find((c) => c.method === 'GET' && c.url === '/schedules');
    const { from, to } = gridWindow(new Date(now.getFullYear(), now.getMonth(), 1), 0);
    expect(get?.params).toMatchObject({ pageNumber: 1, searchParam: '', sendAtFrom: from.toISOString(), sendAtTo: to.toISOString() });
  });

  it('searches 500 ms after typing stops', async () => {
    const calls = server([]);
    signIn();
    renderApp('/schedules');
    const search = await screen.findByTestId('schedules-search');
    await waitFor(() => expect(calls.some((c) => c.url === '/schedules')).toBe(true));
    fireEvent.change(search.querySelector('input') ?? search, { target: { value: 'consulta' } });
    const searched = () => calls.filter((c) => c.url === '/schedules' && (c.params as { searchParam: string }).searchParam === 'consulta');
    await new Promise((r) => setTimeout(r, 250));
    expect(searched()).toHaveLength(0);
    await waitFor(() => expect(searched()).toHaveLength(1));
  });

  it('shows a list instead of the grid on a narrow window', async () => {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 500 });
    const now = new Date();
    server([schedule({ id: 31, sendAt: new Date(now.getFullYear(), now.getMonth(), 3, 14, 0).toISOString() })]);
    signIn();
    renderApp('/schedules');
    const item = await screen.findByTestId('schedule-item-31');
    expect(item.textContent).toContain('Carla Contato');
    expect(item.textContent).toContain('14:00');
    expect(screen.queryByTestId('schedule-calendar')).toBeNull();
  });

  it('?contactId= opens the add modal for that contact, sending an hour from now', async () => {
    server([]);
    signIn();
    const opened = Date.now();
    renderApp('/schedules?contactId=9');
    await screen.findByTestId('schedule-modal');
    const contact = screen.getByTestId('schedule-contact') as HTMLInputElement;
    await waitFor(() => expect(contact.value).toBe('Carla Contato'));
    // Shown as dd/MM/yyyy and a 24-hour HH:mm, whatever the browser's locale.
    const [day, month, year] = (screen.getByTestId('schedule-send-at-date') as HTMLInputElement).value.split('/');
    const time = (screen.getByTestId('schedule-send-at-time') as HTMLInputElement).value;
    expect(time).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
    const sendAt = fromLocalInput(`${year}-${month}-${day}T${time}`)!;
    expect(Math.abs(sendAt.getTime() - (opened + 3600_000))).toBeLessThan(120_000);
  });

  it('deletes a schedule after confirmation', async () => {
    const now = new Date();
    const calls = server([schedule({ id: 41, sendAt: new Date(now.getFullYear(), now.getMonth(), 10, 9, 0).toISOString() })]);
    const toasts = collectToasts();
    signIn();
    renderApp('/schedules');
    fireEvent.click(await screen.findByTestId('schedule-delete-41'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Carla Contato');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/schedules/41')).toBe(true));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'success')).toBe(true));
  });
});

describe('schedule modal', () => {
  it('defaults sendAt to now plus one hour and accepts only .png, .jpg and .jpeg', () => {
    const now = new Date(2031, 0, 1, 10, 0);
    expect(defaultSendAt(now)).toEqual(new Date(2031, 0, 1, 11, 0));
    expect(toLocalInput(new Date(2031, 0, 1, 11, 5))).toBe('2031-01-01T11:05');
    expect(fromLocalInput('2031-01-01T11:05')).toEqual(new Date(2031, 0, 1, 11, 5));
    expect(fromLocalInput('')).toBeNull();
    expect(['a.png', 'B.JPG', 'c.jpeg'].every((name) => isAttachable({ name }))).toBe(true);
    expect(['a.gif', 'b.pdf', 'c.png.exe', 'jpeg'].some((name) => isAttachable({ name }))).toBe(false);
  });

  it('requires a message of 5+ characters, a contact and sendAt, and sends nothing until then', async () => {
    const calls = server();
    signIn();
    renderWithProviders(<ScheduleModal onClose={() => undefined} />);
    fireEvent.change(screen.getByTestId('schedule-body'), { target: { value: 'abcd' } });
    fireEvent.change(screen.getByTestId('schedule-send-at-date'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('schedule-save'));
    await screen.findByText('Message too short');
    expect(screen.getAllByText('Required')).toHaveLength(2);
    expect(posts(calls, '/schedules')).toHaveLength(0);
  });

  it('creates the schedule, then uploads the picture as `file`; refuses other files', async () => {
    const calls = server();
    let closed = false;
    signIn();
    renderWithProviders(<ScheduleModal contactId={9} onClose={() => (closed = true)} />);
    await waitFor(() => expect((screen.getByTestId('schedule-contact') as HTMLInputElement).value).toBe('Carla Contato'));
    fireEvent.change(screen.getByTestId('schedule-body'), { target: { value: 'Olá {{firstName}}, até amanhã' } });
    fireEvent.change(screen.getByTestId('schedule-send-at-date'), { target: { value: '02052031' } });
    fireEvent.change(screen.getByTestId('schedule-send-at-time'), { target: { value: '1530' } });
    expect((screen.getByTestId('schedule-send-at-date') as HTMLInputElement).value).toBe('02/05/2031');
    expect((screen.getByTestId('schedule-send-at-time') as HTMLInputElement).value).toBe('15:30');
    const input = screen.getByTestId('schedule-file-input') as HTMLInputElement;
    expect(input.accept).toContain('.png');
    fireEvent.change(input, { target: { files: [new File(['GIF89a'], 'anim.gif', { type: 'image/gif' })] } });
    await screen.findByText('Only .png, .jpg and .jpeg files can be attached.');
    fireEvent.change(input, { target: { files: [new File(['png'], 'photo.png', { type: 'image/png' })] } });
    expect(screen.getByTestId('schedule-file-name').textContent).toBe('photo.png');
    fireEvent.click(screen.getByTestId('schedule-save'));
    await waitFor(() => expect(posts(calls, '/schedules/55/media-upload')).toHaveLength(1));
    expect(posts(calls, '/schedules')[0].data).toEqual({
      body: 'Olá {{firstName}}, até amanhã',
      contactId: 9,
      sendAt: new Date(2031, 4, 2, 15, 30).toISOString(),
    });
    expect(((posts(calls, '/schedules/55/media-upload')[0].data as FormData).get('file') as File).name).toBe('photo.png');
    await waitFor(() => expect(closed).toBe(true));
  });

  it('hides save once the schedule has been sent', async () => {
    server();
    signIn();
    renderWithProviders(<ScheduleModal schedule={schedule({ status: 'ENVIADA', sentAt: at(2031, 3, 14, 9, 30) })} onClose={() => undefined} />);
    expect(await screen.findByTestId('schedule-sent-notice')).toBeTruthy();
    expect(screen.queryByTestId('schedule-save')).toBeNull();
    expect((screen.getByTestId('schedule-body') as HTMLTextAreaElement).disabled).toBe(true);
  });

  it('shows ERRO as a send error with its reason, and lets an admin save it again', async () => {
    const calls = server();
    signIn();
    renderWithProviders(<ScheduleModal schedule={schedule({ status: 'ERRO', error: 'ERR_NO_DEF_WAPP_FOUND', attempts: 3 })} onClose={() => undefined} />);
    const error = await screen.findByTestId('schedule-send-error');
    expect(error.textContent).toContain('No default connection found');
    fireEvent.click(screen.getByTestId('schedule-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url === '/schedules/1')).toBe(true));
  });

  it('is read-only for an agent on an existing schedule (changing one is for admins)', async () => {
    server();
    signIn({ profile: 'user' });
    renderWithProviders(<ScheduleModal schedule={schedule()} onClose={() => undefined} />);
    await screen.findByTestId('schedule-modal');
    expect(screen.queryByTestId('schedule-save')).toBeNull();
    expect((screen.getByTestId('schedule-send-at-date') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByTestId('schedule-send-at-time') as HTMLInputElement).disabled).toBe(true);
  });
});
