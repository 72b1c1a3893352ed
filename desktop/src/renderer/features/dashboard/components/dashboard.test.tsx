import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { format, startOfMonth } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { collectToasts, fakeServer, makeUser, planReply, renderApp, renderWithProviders, signIn, type FakeCall } from '../../../test/render';
import { dashboardParams, type DashboardAnswer, type DashboardFilter } from '../api/dashboard';
import DashboardPage from './dashboard-page';
import { dayBars, formatMinutes, hourBars, userBars } from './format';

describe('times', () => {
  it('are shown as HH h mm m, rounded to the minute, hours not wrapped at a day', () => {
    expect(formatMinutes(0)).toBe('00 h 00 m');
    expect(formatMinutes(12)).toBe('00 h 12 m');
    expect(formatMinutes(59.4)).toBe('00 h 59 m');
    expect(formatMinutes(75.5)).toBe('01 h 16 m');
    expect(formatMinutes(1500)).toBe('25 h 00 m');
    expect(formatMinutes(6000)).toBe('100 h 00 m');
  });
  it('show nothing odd for missing or negative values', () => {
    expect(formatMinutes(undefined)).toBe('00 h 00 m');
    expect(formatMinutes(null)).toBe('00 h 00 m');
    expect(formatMinutes(Number.NaN)).toBe('00 h 00 m');
    expect(formatMinutes(-5)).toBe('00 h 00 m');
  });
});

describe('the filter rule', () => {
  const filter = (patch: Partial<DashboardFilter>): DashboardFilter => ({ type: 'date', days: 0, dateFrom: '', dateTo: '', ...patch });

  it('asks for the chosen period only; period 0 is no filter', () => {
    expect(dashboardParams(filter({ type: 'period', days: 7, dateFrom: '2024-03-01' }))).toEqual({ days: 7 });
    expect(dashboardParams(filter({ type: 'period', days: 90 }))).toEqual({ days: 90 });
    expect(dashboardParams(filter({ type: 'period', days: 0, dateFrom: '2024-03-01' }))).toBeNull();
  });

  it('asks for the valid dates of a range, either end alone', () => {
    expect(dashboardParams(filter({ dateFrom: '2024-03-01', dateTo: '2024-03-31' }))).toEqual({ date_from: '2024-03-01', date_to: '2024-03-31' });
    expect(dashboardParams(filter({ dateTo: '2024-03-31' }))).toEqual({ date_to: '2024-03-31' });
    expect(dashboardParams(filter({ dateFrom: '2024-03-01', days: 7 }))).toEqual({ date_from: '2024-03-01' });
  });

  it('gives nothing (refused by the screen) without a valid date', () => {
    expect(dashboardParams(filter({}))).toBeNull();
    expect(dashboardParams(filter({ dateFrom: '2024-02-30', dateTo: 'tomorrow' }))).toBeNull();
  });
});

describe('chart bars', () => {
  it('per user: one bar per user, zeros included', () => {
    expect(userBars([{ nome: 'Ana', quantidade: 5 }, { nome: 'Bruno', quantidade: 0 }]).map((b) => [b.label, b.value])).toEqual([
      ['Ana', 5],
      ['Bruno', 0],
    ]);
  });

  it('one day: all 24 hours, 0 where none', () => {
    const bars = hourBars([{ horario: 0, total: 1 }, { horario: 11, total: 2 }]);
    expect(bars).toHaveLength(24);
    expect(bars[0]).toEqual({ label: '00h', title: '00:00–00:59', value: 1 });
    expect(bars[11].value).toBe(2);
    expect(bars.filter((b) => b.value === 0)).toHaveLength(22);
  });

  it('a range: every day in date order across months, 0 where none', () => {
    const bars = dayBars([{ data: '01/03/2024', total: 4 }, { data: '28/02/2024', total: 2 }], '2024-02-27', '2024-03-02');
    expect(bars.map((b) => [b.title, b.value])).toEqual([
      ['27/02/2024', 0],
      ['28/02/2024', 2],
      ['29/02/2024', 0],
      ['01/03/2024', 4],
      ['02/03/2024', 0],
    ]);
    expect(bars[1].label).toBe('28/02');
  });
});

const answer: DashboardAnswer = {
  counters: { supportHappening: 4, supportPending: 2, supportFinished: 9, leads: 3, avgSupportTime: 75.5, avgWaitTime: 12 },
  attendants: [
    { id: 1, name: 'Ana Admin', rating: 2.5, avgSupportTime: 30, tickets: 5, online: true },
    { id: 2, name: 'Bruno Agente', rating: 0, avgSupportTime: 0, tickets: 0, online: false },
  ],
};

const server = (overrides: (call: FakeCall) => { status?: number; data?: unknown } | undefined = () => undefined) =>
  fakeServer((call) => {
    const custom = overrides(call);
    if (custom) return custom;
    if (call.url === '/dashboard') return { data: answer };
    if (call.url === '/dashboard/ticketsUsers') {
      return { data: { data: [{ nome: 'Ana Admin', quantidade: 5 }, { nome: 'Bruno Agente', quantidade: 0 }], count: 5 } };
    }
    if (call.url === '/dashboard/ticketsDay') {
      const { initialDate, finalDate } = call.params as { initialDate: string; finalDate: string };
      return initialDate === finalDate
        ? { data: { data: [{ horario: 9, total: 3 }], count: 3 } }
        : { data: { data: [{ data: '02/03/2024', total: 6 }], count: 6 } };
    }
    return undefined;
  });

const dashboardCalls = (calls: FakeCall[]) => calls.filter((c) => c.url === '/dashboard');
const today = format(new Date(), 'yyyy-MM-dd');

describe('dashboard screen', () => {
  it('opens on this month and shows the counters, times as HH h mm m', async () => {
    const calls = server();
    signIn();
    renderWithProviders(<DashboardPage />);
    await waitFor(() => expect(screen.getByTestId('counter-happening').textContent).toContain('4'));
    expect(dashboardCalls(calls)[0].params).toEqual({ date_from: format(startOfMonth(new Date()), 'yyyy-MM-dd'), date_to: today });
    expect(screen.getByTestId('counter-happening').textContent).toBe('In attendance4');
    expect(screen.getByTestId('counter-pending').textContent).toBe('Waiting2');
    expect(screen.getByTestId('counter-finished').textContent).toBe('Finished9');
    expect(screen.getByTestId('counter-leads').textContent).toBe('New contacts3');
    expect(screen.getByTestId('counter-support-time').textContent).toBe('Average attendance time01 h 16 m');
    expect(screen.getByTestId('counter-wait-time').textContent).toBe('Average waiting time00 h 12 m');
  });

  it('lists the attendants with 0-3 stars, their average time and an online dot', async () => {
    server();
    signIn();
    renderWithProviders(<DashboardPage />);
    const ana = await screen.findByTestId('attendant-1');
    expect(within(ana).getByText('Ana Admin')).toBeTruthy();
    expect(within(ana).getByRole('img', { name: 'Rating 2.5 of 3' })).toBeTruthy();
    expect(within(ana).getByText('00 h 30 m')).toBeTruthy();
    expect(within(ana).getByTestId('online-dot').dataset.online).toBe('true');
    expect(within(ana).getByText('Online')).toBeTruthy();
    const bruno = screen.getByTestId('attendant-2');
    expect(within(bruno).getByRole('img', { name: 'Rating 0 of 3' })).toBeTruthy();
    expect(within(bruno).getByTestId('online-dot').dataset.online).toBe('false');
    expect(within(bruno).getByText('Offline')).toBeTruthy();
  });

  it('draws tickets per user, and tickets per hour for one day, as SVG bars', async () => {
    const calls = server();
    signIn({ company: { ...makeUser().company!, timezone: 'America/Manaus' } });
    renderWithProviders(<DashboardPage />);
    const users = await screen.findByTestId('chart-users');
    await waitFor(() => expect(within(users).getAllByTestId('chart-bar').map((b) => b.dataset.value)).toEqual(['5', '0']));
    expect(within(users).getByText('5 tickets in total')).toBeTruthy();
    expect(users.querySelector('svg')?.getAttribute('role')).toBe('img');
    expect(calls.find((c) => c.url === '/dashboard/ticketsUsers')?.params).toEqual({
      initialDate: format(startOfMonth(new Date()), 'yyyy-MM-dd'),
      finalDate: today,
    });

    const day = screen.getByTestId('chart-day');
    await waitFor(() => expect(within(day).getAllByTestId('chart-bar')).toHaveLength(24));
    expect(within(day).getAllByTestId('chart-bar')[9].dataset.value).toBe('3');
    expect(within(day).getByRole('heading', { name: 'Tickets per hour' })).toBeTruthy();
    // The hours are the company's, which need not be the browser's: the chart says so.
    expect(within(day).getByTestId('chart-day-note').textContent).toBe('Counted in the company’s time zone (America/Manaus)');
  });

  it('switches the day chart to days when its range spans several days', async () => {
    const calls = server();
    signIn();
    renderWithProviders(<DashboardPage />);
    const day = await screen.findByTestId('chart-day');
    // dd/MM/yyyy whatever the browser's locale.
    const [from, to] = within(day).getAllByDisplayValue(today.split('-').reverse().join('/')) as HTMLInputElement[];
    fireEvent.change(to, { target: { value: '03/03/2024' } });
    fireEvent.change(from, { target: { value: '01/03/2024' } });
    await waitFor(() => expect(within(day).getAllByTestId('chart-bar').map((b) => b.dataset.value)).toEqual(['0', '6', '0']));
    expect(within(day).getByRole('heading', { name: 'Tickets per day' })).toBeTruthy();
    expect(calls.filter((c) => c.url === '/dashboard/ticketsDay').at(-1)?.params).toEqual({ initialDate: '2024-03-01', finalDate: '2024-03-03' });
  });

  it('refuses a filter that asks for nothing with the select-filter toast, and applies a period', async () => {
    const calls = server();
    const toasts = collectToasts();
    signIn();
    renderWithProviders(<DashboardPage />);
    await screen.findByTestId('attendant-1');
    const before = dashboardCalls(calls).length;

    fireEvent.change(screen.getByTestId('filter-type'), { target: { value: 'period' } });
    fireEvent.click(screen.getByTestId('filter-apply'));
    await waitFor(() => expect(toasts.map((t) => [t.intent, t.message])).toContainEqual(['error', 'Choose at least one filter: a period or a date.']));
    expect(dashboardCalls(calls)).toHaveLength(before);

    fireEvent.change(screen.getByTestId('filter-days'), { target: { value: '7' } });
    fireEvent.click(screen.getByTestId('filter-apply'));
    await waitFor(() => expect(dashboardCalls(calls).at(-1)?.params).toEqual({ days: 7 }));
  });

  it('shows userChartError and dateChartError when a chart fails, the rest of the screen still there', async () => {
    server((call) => (call.url.startsWith('/dashboard/tickets') ? { status: 500, data: { error: 'ERR_INTERNAL_SERVER_ERROR' } } : undefined));
    const toasts = collectToasts();
    signIn();
    renderWithProviders(<DashboardPage />);
    await waitFor(() => {
      const messages = toasts.filter((t) => t.intent === 'error').map((t) => t.message);
      expect(messages).toContain('Could not load the tickets per user chart.');
      expect(messages).toContain('Could not load the tickets per day chart.');
    });
    expect(await screen.findByTestId('attendant-1')).toBeTruthy();
  });

  it('is the admin’s home at /', async () => {
    server((call) => {
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url.startsWith('/whatsapp')) return { data: [] };
      return undefined;
    });
    signIn();
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    expect(await screen.findByTestId('attendant-2')).toBeTruthy();
  });
});
