import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays } from 'date-fns';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { CHECKOUT_SUCCESS_REDIRECT_MS, PIX_COPIED_MS } from '@atrium/shared';
import { realtime } from '../../../api/socket';
import { subscribeToasts } from '../../../components/toasts';
import { useAuthStore } from '../../../stores/auth-store';
import { collectToasts, fakeServer, makeUser, planReply, renderWithProviders, signIn, type FakeCall } from '../../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';
import type { Invoice } from '../api/subscription';
import SubscriptionPage, { trialDaysLeft } from './subscription-page';

const OPEN: Invoice = {
  id: 21,
  companyId: 3,
  detail: 'Plano Pro',
  value: 149.9,
  dueDate: '2099-01-31',
  status: 'open',
  paidAt: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};
const PAID: Invoice = { ...OPEN, id: 22, dueDate: '2099-02-28', status: 'paid' };
const PIX = {
  txid: 'sbx0123456789abcdef0123456789abcdef',
  invoiceId: 21,
  status: 'ATIVA',
  calendario: { expiracao: 3600 },
  valor: { original: '149.90' },
  qrcode: { qrcode: '00020101021226360014br.gov.bcb.pix0114pix@example.com5204000053039865406149.905802BR6304ABCD' },
};

const server = (invoices: Invoice[] = [PAID, OPEN]) =>
  fakeServer((call: FakeCall) => {
    if (call.url === '/invoices/all') return { data: { invoices, hasMore: false, count: invoices.length } };
    if (call.url === '/invoices/21') return { data: OPEN };
    if (call.url === '/subscription' && call.method === 'POST') return { data: PIX };
    if (call.url.startsWith('/companies/listPlan/')) return planReply();
    return undefined;
  });

const signInWithCompany = (company: Record<string, unknown> = {}) =>
  signIn({ company: { ...makeUser().company!, email: 'billing@acme.com', ...company } });

const openCheckout = async () => {
  const user = userEvent.setup();
  await user.click(await screen.findByTestId('subscription-sign'));
  const dialog = await screen.findByTestId('checkout-dialog');
  return { user, dialog };
};

describe('subscription page', () => {
  it('shows the trial days left and the charge email, read-only', async () => {
    server();
    signInWithCompany({ trialExpiration: addDays(new Date(), 5).toISOString() });
    renderWithProviders(<SubscriptionPage />, '/subscription');
    expect((await screen.findByTestId('subscription-trial')).textContent).toBe('Your trial period ends in 5 days!');
    const email = screen.getByTestId('subscription-email') as HTMLInputElement;
    expect(email.value).toBe('billing@acme.com');
    expect(email.readOnly).toBe(true);
  });

  it('counts trial days by calendar day, never below zero', () => {
    const today = new Date(2025, 0, 10, 18, 0);
    expect(trialDaysLeft('2025-01-13T09:00:00.000Z', today)).toBe(3);
    expect(trialDaysLeft('2025-01-01T09:00:00.000Z', today)).toBe(0);
    expect(trialDaysLeft(null, today)).toBeNull();
  });

  it('says so when there is no open invoice to pay', async () => {
    server([PAID]);
    signInWithCompany();
    renderWithProviders(<SubscriptionPage />, '/subscription');
    await userEvent.setup().click(await screen.findByTestId('subscription-sign'));
    expect(await screen.findByTestId('subscription-no-invoice')).toBeTruthy();
    expect(screen.queryByTestId('checkout-dialog')).toBeNull();
  });
});

describe('checkout', () => {
  it('starts at the plan step with Back and Next hidden, then review, then the Pix screen', async () => {
    const calls = server();
    signInWithCompany();
    renderWithProviders(<SubscriptionPage />, '/subscription');
    const { user, dialog } = await openCheckout();

    // Step 1, plan: the open invoice's plan and price; no Back, no Next.
    expect(within(dialog).getByTestId('checkout-step-1').getAttribute('aria-current')).toBe('step');
    const plan = within(dialog).getByTestId('checkout-plan');
    expect(within(plan).getByText('Plano Pro')).toBeTruthy();
    expect(within(plan).getByText(/^R\$\s149,90$/)).toBeTruthy();
    await waitFor(() => expect(within(plan).getByText(/Users: 10/)).toBeTruthy());
    expect(within(dialog).queryByTestId('checkout-back')).toBeNull();
    expect(within(dialog).queryByTestId('checkout-next')).toBeNull();
    expect(within(dialog).queryByTestId('checkout-pay')).toBeNull();

    // Step 2, review: Back returns to the plan.
    await user.click(within(plan).getByTestId('checkout-choose'));
    expect(within(dialog).getByTestId('checkout-step-2').getAttribute('aria-current')).toBe('step');
    expect(within(dialog).getByTestId('checkout-review').textContent).toContain('31/01/2099');
    await user.click(within(dialog).getByTestId('checkout-back'));
    expect(within(dialog).getByTestId('checkout-step-1').getAttribute('aria-current')).toBe('step');
    expect(within(dialog).queryByTestId('checkout-back')).toBeNull();
    await user.click(within(dialog).getByTestId('checkout-choose'));

    // Pay: the invoice is charged, and the Pix screen shows its QR code and copy-and-paste code.
    await user.click(within(dialog).getByTestId('checkout-pay'));
    const pix = await within(dialog).findByTestId('pix-screen');
    const posted = calls.find((c) => c.url === '/subscription');
    expect(posted?.data).toMatchObject({ invoiceId: 21, price: 149.9 });
    expect(pix.querySelector('svg')).toBeTruthy();
    expect((within(pix).getByTestId('pix-code') as HTMLInputElement).value).toBe(PIX.qrcode.qrcode);
    expect(pix.textContent).toMatch(/R\$\s149,90/);
    expect(within(dialog).queryByTestId('checkout-step-1')).toBeNull();
  });

  it("copies the Pix code and says 'copied' for a second", async () => {
    server();
    signInWithCompany();
    renderWithProviders(<SubscriptionPage />, '/subscription');
    const { user, dialog } = await openCheckout();
    await user.click(within(dialog).getByTestId('checkout-choose'));
    await user.click(within(dialog).getByTestId('checkout-pay'));
    const copy = await within(dialog).findByTestId('pix-copy');
    expect(copy.textContent).toBe('Copy');
    // The moments themselves: the code written to the clipboard (the second starts after it) and each label
    // the button takes, as it is committed. Read by polling the screen instead, the start came late on a
    // busy machine (the second measured short), and a poll can miss a label that shows for a second.
    let writtenAt = 0;
    const clipboard = navigator.clipboard;
    const write = clipboard.writeText.bind(clipboard);
    const spy = vi.spyOn(clipboard, 'writeText').mockImplementation((text) => {
      writtenAt ||= performance.now();
      return write(text);
    });
    onTestFinished(() => spy.mockRestore());
    const labels: { text: string; at: number }[] = [];
    const observer = new MutationObserver(() => {
      const text = copy.textContent ?? '';
      if (labels.at(-1)?.text !== text) labels.push({ text, at: performance.now() });
    });
    observer.observe(copy, { subtree: true, childList: true, characterData: true });
    onTestFinished(() => observer.disconnect());
    await user.click(copy);
    expect(await navigator.clipboard.readText()).toBe(PIX.qrcode.qrcode);
    await waitFor(() => expect(labels.map((l) => l.text)).toEqual(['Copied!', 'Copy']));
    // A timer never fires early; a few ms of clock rounding allowed.
    expect(labels[1].at - writtenAt).toBeGreaterThanOrEqual(PIX_COPIED_MS - 5);
  });

  it('validates the billing data step (reached from the review) before going on to the plan', async () => {
    server();
    signInWithCompany();
    renderWithProviders(<SubscriptionPage />, '/subscription');
    const { user, dialog } = await openCheckout();
    await user.click(within(dialog).getByTestId('checkout-choose'));
    await user.click(within(dialog).getByTestId('checkout-edit-data'));
    expect(within(dialog).getByTestId('checkout-step-0').getAttribute('aria-current')).toBe('step');
    await user.click(within(dialog).getByTestId('checkout-next'));
    expect(within(dialog).getAllByText('Required').length).toBeGreaterThanOrEqual(4);
    await user.type(within(dialog).getByTestId('checkout-firstName'), 'Ana');
    await user.type(within(dialog).getByTestId('checkout-address2'), 'Rua A, 10');
    await user.type(within(dialog).getByTestId('checkout-city'), 'Recife');
    await user.type(within(dialog).getByTestId('checkout-zipcode'), '5000');
    await user.click(within(dialog).getByTestId('checkout-next'));
    expect(within(dialog).getByTestId('checkout-step-0').getAttribute('aria-current')).toBe('step');
    // The refusal says what a valid zip code looks like.
    expect(within(dialog).getByText('Enter a zip code like 12345-678 (Brazil) or 12345 (United States)')).toBeTruthy();
    await user.type(within(dialog).getByTestId('checkout-zipcode'), '0-000');
    await user.click(within(dialog).getByTestId('checkout-next'));
    expect(within(dialog).getByTestId('checkout-step-1').getAttribute('aria-current')).toBe('step');
  });

  it('opens the checkout of the invoice named in the address (the invoices page Pay button)', async () => {
    server();
    signInWithCompany();
    renderWithProviders(<SubscriptionPage />, '/subscription?invoiceId=21');
    const dialog = await screen.findByTestId('checkout-dialog');
    expect(within(dialog).getByText('Plano Pro')).toBeTruthy();
  });
});

describe('payment confirmation', () => {
  let io: TestSocketServer;
  beforeAll(async () => {
    io = await startSocketServer();
  });
  afterAll(async () => {
    await io.close();
  });
  afterEach(() => io.reset());

  const connect = async () => {
    realtime.connect({ url: io.url, token: 'token-1', companyId: 3, userId: 7, renewToken: async () => null });
    await until(() => realtime.connected && io.sockets.length > 0);
    return io.sockets[0];
  };

  it('on CONCLUIDA: a success toast with the new due date, the session updated, then / after 4 s', async () => {
    server();
    const toasts = collectToasts();
    signInWithCompany({ dueDate: '2099-01-31' });
    renderWithProviders(<SubscriptionPage />, '/subscription');
    await screen.findByTestId('subscription-sign');
    const socket = await connect();

    // When the toast is raised (the 4 s start after it), not when a poll of the list notices it.
    let shownAt = 0;
    onTestFinished(subscribeToasts((t) => t.intent === 'success' && (shownAt ||= performance.now())));
    socket.emit('company-3-payment', { action: 'CONCLUIDA', company: { id: 3, dueDate: '2099-02-28' } });
    await waitFor(() => expect(toasts.some((t) => t.intent === 'success')).toBe(true));
    expect(toasts.find((t) => t.intent === 'success')?.message).toBe('Payment confirmed! Your licence was renewed until 28/02/2099.');
    expect(useAuthStore.getState().user?.company?.dueDate).toBe('2099-02-28');
    expect(localStorage.getItem('dueDate')).toBe('2099-02-28');
    expect(screen.getByTestId('location').textContent).toBe('/subscription');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(performance.now() - shownAt).toBeGreaterThanOrEqual(CHECKOUT_SUCCESS_REDIRECT_MS - 5);
  });

  it('the open Pix screen turns from waiting for the bank to paid', async () => {
    server();
    signInWithCompany({ dueDate: '2099-01-31' });
    renderWithProviders(<SubscriptionPage />, '/subscription');
    const { user, dialog } = await openCheckout();
    await user.click(within(dialog).getByTestId('checkout-choose'));
    await user.click(within(dialog).getByTestId('checkout-pay'));
    await within(dialog).findByTestId('pix-waiting');
    const socket = await connect();
    socket.emit('company-3-payment', { action: 'CONCLUIDA', company: { id: 3, dueDate: '2099-02-28' } });
    expect((await within(dialog).findByTestId('pix-paid')).textContent).toBe('Payment received. Thank you!');
    expect(within(dialog).queryByTestId('pix-waiting')).toBeNull();
  });

  it("ignores other actions and other companies' payments", async () => {
    server();
    const toasts = collectToasts();
    signInWithCompany({ dueDate: '2099-01-31' });
    renderWithProviders(<SubscriptionPage />, '/subscription');
    await screen.findByTestId('subscription-sign');
    const socket = await connect();
    socket.emit('company-3-payment', { action: 'ATIVA', company: { id: 3, dueDate: '2099-02-28' } });
    socket.emit('company-4-payment', { action: 'CONCLUIDA', company: { id: 4, dueDate: '2099-02-28' } });
    expect(useAuthStore.getState().user?.company?.dueDate).toBe('2099-01-31');
    // Events arrive in order: once this one's toast shows, the two before it were heard and ignored.
    socket.emit('company-3-payment', { action: 'CONCLUIDA', company: { id: 3, dueDate: '2099-03-31' } });
    await waitFor(() => expect(toasts.some((t) => t.intent === 'success')).toBe(true));
    expect(toasts.filter((t) => t.intent === 'success').map((t) => t.message)).toEqual([
      'Payment confirmed! Your licence was renewed until 31/03/2099.',
    ]);
    expect(useAuthStore.getState().user?.company?.dueDate).toBe('2099-03-31');
  });
});
