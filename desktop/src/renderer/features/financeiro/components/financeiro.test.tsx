import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { fakeServer, planReply, renderApp, renderWithProviders, signIn } from '../../../test/render';
import type { Invoice } from '../api/invoices';
import FinanceiroPage from './financeiro-page';
import { formatBrl, invoiceStatus } from './invoice-status';

const day = (offset: number) => format(addDays(new Date(), offset), 'yyyy-MM-dd');

const invoice = (id: number, overrides: Partial<Invoice> = {}): Invoice => ({
  id,
  companyId: 3,
  detail: 'Plano Pro',
  value: 149.9,
  dueDate: day(10),
  status: 'open',
  paidAt: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

describe('invoice status rule', () => {
  const today = new Date(2025, 0, 10, 23, 30);
  it('is Paid when paid, whatever the date', () => {
    expect(invoiceStatus({ status: 'paid', dueDate: '2024-12-01' }, today)).toBe('paid');
    expect(invoiceStatus({ status: 'paid', dueDate: '2025-02-01' }, today)).toBe('paid');
  });
  it('is Expired when unpaid and due before today, Open from today on', () => {
    expect(invoiceStatus({ status: 'open', dueDate: '2025-01-09' }, today)).toBe('expired');
    expect(invoiceStatus({ status: 'open', dueDate: '2025-01-10' }, today)).toBe('open');
    expect(invoiceStatus({ status: 'open', dueDate: '2025-01-11' }, today)).toBe('open');
  });
  it('shows values in BRL the Brazilian way', () => {
    expect(formatBrl(149.9)).toMatch(/^R\$\s149,90$/);
    expect(formatBrl(1234.5)).toMatch(/^R\$\s1\.234,50$/);
  });
});

describe('invoices page', () => {
  const rows = [
    invoice(12, { dueDate: day(10) }),
    invoice(11, { dueDate: day(-3), detail: 'Plano Básico', value: 49.9 }),
    invoice(10, { dueDate: day(-33), status: 'paid', paidAt: '2025-01-01T10:00:00.000Z' }),
  ];

  it('lists id, detail, value in BRL, due date dd/MM/yyyy and the status, highlighting overdue unpaid rows', async () => {
    fakeServer((call) => {
      if (call.url === '/invoices/all') return { data: { invoices: rows, hasMore: false, count: 3 } };
      return undefined;
    });
    signIn();
    renderWithProviders(<FinanceiroPage />, '/financeiro');
    const open = await screen.findByTestId('invoice-row-12');
    expect(within(open).getByText('12')).toBeTruthy();
    expect(within(open).getByText('Plano Pro')).toBeTruthy();
    expect(within(open).getByText(/^R\$\s149,90$/)).toBeTruthy();
    expect(within(open).getByText(format(addDays(new Date(), 10), 'dd/MM/yyyy'))).toBeTruthy();
    expect(within(open).getByText('Open')).toBeTruthy();

    const expired = screen.getByTestId('invoice-row-11');
    expect(within(expired).getByText('Expired')).toBeTruthy();
    expect(within(expired).getByText(/^R\$\s49,90$/)).toBeTruthy();
    const paid = screen.getByTestId('invoice-row-10');
    expect(within(paid).getAllByText('Paid').length).toBeGreaterThan(0);

    // Only the overdue unpaid row is highlighted.
    expect(expired.className).not.toBe(open.className);
    expect(paid.className).toBe(open.className);
    expect(expired.getAttribute('data-status')).toBe('expired');

    // Pay only where there is something to pay.
    expect(screen.getByTestId('invoice-pay-12')).toBeTruthy();
    expect(screen.getByTestId('invoice-pay-11')).toBeTruthy();
    expect(screen.queryByTestId('invoice-pay-10')).toBeNull();
  });

  it('loads the next page when scrolled near the bottom (infinite scroll)', async () => {
    const calls = fakeServer((call) => {
      if (call.url !== '/invoices/all') return undefined;
      const page = (call.params as { pageNumber: number }).pageNumber;
      return page === 1
        ? { data: { invoices: [invoice(30), invoice(29)], hasMore: true, count: 3 } }
        : { data: { invoices: [invoice(28)], hasMore: false, count: 3 } };
    });
    signIn();
    renderWithProviders(<FinanceiroPage />, '/financeiro');
    await screen.findByTestId('invoice-row-29');
    expect(screen.queryByTestId('invoice-row-28')).toBeNull();
    fireEvent.scroll(screen.getByTestId('invoices-scroller'));
    await screen.findByTestId('invoice-row-28');
    expect(calls.filter((c) => c.url === '/invoices/all').map((c) => (c.params as { pageNumber: number }).pageNumber)).toEqual([1, 2]);
  });

  it('Pay opens the checkout of that invoice', async () => {
    fakeServer((call) => {
      if (call.url === '/invoices/all') return { data: { invoices: rows, hasMore: false, count: 3 } };
      if (call.url === '/invoices/11') return { data: rows[1] };
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      return { data: [] };
    });
    signIn();
    renderApp('/financeiro');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('invoice-pay-11'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/subscription'));
    const dialog = await screen.findByTestId('checkout-dialog');
    expect(within(dialog).getByText('Plano Básico')).toBeTruthy();
    expect(within(dialog).getByText(/^R\$\s49,90$/)).toBeTruthy();
  });
});
