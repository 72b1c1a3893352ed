import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { collectToasts, fakeServer, makeUser, planReply, renderApp } from '../../../test/render';
import { daysUntilDue, warnIfSubscriptionEnding } from '../hooks/use-login';

const loginServer = (reply: (body: { email: string; password: string }) => { status?: number; data?: unknown }) =>
  fakeServer((call) => {
    if (call.url === '/auth/login') return reply(call.data as { email: string; password: string });
    if (call.url.startsWith('/companies/listPlan/')) return planReply();
    if (call.url.startsWith('/whatsapp')) return { data: [] };
    return undefined;
  });

const session = (dueDate = '2099-12-31') => ({
  data: { token: 'tok', user: makeUser({ company: { ...makeUser().company!, dueDate } }) },
});

const openLogin = async () => {
  renderApp('/login');
  await screen.findByRole('button', { name: 'Log in' });
  return userEvent.setup();
};

describe('login page', () => {
  it('has email, password, the language menu, links to /signup and /forgetpsw, and the copyright', async () => {
    await openLogin();
    expect(screen.getByLabelText(/^Email/)).toBeTruthy();
    expect(screen.getByLabelText(/^Password/)).toBeTruthy();
    // The menu shows the current language; its name starts with what it shows.
    const language = screen.getByRole('button', { name: 'English (Language)' });
    expect(language.textContent).toBe('English');
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/signup');
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe('/forgetpsw');
    expect(screen.getByText(`Copyright © ${new Date().getFullYear()} Atrium`)).toBeTruthy();
  });

  it('refuses an empty form without calling the server', async () => {
    const calls = loginServer(() => session());
    const user = await openLogin();
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    expect(calls.filter((c) => c.url === '/auth/login')).toHaveLength(0);
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it('refuses a malformed email', async () => {
    const calls = loginServer(() => session());
    const user = await openLogin();
    await user.type(screen.getByLabelText(/^Email/), 'not-an-email');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Invalid email')).toBeTruthy();
    expect(screen.queryByText('Required')).toBeNull();
    expect(calls.filter((c) => c.url === '/auth/login')).toHaveLength(0);
  });

  it('clears a field’s error as it is corrected', async () => {
    loginServer(() => session());
    const user = await openLogin();
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findAllByText('Required');
    await user.type(screen.getByLabelText(/^Email/), 'a');
    expect(screen.getAllByText('Required')).toHaveLength(1);
  });

  it('logs in with the typed credentials and lands on /tickets', async () => {
    const calls = loginServer(() => session());
    const user = await openLogin();
    await user.type(screen.getByLabelText(/^Email/), '  Ana@Example.com ');
    await user.type(screen.getByLabelText(/^Password/), 'Secret-1');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
    expect(calls.find((c) => c.url === '/auth/login')?.data).toEqual({ email: 'ana@example.com', password: 'Secret-1' });
    expect(useAuthStore.getState()).toMatchObject({ status: 'authenticated', token: 'tok', origin: 'login' });
    expect(localStorage.getItem('companyId')).toBe('3');
    expect(localStorage.getItem('userId')).toBe('7');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('shows wrong credentials as the translated error toast and stays', async () => {
    loginServer(() => ({ status: 401, data: { error: 'ERR_INVALID_CREDENTIALS' } }));
    const user = await openLogin();
    await user.type(screen.getByLabelText(/^Email/), 'ana@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Authentication failed. Please check your email and password.')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/login');
    expect(useAuthStore.getState().status).toBe('guest');
  });

  it('explains an expired subscription with its due date and asks to contact support', async () => {
    loginServer(() => ({ status: 401, data: { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2024-03-07' } }));
    const user = await openLogin();
    await user.type(screen.getByLabelText(/^Email/), 'ana@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const banner = await screen.findByTestId('login-failure');
    expect(banner.textContent).toContain('07/03/2024');
    expect(banner.textContent).toContain('contact support');
  });

  it('warns when fewer than 5 days are left', async () => {
    const toasts = collectToasts();
    loginServer(() => session(format(addDays(new Date(), 3), 'yyyy-MM-dd')));
    const user = await openLogin();
    await user.type(screen.getByLabelText(/^Email/), 'ana@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret-1');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'warning')).toBe(true));
    expect(toasts.find((t) => t.intent === 'warning')?.message).toBe('Your subscription expires in 3 days.');
  });

  it('does not warn with 5 days or more left', async () => {
    const toasts = collectToasts();
    loginServer(() => session(format(addDays(new Date(), 5), 'yyyy-MM-dd')));
    const user = await openLogin();
    await user.type(screen.getByLabelText(/^Email/), 'ana@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'Secret-1');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
    expect(toasts.filter((t) => t.intent === 'warning')).toEqual([]);
  });
});

describe('subscription days', () => {
  const today = new Date(2025, 0, 10, 15, 30);
  it('counts calendar days to the due date', () => {
    expect(daysUntilDue('2025-01-10', today)).toBe(0);
    expect(daysUntilDue('2025-01-14', today)).toBe(4);
    expect(daysUntilDue('2025-01-09', today)).toBe(-1);
    expect(daysUntilDue(null, today)).toBeNull();
    expect(daysUntilDue('soon', today)).toBeNull();
    // Across a month's end late in the evening, and across a daylight-saving change.
    expect(daysUntilDue('2025-02-01', new Date(2025, 0, 31, 23, 59))).toBe(1);
    expect(daysUntilDue('2025-04-02', new Date(2025, 2, 29, 12))).toBe(4);
    expect(daysUntilDue('2025-11-03', new Date(2025, 9, 25, 0, 1))).toBe(9);
  });
  it('warns from 0 to 4 days only', () => {
    const user = (dueDate: string) => makeUser({ company: { ...makeUser().company!, dueDate } });
    expect(warnIfSubscriptionEnding(user('2025-01-14'), today)).toBe(true);
    expect(warnIfSubscriptionEnding(user('2025-01-10'), today)).toBe(true);
    expect(warnIfSubscriptionEnding(user('2025-01-15'), today)).toBe(false);
    expect(warnIfSubscriptionEnding(user('2025-01-09'), today)).toBe(false);
  });
});
