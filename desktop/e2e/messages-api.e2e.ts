import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInChromium, screens as screensOf, signIn, startHarness, storySteps, type Harness } from './support/harness';

/**
 * The Messages API screen in Chromium against the server as `npm start` runs it: the documentation read
 * from GET /api/openapi.json, the text form sending through the sandbox phone with a connection token and
 * an Idempotency-Key (the retry is replayed, the phone gets the message once), and the connection dialog
 * generating a new token. Screenshots at 1366 and 400 px, light and dark; nothing wider than the window.
 */

const UI_TIMEOUT = 15_000;
let h: Harness;
let page: Page;
let token = '';
let line = { id: 0, token: '' };
const { skipIfBroken, broken } = storySteps();

const byTestId = (id: string) => page.getByTestId(id);
/** expect.poll with the UI's patience (its default is one second). */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: UI_TIMEOUT });

/** Elements of the page wider than the window lets them be (a horizontal scroll at 400 px). */
const overflowing = () =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return Array.from(document.querySelectorAll('[data-testid^="api-"]'))
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .map((el) => el.getAttribute('data-testid'));
  });

/** Screenshots at 1366 and 400 px, light and dark, with nothing wider than the window and `focus` (a test id) in view. */
const screens = (name: string, focus?: string) =>
  screensOf(page, name, {
    shoot: h.browser.screenshot,
    prepare: async () => {
      await poll(overflowing).toEqual([]);
      if (focus) await byTestId(focus).scrollIntoViewIfNeeded();
    },
  });

const phoneMessages = async () =>
  ((await h.api.get(`/sandbox/${line.id}/outbox`, token)).body.messages as { id: string; to: string; body: string }[]) ?? [];

describeInChromium('the Messages API screen in Chromium', () => {
  beforeAll(async () => {
    h = await startHarness({ name: 'messages-api' });
    page = h.browser.page;
    page.setDefaultTimeout(UI_TIMEOUT);
    await page.setViewportSize({ width: 1366, height: 800 });
  });

  afterAll(async () => {
    if (page && broken()) await h.browser.screenshot('failure').catch(() => undefined);
    await h?.stop();
  });

  it('logs in and connects a sandbox phone, whose creation answers its API token once', async (ctx) => {
    skipIfBroken(ctx);
    token = await signIn(page, h.server.adminEmail, h.server.adminPassword);
    const created = await h.api.post('/whatsapp', { name: 'Loja', provider: 'sandbox' }, token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await h.api.post(`/sandbox/${created.body.id}/scan`, {}, token)).status).toBe(200);
    line = { id: created.body.id, token: created.body.token };
    expect(line.token).toEqual(expect.any(String));
  });

  it('documents the API from its OpenAPI document, readable at 1366 and 400 px, light and dark', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/messages-api');
    await byTestId('api-op-sendMessage').waitFor();
    await byTestId('api-op-getMessageStatus').waitFor();
    expect(await byTestId('api-op-sendMessage-body-json').locator('[data-field="number"]').textContent()).toContain('required');
    expect(await byTestId('api-endpoint').textContent()).toContain(`${h.server.url}/api/messages/send`);
    await screens('docs');
  });

  it('sends a text through the form with the connection token; the same key again is replayed, the phone gets it once', async (ctx) => {
    skipIfBroken(ctx);
    await byTestId('api-test-token').fill(line.token);
    await byTestId('api-test-number').fill('5511987650001');
    await byTestId('api-test-body').fill('Seu pedido saiu para entrega, {{firstName}}.');
    await byTestId('api-test-key').fill('pedido-e2e-1');
    const first = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/messages/send');
    await byTestId('api-test-send').click();
    expect((await first).status()).toBe(200);
    await poll(() => byTestId('api-test-reply').getAttribute('data-status')).toBe('200');
    await poll(async () => (await phoneMessages()).filter((m) => m.to === '5511987650001').length).toBe(1);

    const again = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/messages/send');
    await byTestId('api-test-send').click();
    expect((await again).headers()['idempotent-replayed']).toBe('true');
    await poll(() => byTestId('api-test-reply').textContent()).toContain('nothing was sent again');
    await byTestId('api-test-status').click();
    await poll(() => byTestId('api-test-status-reply').getAttribute('data-status')).toBe('200');
    await screens('sent', 'api-test-status-reply');
    expect((await phoneMessages()).filter((m) => m.to === '5511987650001').map((m) => m.body)).toEqual(['Seu pedido saiu para entrega, 5511987650001.']);
  });

  it('a wrong token is answered in words, and the user stays signed in', async (ctx) => {
    skipIfBroken(ctx);
    await byTestId('api-test-token').fill('not-a-token');
    await byTestId('api-test-key').fill('');
    await byTestId('api-test-send').click();
    await poll(() => byTestId('api-test-reply').getAttribute('data-status')).toBe('401');
    expect(await byTestId('api-test-reply').textContent()).toContain('This API token is not valid');
    expect(new URL(page.url()).pathname).toBe('/messages-api');
  });

  it('the connection dialog generates a new token after a confirmation and shows it once; the old one stops working', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/connections');
    await byTestId(`connection-edit-${line.id}`).click();
    await poll(() => byTestId('connection-token-state').textContent()).toBe('A token is set.');
    await byTestId('connection-token-generate').click();
    await page.getByRole('dialog', { name: 'Generate a new API token?' }).getByRole('button', { name: 'Generate a new token' }).click();
    const value = await byTestId('connection-token-value').inputValue();
    expect(value.length).toBeGreaterThanOrEqual(24);
    expect(value).not.toBe(line.token);
    await byTestId('connection-token-value').scrollIntoViewIfNeeded();
    await h.browser.screenshot('token-1366-light');
    // With the connection's token, not a user's (h.api sends it as the bearer).
    expect((await h.api.post('/api/messages/send', { number: '5511987650002', body: 'Oi' }, line.token)).status).toBe(401);
    expect((await h.api.post('/api/messages/send', { number: '5511987650002', body: 'Oi' }, value)).status).toBe(200);
  });
});
