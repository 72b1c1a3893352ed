import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInChromium, screens as screensOf, signIn, startHarness, type Harness } from './support/harness';
import { resetCodeOf, startMailServer } from './support/mail';

/**
 * A password reset in a real browser against the server as `npm start` runs it, with its reset e-mail going
 * to a real SMTP server started here: from the login screen's link, the code read from the received
 * message, a new password, and a login with it. Screenshots at 1366 and 400 px, light and dark.
 */

const UI_TIMEOUT = 15_000;
const NEW_PASSWORD = 'Novo-Segredo-2026';

let h: Harness;
let page: Page;
let mail: Awaited<ReturnType<typeof startMailServer>>;
let token = '';

const byTestId = (id: string) => page.getByTestId(id);

/** The current page at 1366 and 400 px, light and dark (public pages follow the system's colour scheme). */
const screens = async (name: string) => {
  const viewport = page.viewportSize();
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
    for (const width of [1366, 400]) {
      await page.setViewportSize({ width, height: 800 });
      await h.browser.screenshot(`${name}-${width}-${theme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (viewport) await page.setViewportSize(viewport);
};

describeInChromium('the web app in Chromium: a password reset by e-mail code, from the login screen to a new login', () => {
  beforeAll(async () => {
    mail = await startMailServer();
    h = await startHarness({ name: 'password-reset', env: mail.env });
    page = h.browser.page;
    page.setDefaultTimeout(UI_TIMEOUT);
  });

  afterAll(async () => {
    await h?.stop();
    await mail?.close();
  });

  it('asks for a code from the login screen, sets a new password with it, and logs in with that', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: /forgot your password|esqueceu a senha|olvidó su contraseña/i }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/forgetpsw');
    await byTestId('forgot-email').fill(h.server.adminEmail);
    await screens('forgot-step1');

    const sent = page.waitForResponse((res) => res.request().method() === 'POST' && res.url().includes('/forgetpassword/'));
    await byTestId('forgot-send').click();
    expect((await sent).status()).toBe(200);
    await byTestId('forgot-code').waitFor();
    await expect.poll(() => mail.received.filter((m) => m.to.includes(h.server.adminEmail)).length, { timeout: UI_TIMEOUT }).toBe(1);
    const code = resetCodeOf(mail.received[0].raw);
    expect(code).toMatch(/^\d{6}$/);

    // A wrong code is refused and the page stays.
    const wrong = code === '000000' ? '000001' : '000000';
    await byTestId('forgot-code').fill(wrong);
    await byTestId('forgot-new-password').fill(NEW_PASSWORD);
    await byTestId('forgot-confirm-password').fill(NEW_PASSWORD);
    const refused = page.waitForResponse((res) => res.url().endsWith('/resetpasswords'));
    await byTestId('forgot-submit').click();
    expect((await refused).status()).toBe(400);
    expect(new URL(page.url()).pathname).toBe('/forgetpsw');

    await byTestId('forgot-code').fill(code!);
    await byTestId('forgot-toggle-newPassword').click();
    await screens('forgot-step2');
    const reset = page.waitForResponse((res) => res.url().endsWith('/resetpasswords'));
    await byTestId('forgot-submit').click();
    const answer = await reset;
    expect(answer.status()).toBe(200);
    // The new password went in the body, not in the address.
    expect(answer.url()).not.toContain(NEW_PASSWORD);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');

    await byTestId('login-email').fill(h.server.adminEmail);
    await byTestId('login-password').fill(h.server.adminPassword);
    const old = page.waitForResponse((res) => res.url().endsWith('/auth/login'));
    await byTestId('login-submit').click();
    expect((await old).status()).toBe(401);

    await byTestId('login-password').fill(NEW_PASSWORD);
    const login = page.waitForResponse((res) => res.url().endsWith('/auth/login'));
    await byTestId('login-submit').click();
    expect((await login).status()).toBe(200);
    token = ((await (await login).json()) as { token: string }).token;
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await h.browser.screenshot('logged-in-after-reset');

    // Neither the code nor the new password is in the server's log.
    expect(h.server.output()).not.toContain(NEW_PASSWORD);
    expect(h.server.output()).not.toContain(code!);
  });

  it('with two sessions allowed, a login in another browser keeps this one; the profile lists both and ends the other', async () => {
    expect((await h.api.put('/settings/sessionsPerUser', { value: '2' }, token)).status).toBe(200);
    const other = await h.browser.newContext();
    try {
      await signIn(other.page, h.server.adminEmail, NEW_PASSWORD);
      await page.reload();
      const sessions = byTestId('profile-sessions');
      const openProfile = async () => {
        await byTestId('user-menu').click();
        await page.getByRole('menuitem', { name: 'Profile' }).click();
        await expect.poll(() => sessions.locator('li').count()).toBe(2);
      };
      await screensOf(page, 'profile-sessions', { shoot: h.browser.screenshot, openDialog: openProfile });
      await openProfile();
      expect(await sessions.textContent()).toContain('This device');
      // The other browser's session ends from here: its next request is refused and it is back at the login.
      await sessions.getByRole('button', { name: /^End/ }).click();
      await expect.poll(() => sessions.locator('li').count()).toBe(1);
      await other.page.reload();
      await other.page.waitForURL((url) => url.pathname.startsWith('/login'));
    } finally {
      await other.context.close();
    }
  });
});
