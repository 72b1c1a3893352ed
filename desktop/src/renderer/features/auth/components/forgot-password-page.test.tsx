import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { collectToasts, fakeServer, renderApp } from '../../../test/render';

type Handler = Parameters<typeof fakeServer>[0];

/** The reset calls of a server that sends e-mail, with `reset` answering POST /resetpasswords. */
const resetServer = (options: { emailEnabled?: boolean; reset?: Handler } = {}) =>
  fakeServer((call) => {
    const emailEnabled = options.emailEnabled ?? true;
    if (call.method === 'GET' && call.url === '/forgetpassword') return { data: { emailEnabled } };
    if (call.method === 'POST' && call.url.startsWith('/forgetpassword/')) return { data: { message: 'ok', emailEnabled } };
    if (call.method === 'POST' && call.url === '/resetpasswords') return options.reset?.(call) ?? { data: { message: 'Password updated' } };
    return undefined;
  });

const open = async () => {
  renderApp('/forgetpsw');
  await waitFor(() => expect((screen.getByTestId('forgot-send') as HTMLButtonElement).disabled).toBe(false));
  return userEvent.setup();
};

describe('forgot password page', () => {
  it('sends a code to the address, then takes code and new password, and goes to /login', async () => {
    const calls = resetServer();
    const toasts = collectToasts();
    const user = await open();
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/signup');
    await user.type(screen.getByTestId('forgot-email'), 'Ana@Example.com');
    await user.click(screen.getByTestId('forgot-send'));
    await screen.findByTestId('forgot-sent');
    expect(calls.find((c) => c.method === 'POST')?.url).toBe('/forgetpassword/ana%40example.com');
    expect(toasts.map((t) => t.intent)).toContain('success');

    await user.type(screen.getByTestId('forgot-code'), '123456');
    await user.type(screen.getByTestId('forgot-new-password'), 'New-Passw0rd');
    await user.type(screen.getByTestId('forgot-confirm-password'), 'New-Passw0rd');
    await user.click(screen.getByTestId('forgot-submit'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    const reset = calls.find((c) => c.url === '/resetpasswords')!;
    expect(reset.data).toEqual({ email: 'ana@example.com', token: '123456', newPassword: 'New-Passw0rd' });
    // The password travels in the body, never in a URL.
    expect(calls.every((c) => !c.url.includes('Passw0rd'))).toBe(true);
  });

  it("checks spec 02's password rule, the confirmation and the code before calling the server", async () => {
    const calls = resetServer();
    const user = await open();
    await user.type(screen.getByTestId('forgot-email'), 'ana@example.com');
    await user.click(screen.getByTestId('forgot-send'));
    await screen.findByTestId('forgot-sent');
    await user.type(screen.getByTestId('forgot-code'), '12');
    await user.type(screen.getByTestId('forgot-new-password'), 'alllowercase1');
    await user.type(screen.getByTestId('forgot-confirm-password'), 'different');
    await user.click(screen.getByTestId('forgot-submit'));
    expect(await screen.findByText('Enter the 6 digits of the code.')).toBeTruthy();
    expect(screen.getAllByText('At least 8 characters, with a digit, a lowercase and an uppercase letter.').length).toBeGreaterThan(0);
    expect(screen.getByText('The passwords do not match.')).toBeTruthy();
    expect(calls.some((c) => c.url === '/resetpasswords')).toBe(false);
  });

  it('shows and hides the passwords', async () => {
    resetServer();
    const user = await open();
    await user.type(screen.getByTestId('forgot-email'), 'ana@example.com');
    await user.click(screen.getByTestId('forgot-send'));
    const input = (await screen.findByTestId('forgot-new-password')) as HTMLInputElement;
    expect(input.type).toBe('password');
    await user.click(screen.getByTestId('forgot-toggle-newPassword'));
    expect(input.type).toBe('text');
    expect((screen.getByTestId('forgot-confirm-password') as HTMLInputElement).type).toBe('password');
  });

  it("shows the server's refusal of a wrong or expired code and stays", async () => {
    resetServer({ reset: () => ({ status: 400, data: { error: 'ERR_INVALID_RESET_CODE' } }) });
    const toasts = collectToasts();
    const user = await open();
    await user.type(screen.getByTestId('forgot-email'), 'ana@example.com');
    await user.click(screen.getByTestId('forgot-send'));
    await user.type(await screen.findByTestId('forgot-code'), '654321');
    await user.type(screen.getByTestId('forgot-new-password'), 'New-Passw0rd');
    await user.type(screen.getByTestId('forgot-confirm-password'), 'New-Passw0rd');
    await user.click(screen.getByTestId('forgot-submit'));
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error' && t.message.includes('wrong or has expired'))).toBe(true));
    expect(screen.getByTestId('location').textContent).toBe('/forgetpsw');
  });

  it('says reset e-mail is not set up on this server, and who can help', async () => {
    resetServer({ emailEnabled: false });
    renderApp('/forgetpsw');
    expect((await screen.findByTestId('forgot-not-configured')).textContent).toContain('not set up on this server yet');
    expect(screen.getByRole('link', { name: 'Back to login' }).getAttribute('href')).toBe('/login');
  });
});
