import type { Page } from 'playwright-core';

/**
 * Logs in through the login screen and answers the session's token. The server keeps one session per user,
 * so the test process uses the browser's own token: a login of its own would end the browser's session.
 */
export const signIn = async (page: Page, email: string, password: string): Promise<string> => {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  const response = page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/auth/login');
  await page.getByTestId('login-submit').click();
  const answer = await response;
  if (answer.status() !== 200) throw new Error(`login of ${email} answered ${answer.status()}: ${await answer.text()}`);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  return ((await answer.json()) as { token: string }).token;
};
