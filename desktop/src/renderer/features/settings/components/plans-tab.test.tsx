import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PLAN_FEATURES } from '@atrium/shared';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../../test/render';
import { formatPlanValue, parsePlanValue } from './plans-tab';

const NBSP = '\u00a0';
const flags = (on: boolean) => Object.fromEntries(PLAN_FEATURES.map((f) => [f, on]));

describe('plan value (spec 01 section 3: BRL, pt-BR, 2 decimals)', () => {
  it('formats pt-BR with the real sign, thousands dots and 2 decimals, in any interface language', async () => {
    expect(formatPlanValue(1234.5)).toBe(`R$${NBSP}1.234,50`);
    expect(formatPlanValue(0)).toBe(`R$${NBSP}0,00`);
    expect(formatPlanValue(99.999)).toBe(`R$${NBSP}100,00`);
    expect(formatPlanValue(1000000)).toBe(`R$${NBSP}1.000.000,00`);
    expect(formatPlanValue('49.9')).toBe(`R$${NBSP}49,90`);
    expect(formatPlanValue(null)).toBe(`R$${NBSP}0,00`);
    await i18n.changeLanguage('es');
    expect(formatPlanValue(1234.5)).toBe(`R$${NBSP}1.234,50`);
  });

  it('reads what is typed, pt-BR or with a dot', () => {
    expect(parsePlanValue('1.234,56')).toBe('1234.56');
    expect(parsePlanValue('R$ 49,9')).toBe('49.9');
    expect(parsePlanValue('1234.56')).toBe('1234.56');
    expect(parsePlanValue(' 30 ')).toBe('30');
    expect(parsePlanValue('abc')).toBe('abc');
  });
});

describe('plans tab', () => {
  const plans = [
    { id: 1, name: 'Basic', users: 3, connections: 1, queues: 2, value: 1234.5, ...flags(true) },
    { id: 2, name: 'Free', users: 1, connections: 1, queues: 1, value: 0, ...flags(false), useKanban: true },
  ];
  const serve = () =>
    fakeServer((call) => {
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url === '/settings') return { data: [] };
      if (call.url === '/plans/all') return { data: plans };
      if (call.method === 'POST' && call.url === '/plans') return { status: 201, data: { id: 3 } };
      if (call.method === 'PUT') return { data: plans[1] };
      if (call.method === 'DELETE' && call.url === '/plans/1') return { status: 409, data: { error: 'ERR_PLAN_IN_USE' } };
      return { data: [] };
    });
  const open = async () => {
    signIn({ super: true });
    renderApp('/settings');
    fireEvent.click(await screen.findByTestId('settings-tab-plans'));
    return screen.findByTestId('plans-tab');
  };

  it('lists name, limits and the value in BRL', async () => {
    serve();
    await open();
    const row = await screen.findByTestId('plan-row-1');
    expect(row.textContent).toContain('Basic');
    expect(screen.getByTestId('plan-value-1').textContent).toBe(`R$${NBSP}1.234,50`);
    expect(screen.getByTestId('plan-value-2').textContent).toBe(`R$${NBSP}0,00`);
  });

  it('a new plan starts with the seven features enabled and sends the value as a number', async () => {
    const calls = serve();
    const toasts = collectToasts();
    await open();
    fireEvent.click(screen.getByTestId('plan-add'));
    const modal = await screen.findByTestId('plan-modal');
    for (const f of PLAN_FEATURES) expect((within(modal).getByTestId(`plan-flag-${f}`) as HTMLInputElement).checked, f).toBe(true);
    fireEvent.change(within(modal).getByTestId('plan-name'), { target: { value: 'Gold' } });
    fireEvent.change(within(modal).getByTestId('plan-users'), { target: { value: '10' } });
    fireEvent.change(within(modal).getByTestId('plan-value'), { target: { value: '1.299,90' } });
    fireEvent.click(within(modal).getByTestId('plan-flag-useOpenAi'));
    fireEvent.click(within(modal).getByTestId('plan-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/plans')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.data).toEqual({
      name: 'Gold',
      users: 10,
      connections: 0,
      queues: 0,
      value: 1299.9,
      ...flags(true),
      useOpenAi: false,
    });
    await waitFor(() => expect(toasts.some((t) => t.message === 'Plan saved successfully.')).toBe(true));
  });

  it("edits a plan from its stored flags, and refuses a value that isn't one", async () => {
    const calls = serve();
    await open();
    const row = await screen.findByTestId('plan-row-2');
    fireEvent.click(within(row).getAllByRole('button')[0]);
    const modal = await screen.findByTestId('plan-modal');
    expect((within(modal).getByTestId('plan-flag-useKanban') as HTMLInputElement).checked).toBe(true);
    expect((within(modal).getByTestId('plan-flag-useCampaigns') as HTMLInputElement).checked).toBe(false);
    expect((within(modal).getByTestId('plan-value') as HTMLInputElement).value).toBe('0,00');
    fireEvent.change(within(modal).getByTestId('plan-value'), { target: { value: 'lots' } });
    fireEvent.click(within(modal).getByTestId('plan-save'));
    await waitFor(() => expect(within(modal).getByText('Invalid value')).toBeTruthy());
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(within(modal).getByTestId('plan-value'), { target: { value: '10' } });
    fireEvent.click(within(modal).getByTestId('plan-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.url === '/plans/2')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.data).toMatchObject({ name: 'Free', value: 10, useKanban: true, useCampaigns: false });
  });

  it('shows the server refusing to delete a plan in use as the translated error', async () => {
    const calls = serve();
    const toasts = collectToasts();
    await open();
    fireEvent.click(await screen.findByTestId('plan-delete-1'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/plans/1')).toBe(true));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error' && t.message === 'This plan is in use by a company.')).toBe(true));
  });
});
