import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import chatsEn from '../src/renderer/features/chats/i18n/en';
import path from 'node:path';
import { describeInChromium, screens as screensOf, signIn, setTheme, startHarness, storySteps, type Harness } from './support/harness';
import { ARTIFACTS_DIR } from './support/paths';

/**
 * Two users of one company chatting on /chats in real browsers against the server as `npm start` runs
 * it: the admin starts a chat with an agent, the agent hears it (the bell's count, a browser
 * notification), opens it (the count clears), answers, and the admin reads the answer live. Screenshots
 * at 1366 and 400 px, light and dark, go to test-artifacts/e2e/.
 */

const UI_TIMEOUT = 15_000;
const AGENT = { name: 'Carla Agente', email: 'carla@atrium.local', password: 'Agente-123456' };
const TITLE = 'Plantão de sábado';
const HELLO = 'Oi Carla, você cobre o sábado?';
const ANSWER = 'Cubro sim, pode deixar!';

let h: Harness;
/** The agent: the harness's page (it records browser notifications). */
let agent: Page;
/** The admin: a second browser context, its own session. */
let adminContext: BrowserContext;
let admin: Page;
let token = '';
let chatUuid = '';
const { skipIfBroken, broken } = storySteps();


/** Light and dark screenshots of `page` as it is, at 1366 px and at 400 px. */
const screens = (page: Page, name: string, prepare?: (width: number) => Promise<void>) => screensOf(page, `chats-${name}`, { prepare });

describeInChromium('internal chat in Chromium: two users chatting with unread counts', () => {
  beforeAll(async () => {
    h = await startHarness({ name: 'chats' });
    agent = h.browser.page;
    agent.setDefaultTimeout(UI_TIMEOUT);
    adminContext = await h.browser.browser.newContext({ baseURL: h.server.url, viewport: { width: 1366, height: 800 }, locale: 'en-US' });
    admin = await adminContext.newPage();
    admin.setDefaultTimeout(UI_TIMEOUT);
  });

  afterAll(async () => {
    if (broken()) {
      await h?.browser.screenshot('chats-failure-agent').catch(() => undefined);
      await admin?.screenshot({ path: path.join(ARTIFACTS_DIR, 'chats-failure-admin.png') }).catch(() => undefined);
    }
    await adminContext?.close().catch(() => undefined);
    await h?.stop();
  });

  it('logs the admin and a new agent in, in two browsers', async (ctx) => {
    skipIfBroken(ctx);
    token = await signIn(admin, h.server.adminEmail, h.server.adminPassword);
    const created = await h.api.post('/users', { name: AGENT.name, email: AGENT.email, password: AGENT.password, profile: 'user' }, token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await signIn(agent, AGENT.email, AGENT.password);
    await agent.getByTestId('chats-bell').waitFor();
  });

  it('the admin starts a chat with the agent from the new-chat dialog', async (ctx) => {
    skipIfBroken(ctx);
    await admin.goto('/chats');
    await admin.getByRole('heading', { name: chatsEn.title, exact: true }).waitFor();
    await admin.getByTestId('chat-new').click();
    await admin.getByTestId('chat-dialog').waitFor();
    await admin.getByTestId('chat-save').click();
    await admin.getByText(chatsEn.dialog.titleRequired).waitFor();
    await admin.getByText(chatsEn.dialog.usersRequired).waitFor();
    await admin.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await admin.screenshot({ path: path.join(ARTIFACTS_DIR, 'chats-dialog-errors-1366.png'), animations: 'disabled' });
    await admin.getByTestId('chat-title').fill(TITLE);
    await admin.getByTestId('chat-users').getByText(AGENT.name).click();
    const created = admin.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/chats');
    await admin.getByTestId('chat-save').click();
    expect((await created).status()).toBe(201);
    await admin.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
    chatUuid = admin.url().split('/').at(-1)!;
    await expect.poll(async () => admin.getByTestId('chat-title-shown').textContent()).toBe(TITLE);
  });

  it("the admin's message reaches the agent: the bell counts it and the browser notifies", async (ctx) => {
    skipIfBroken(ctx);
    await admin.getByTestId('chat-input').fill(HELLO);
    await admin.getByTestId('chat-input').press('Enter');
    await admin.getByTestId('chat-messages').getByText(HELLO).waitFor();
    // The agent is on another page: the chat bell shows one chat with unread messages.
    const bell = agent.getByTestId('chats-bell');
    await expect.poll(async () => (await bell.textContent())?.trim()).toBe('1');
    await expect
      .poll(async () => (await h.browser.notifications()).filter((n) => n.title === TITLE).map((n) => n.body?.endsWith(`: ${HELLO}`)))
      .toEqual([true]);
    await h.browser.screenshot('chats-agent-bell');
  });

  it('the agent opens the chat from the bell: the message is there and the count clears', async (ctx) => {
    skipIfBroken(ctx);
    await agent.getByTestId('chats-bell').getByRole('button').first().click();
    await agent.getByText(TITLE).first().click();
    await agent.waitForURL((url) => url.pathname === `/chats/${chatUuid}`);
    await agent.getByTestId('chat-messages').getByText(HELLO).waitFor();
    await expect.poll(async () => (await agent.getByTestId('chats-bell').textContent())?.trim() ?? '').toBe('');
    const chats = await h.api.get('/chats', token);
    const me = (chats.body.records[0].users as { user: { name: string }; unreads: number }[]).find((u) => u.user.name === AGENT.name);
    expect(me?.unreads).toBe(0);
  });

  it('the agent answers and the admin reads it live, newest at the bottom', async (ctx) => {
    skipIfBroken(ctx);
    await agent.getByTestId('chat-input').fill(ANSWER);
    await agent.getByTestId('chat-send').click();
    await admin.getByTestId('chat-messages').getByText(ANSWER).waitFor();
    const texts = await admin.getByTestId('chat-messages').locator('[data-testid^="chat-message-"]').allTextContents();
    expect(texts.at(-1)).toContain(ANSWER);
    expect(texts.at(-2)).toContain(HELLO);
    // The admin is looking at the chat: it is read at once.
    await expect
      .poll(async () => {
        const chats = await h.api.get('/chats', token);
        return (chats.body.records[0].users as { userId: number; unreads: number }[]).map((u) => u.unreads);
      })
      .toEqual([0, 0]);
  });

  it('looks right at 1366 and 400 px, light and dark', async (ctx) => {
    skipIfBroken(ctx);
    await screens(admin, 'conversation');
    await screens(admin, 'list', async (width) => {
      if (width === 400) await admin.getByTestId('chat-tab-chats').click();
    });
    await admin.setViewportSize({ width: 1366, height: 800 });
    await admin.getByTestId('conversation-edit').click();
    await admin.getByTestId('chat-dialog').waitFor();
    await admin.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await admin.screenshot({ path: path.join(ARTIFACTS_DIR, 'chats-edit-dialog-1366-light.png'), animations: 'disabled' });
    await admin.keyboard.press('Escape');
    await admin.getByRole('dialog').waitFor({ state: 'detached' });
    // The new-chat dialog at 400 px in the dark theme.
    await setTheme(admin, 'dark');
    await admin.setViewportSize({ width: 400, height: 800 });
    await admin.getByTestId('chat-new').click();
    await admin.getByTestId('chat-save').click();
    await admin.getByTestId('chat-users-error').waitFor();
    await admin.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    const box = (await admin.getByTestId('chat-dialog').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(400);
    await admin.screenshot({ path: path.join(ARTIFACTS_DIR, 'chats-new-dialog-400-dark.png'), animations: 'disabled' });
    await admin.keyboard.press('Escape');
    await setTheme(admin, 'light');
    expect(h.browser.pageErrors).toEqual([]);
  });
});
