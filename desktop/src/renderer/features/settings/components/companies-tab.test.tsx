import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { collectToasts, fakeServer, planReply, renderApp, signIn, type FakeCall } from '../../../test/render';
import { daysToDue, dueTone, expireDueDate } from './companies-tab';

const pad = (n: number) => String(n).padStart(2, '0');
/** Today plus `days`, as a yyyy-MM-dd due date. */
const inDays = (days: number) => {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

describe('company row colour (spec 01 section 2)', () => {
  it('counts calendar days from today to the due date', () => {
    const today = new Date(2030, 0, 10, 23, 30);
    expect(daysToDue('2030-01-10', today)).toBe(0);
    expect(daysToDue('2030-01-15', today)).toBe(5);
    expect(daysToDue('2030-01-06', today)).toBe(-4);
    expect(daysToDue('2030-03-10', today)).toBe(59);
    expect(daysToDue(null, today)).toBeNull();
    expect(daysToDue('not a date', today)).toBeNull();
  });

  it('more than 5 days: none; exactly 5: pale yellow; 4 to -3: orange; -4 and beyond: red', () => {
    const tones = Object.fromEntries([30, 6, 5, 4, 1, 0, -1, -3, -4, -5, -400].map((d) => [d, dueTone(d)]));
    expect(tones).toEqual({
      30: 'none',
      6: 'none',
      5: 'paleYellow',
      4: 'orange',
      1: 'orange',
      0: 'orange',
      '-1': 'orange',
      '-3': 'orange',
      '-4': 'red',
      '-5': 'red',
      '-400': 'red',
    });
    expect(dueTone(null)).toBe('none');
  });
});

describe('Expire: due date moved forward by the recurrence', () => {
  it.each([
    ['2030-01-15', 'MENSAL', '2030-02-15'],
    ['2030-01-31', 'MENSAL', '2030-02-28'],
    ['2032-01-31', 'MENSAL', '2032-02-29'],
    ['2030-03-31', 'MENSAL', '2030-04-30'],
    ['2030-12-31', 'MENSAL', '2031-01-31'],
    ['2030-12-31', 'BIMESTRAL', '2031-02-28'],
    ['2030-11-30', 'TRIMESTRAL', '2031-02-28'],
    ['2030-08-31', 'SEMESTRAL', '2031-02-28'],
    ['2032-02-29', 'ANUAL', '2033-02-28'],
    ['2030-05-20', 'ANUAL', '2031-05-20'],
    ['2030-05-20', 'UNKNOWN', '2030-06-20'],
  ])('%s + %s = %s', (due, recurrence, expected) => {
    expect(expireDueDate(due, recurrence)).toBe(expected);
  });

  it('starts from today when there is no due date', () => {
    expect(expireDueDate(null, 'MENSAL', new Date(2030, 0, 31))).toBe('2030-02-28');
  });
});

describe('companies tab', () => {
  const companies = [
    { id: 1, name: 'Far Co', email: 'far@x.com', phone: null, planId: 1, status: true, dueDate: inDays(40), recurrence: 'MENSAL' },
    { id: 2, name: 'Soon Co', email: null, phone: null, planId: 2, status: true, dueDate: inDays(5), recurrence: 'MENSAL' },
    { id: 3, name: 'Late Co', email: null, phone: null, planId: 1, status: false, dueDate: inDays(-2), recurrence: 'TRIMESTRAL' },
    { id: 4, name: 'Gone Co', email: null, phone: null, planId: 1, status: true, dueDate: '2030-01-31', recurrence: 'MENSAL' },
  ];
  companies[3].dueDate = inDays(-10);

  const serve = (handler?: (call: FakeCall) => { status?: number; data?: unknown } | undefined) =>
    fakeServer((call) => {
      const answer = handler?.(call);
      if (answer) return answer;
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url === '/settings') return { data: [] };
      if (call.url === '/companies/list') return { data: companies };
      if (call.url === '/plans/all') return { data: [{ id: 1, name: 'Basic' }, { id: 2, name: 'Pro' }] };
      if (call.method === 'PUT' && call.url.startsWith('/companies/')) return { data: { ...companies[0], ...(call.data as object) } };
      if (call.method === 'POST' && call.url === '/companies') return { status: 201, data: { id: 9 } };
      if (call.method === 'DELETE') return { data: { message: 'ok' } };
      return { data: [] };
    });

  const open = async () => {
    signIn({ super: true });
    renderApp('/settings');
    fireEvent.click(await screen.findByTestId('settings-tab-companies'));
    return screen.findByTestId('companies-tab');
  };

  it('is not offered to admins who are not super users', async () => {
    serve();
    signIn({ profile: 'admin', super: false });
    renderApp('/settings');
    await screen.findByTestId('settings-tab-options');
    expect(screen.queryByTestId('settings-tab-companies')).toBeNull();
    expect(screen.queryByTestId('settings-tab-plans')).toBeNull();
    expect(screen.queryByTestId('settings-tab-helps')).toBeNull();
  });

  it('lists name, email, plan, status, recurrence and due date, coloured by days to the due date', async () => {
    serve();
    await open();
    const far = await screen.findByTestId('company-row-1');
    expect(far.textContent).toContain('Far Co');
    expect(far.textContent).toContain('far@x.com');
    expect(far.textContent).toContain('Basic');
    expect(far.textContent).toContain('Yes');
    expect(far.textContent).toContain('Monthly');
    const [y, m, d] = companies[0].dueDate.split('-');
    expect(far.textContent).toContain(`${d}/${m}/${y}`);
    expect(screen.getByTestId('company-row-2').textContent).toContain('Pro');
    expect(screen.getByTestId('company-row-3').textContent).toContain('No');
    expect([1, 2, 3, 4].map((id) => screen.getByTestId(`company-row-${id}`).getAttribute('data-tone'))).toEqual([
      'none',
      'paleYellow',
      'orange',
      'red',
    ]);
  });

  it('Expire saves the due date moved by the recurrence, with a success toast', async () => {
    const calls = serve();
    const toasts = collectToasts();
    await open();
    fireEvent.click(await screen.findByTestId('company-expire-3'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url === '/companies/3')).toBe(true));
    const expected = expireDueDate(companies[2].dueDate, 'TRIMESTRAL');
    expect(calls.find((c) => c.url === '/companies/3')?.data).toEqual({ dueDate: expected });
    const [y, m, d] = expected.split('-');
    await waitFor(() => expect(toasts.some((t) => t.intent === 'success' && t.message === `Due date moved to ${d}/${m}/${y}.`)).toBe(true));
  });

  it('creates a company with the plan chosen and recurrence MENSAL, offering no other recurrence', async () => {
    const calls = serve();
    const toasts = collectToasts();
    await open();
    fireEvent.click(screen.getByTestId('company-add'));
    const modal = await screen.findByTestId('company-modal');
    const recurrence = within(modal).getByTestId('company-recurrence') as HTMLSelectElement;
    expect([...recurrence.options].map((o) => o.value)).toEqual(['MENSAL']);
    fireEvent.click(within(modal).getByTestId('company-save'));
    await waitFor(() => expect(within(modal).getAllByText('Required').length).toBe(2));
    fireEvent.change(within(modal).getByTestId('company-name'), { target: { value: 'New Co' } });
    fireEvent.change(within(modal).getByTestId('company-email'), { target: { value: 'boss@new.co' } });
    fireEvent.change(within(modal).getByTestId('company-password'), { target: { value: 'Secret-01x' } });
    fireEvent.change(within(modal).getByTestId('company-plan'), { target: { value: '2' } });
    fireEvent.change(within(modal).getByTestId('company-due-date'), { target: { value: '2031-03-31' } });
    fireEvent.click(within(modal).getByTestId('company-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/companies')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.data).toMatchObject({
      name: 'New Co',
      email: 'boss@new.co',
      password: 'Secret-01x',
      planId: 2,
      status: true,
      recurrence: 'MENSAL',
      dueDate: '2031-03-31',
      campaignsEnabled: true,
    });
    await waitFor(() => expect(toasts.some((t) => t.message === 'Company saved successfully.')).toBe(true));
  });

  const confirmDelete = async (id: number) => {
    fireEvent.click(await screen.findByTestId(`company-delete-${id}`));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(companies[id - 1].name);
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Delete' }));
  };

  it('deletes after confirmation, with a success toast', async () => {
    const calls = serve();
    const toasts = collectToasts();
    await open();
    await confirmDelete(2);
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/companies/2')).toBe(true));
    await waitFor(() => expect(toasts.some((t) => t.message === 'Company deleted successfully.')).toBe(true));
  });

  it('shows a refused delete as the translated error toast', async () => {
    const calls = serve((call) =>
      call.method === 'DELETE' && call.url === '/companies/1' ? { status: 409, data: { error: 'ERR_COMPANY_HAS_SUPER_USER' } } : undefined,
    );
    const toasts = collectToasts();
    await open();
    await confirmDelete(1);
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/companies/1')).toBe(true));
    await waitFor(() =>
      expect(toasts.filter((t) => t.intent === 'error').map((t) => t.message)).toEqual(['This company has a super user and cannot be deleted.']),
    );
    expect(toasts.some((t) => t.intent === 'success')).toBe(false);
  });
});
