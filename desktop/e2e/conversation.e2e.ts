import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Page, Response } from 'playwright-core';
import coreEn from '../src/renderer/i18n/locales/en';
import corePt from '../src/renderer/i18n/locales/pt';
import connectionsEn from '../src/renderer/features/connections/i18n/en';
import connectionsPt from '../src/renderer/features/connections/i18n/pt';
import ticketsEn from '../src/renderer/features/tickets/i18n/en';
import ticketsPt from '../src/renderer/features/tickets/i18n/pt';
import { startHarness, type Harness } from './support/harness';

/**
 * The whole story in a real browser against the server as `npm start` runs it, through the sandbox
 * channel (the simulated phone): log in, connect a phone by its QR code, a customer writes, the pending
 * ticket and a notification show up live, the agent accepts, replies (the customer receives it) and
 * resolves; a second waiting ticket is closed from the list. Then the queue chatbot (queues and an option
 * built on /queues, a customer choosing from the menu) and a scheduled message sent at its time; light and
 * dark themes and a language switch. Screenshots of each step go to test-artifacts/e2e/ (at the repository root).
 *
 * The steps share one browser page and build on each other: after a failed step the rest are skipped.
 */

const CUSTOMER = { from: '5511987654321', name: 'Maria Oliveira', body: 'Olá! Meu pedido ainda não chegou.' };
const OTHER_CUSTOMER = { from: '5521912345678', name: 'João Souza', body: 'Bom dia, vocês abrem no sábado?' };
const REPLY = 'Oi Maria, vou verificar o seu pedido agora mesmo.';
const QUEUES = [
  { name: 'Vendas', color: '#2e7d32', greeting: 'Bem-vindo às Vendas!', order: '1' },
  { name: 'Suporte', color: '#c62828', greeting: 'Suporte técnico: escolha uma opção.', order: '2' },
] as const;
const OPTION = { title: 'Segunda via', message: 'Enviamos a segunda via para o seu e-mail.' };
const BOT_CUSTOMER = { from: '5531998887777', name: 'Carlos Lima' };
const SCHEDULED = 'Lembrete: sua segunda via vence amanhã, {{firstName}}.';
const UI_TIMEOUT = 15_000;

let h: Harness;
let page: Page;
/** The admin's access token from its POST /auth/login (one session per user: see the login step). */
let token = '';
let connectionId = 0;
let ticketId = 0;
let ticketUuid = '';
let firstMessageId: number | string = 0;
const queueIds: Record<string, number> = {};
let botTicketId = 0;
let broken = '';

const byTestId = (id: string) => page.getByTestId(id);
const shot = (name: string) => h.browser.screenshot(name);

/** Waits for the app's own call to the API (start waiting before the click that makes it). */
const apiResponse = (method: string, path: RegExp): Promise<Response> =>
  page.waitForResponse(
    (res) => res.request().method() === method && path.test(new URL(res.url()).pathname),
    { timeout: UI_TIMEOUT },
  );

/** Skips a step after an earlier one failed, and marks the story broken when this one fails. */
const skipIfBroken = (ctx: TestContext) => {
  if (broken) ctx.skip(`an earlier step failed: ${broken}`);
  ctx.onTestFailed(() => {
    broken ||= ctx.task.name;
  });
};

/** A full page load (the app restores the session from the refresh cookie, as after a reload). */
const open = async (path: string) => {
  h.browser.socketFrames.length = 0;
  await page.goto(path);
  await page.waitForLoadState('networkidle');
};

/** Waits until the page has asked its socket for these rooms (socket.io frames like `42["joinNotification"]`). */
const joinedRooms = async (...events: string[]) => {
  await expect
    .poll(() => events.filter((e) => !h.browser.socketFrames.some((f) => f.includes(`"${e}"`))), { timeout: UI_TIMEOUT })
    .toEqual([]);
  // The server handles a join asynchronously; give it a moment.
  await page.waitForTimeout(300);
};

describe('the web app in Chromium: a sandbox conversation from QR code to resolved ticket', () => {
  beforeAll(async () => {
    h = await startHarness();
    page = h.browser.page;
    page.setDefaultTimeout(UI_TIMEOUT);
  });

  afterAll(async () => {
    if (page && broken) await shot('failure').catch(() => undefined);
    await h?.stop();
  });

  it('logs in as admin@atrium.local', async (ctx) => {
    skipIfBroken(ctx);
    await open('/login');
    await expect.poll(() => page.url()).toContain('/login');
    await byTestId('login-email').fill(h.server.adminEmail);
    await byTestId('login-password').fill(h.server.adminPassword);
    await shot('login');
    // The server keeps one session per user, so a second POST /auth/login from the test process would
    // end the browser's. The test process uses the token of the browser's own POST /auth/login instead.
    const login = apiResponse('POST', /^\/auth\/login$/);
    await byTestId('login-submit').click();
    const response = await login;
    expect(response.status()).toBe(200);
    token = ((await response.json()) as { token: string }).token;
    expect(token).toMatch(/^ey/);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await expect.poll(async () => (await h.api.get('/auth/me', token)).status).toBe(200);
    await shot('logged-in');
  });

  it('adds a sandbox connection on /connections', async (ctx) => {
    skipIfBroken(ctx);
    await open('/connections');
    await byTestId('connections-add').click();
    await byTestId('connection-name').fill('E2E phone');
    await byTestId('connection-provider').selectOption('sandbox');
    await shot('connection-form');
    const created = apiResponse('POST', /^\/whatsapp$/);
    await byTestId('connection-save').click();
    const response = await created;
    expect(response.status()).toBe(201);
    connectionId = ((await response.json()) as { id: number }).id;
    await byTestId(`connection-row-${connectionId}`).waitFor();
    await shot('connection-added');
  });

  it('shows the QR code; the simulated phone scans it and the row turns CONNECTED', async (ctx) => {
    skipIfBroken(ctx);
    await byTestId(`connection-qr-${connectionId}`).click();
    await byTestId('qr-modal').waitFor();
    await byTestId('qr-code').waitFor();
    await shot('qr-modal');
    await byTestId('qr-sandbox-scan').click();
    await expect.poll(() => byTestId(`connection-status-${connectionId}`).getAttribute('data-status'), { timeout: UI_TIMEOUT }).toBe('CONNECTED');
    await byTestId('qr-modal').waitFor({ state: 'hidden' });
    await shot('connection-connected');
  });

  it('a customer writes: the pending ticket and a notification show up live on /tickets', async (ctx) => {
    skipIfBroken(ctx);
    // The app notifies about pending tickets only to users who see every ticket (allTicket, spec 01):
    // the admin's own setting, turned on through the API as a person would in /users.
    const me = await h.api.get('/auth/me', token);
    const changed = await h.api.put(`/users/${me.body.id}`, { allTicket: 'enabled' }, token);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    await open('/tickets');
    await byTestId('tickets-tab-open').click();
    await byTestId('tickets-subtab-pending').click();
    // The message must arrive after the page listens: its ticket list and notification rooms.
    await joinedRooms('joinTickets', 'joinNotification');
    expect(await h.browser.notifications()).toEqual([]);
    const sent = await h.api.post(`/sandbox/${connectionId}/messages`, CUSTOMER, token);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);

    const pending = await h.api.get('/tickets?status=pending&showAll=true', token);
    const ticket = (pending.body.tickets as { id: number; contact?: { number?: string } }[]).find(
      (t) => t.contact?.number === CUSTOMER.from,
    );
    expect(ticket, JSON.stringify(pending.body)).toBeDefined();
    ticketId = ticket!.id;

    const item = byTestId(`ticket-item-${ticketId}`);
    await item.waitFor();
    await expect.poll(() => item.textContent()).toContain(CUSTOMER.name);
    await expect
      .poll(async () => (await h.browser.notifications()).map((n) => n.title), { timeout: UI_TIMEOUT })
      .toContain(CUSTOMER.name);
    const shown = (await h.browser.notifications()).find((n) => n.title === CUSTOMER.name)!;
    expect(shown.body).toContain(CUSTOMER.body);
    // The bell counts the ticket with unread messages and lists it.
    await expect.poll(() => byTestId('notifications-bell').textContent()).toBe('1');
    await shot('ticket-pending');
    await byTestId('notifications-bell').locator('button').click();
    await page.locator('.fui-PopoverSurface').getByRole('listitem').filter({ hasText: CUSTOMER.name }).waitFor();
    await shot('notifications-bell');
    await page.keyboard.press('Escape');
  });

  it('accepting the ticket opens the conversation with the customer message', async (ctx) => {
    skipIfBroken(ctx);
    await byTestId(`ticket-accept-${ticketId}`).click();
    await byTestId('conversation').waitFor();
    await expect.poll(() => page.url()).toMatch(/\/tickets\/[0-9a-f-]{36}$/);
    ticketUuid = new URL(page.url()).pathname.split('/').pop()!;
    const listed = await h.api.get(`/messages/${ticketId}`, token);
    const first = (listed.body.messages as { id: number | string; body: string; fromMe: boolean }[]).find(
      (m) => !m.fromMe && m.body === CUSTOMER.body,
    );
    expect(first, JSON.stringify(listed.body)).toBeDefined();
    firstMessageId = first!.id;
    await expect.poll(() => byTestId(`message-${first!.id}`).textContent()).toContain(CUSTOMER.body);
    await shot('conversation');
  });

  it('a reply typed in the conversation reaches the customer (sandbox outbox)', async (ctx) => {
    skipIfBroken(ctx);
    await byTestId('message-input').fill(REPLY);
    await byTestId('message-send').click();
    await expect
      .poll(async () => {
        const out = await h.api.get(`/sandbox/${connectionId}/outbox`, token);
        return (out.body.messages as { to: string; body: string }[]).filter((m) => m.body.includes(REPLY)).length;
      }, { timeout: UI_TIMEOUT })
      .toBeGreaterThan(0);
    const out = await h.api.get(`/sandbox/${connectionId}/outbox`, token);
    const reply = (out.body.messages as { to: string; body: string }[]).find((m) => m.body.includes(REPLY))!;
    expect(reply.to).toContain(CUSTOMER.from);
    const listed = await h.api.get(`/messages/${ticketId}`, token);
    const mine = (listed.body.messages as { id: number | string; body: string; fromMe: boolean }[]).find(
      (m) => m.fromMe && m.body.includes(REPLY),
    );
    expect(mine, JSON.stringify(listed.body)).toBeDefined();
    await expect.poll(() => byTestId(`message-${mine!.id}`).textContent()).toContain(REPLY);
    await expect(byTestId('message-input').inputValue()).resolves.toBe('');
    await shot('reply-sent');
  });

  it('resolving the ticket takes it out of the open list', async (ctx) => {
    skipIfBroken(ctx);
    await byTestId('ticket-resolve').click();
    await expect
      .poll(async () => (await h.api.get(`/tickets/${ticketId}`, token)).body?.status, { timeout: UI_TIMEOUT })
      .toBe('closed');
    await byTestId('tickets-subtab-open').click();
    await byTestId(`ticket-item-${ticketId}`).waitFor({ state: 'detached' });
    await byTestId('tickets-subtab-pending').click();
    await expect(byTestId(`ticket-item-${ticketId}`).count()).resolves.toBe(0);
    await shot('ticket-resolved');
  });

  it('closing a waiting ticket straight from the list (ticket-close)', async (ctx) => {
    skipIfBroken(ctx);
    await byTestId('tickets-tab-open').click();
    await byTestId('tickets-subtab-pending').click();
    const sent = await h.api.post(`/sandbox/${connectionId}/messages`, OTHER_CUSTOMER, token);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const pending = await h.api.get('/tickets?status=pending&showAll=true', token);
    const other = (pending.body.tickets as { id: number; contact?: { number?: string } }[]).find(
      (t) => t.contact?.number === OTHER_CUSTOMER.from,
    );
    expect(other, JSON.stringify(pending.body)).toBeDefined();
    await byTestId(`ticket-item-${other!.id}`).waitFor();
    await byTestId(`ticket-close-${other!.id}`).click();
    await byTestId(`ticket-item-${other!.id}`).waitFor({ state: 'detached' });
    expect((await h.api.get(`/tickets/${other!.id}`, token)).body?.status).toBe('closed');
    await shot('waiting-ticket-closed');
  });

  it('builds a two-queue menu on /queues, with an option under Suporte', async (ctx) => {
    skipIfBroken(ctx);
    await open('/queues');
    for (const queue of QUEUES) {
      await byTestId('queues-add').click();
      await byTestId('queue-modal').waitFor();
      await byTestId('queue-name').fill(queue.name);
      await byTestId('queue-color').fill(queue.color);
      await byTestId('queue-greeting').fill(queue.greeting);
      // The menu lists queues by this order (by name without it).
      await byTestId('queue-order').fill(queue.order);
      const created = apiResponse('POST', /^\/queue$/);
      await byTestId('queue-save').click();
      const response = await created;
      expect(response.status()).toBe(201);
      queueIds[queue.name] = ((await response.json()) as { id: number }).id;
      await byTestId(`queue-row-${queueIds[queue.name]}`).waitFor();
    }
    await byTestId(`queue-edit-${queueIds.Suporte}`).click();
    await byTestId('queue-tab-options').click();
    await byTestId('queue-option-add').click();
    await byTestId('queue-option-title').fill(OPTION.title);
    await byTestId('queue-option-message').fill(OPTION.message);
    const saved = apiResponse('POST', /^\/queue-options$/);
    await byTestId('queue-option-save').click();
    expect((await saved).status()).toBe(201);
    await expect.poll(() => byTestId('queue-options-level-top').textContent()).toContain(OPTION.title);
    await shot('queue-options');
    await byTestId('queue-cancel').click();
    await byTestId('queue-modal').waitFor({ state: 'hidden' });
    await shot('queues');
  });

  it('a customer picks Suporte, then its option, from the chatbot menu (sandbox outbox)', async (ctx) => {
    skipIfBroken(ctx);
    // The connection offers both queues with a greeting, as an admin sets it in the connection modal.
    const linked = await h.api.put(
      `/whatsapp/${connectionId}`,
      { queueIds: [queueIds.Vendas, queueIds.Suporte], greetingMessage: 'Olá {{firstName}}! Escolha um setor:' },
      token,
    );
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    const outboxTo = async (number: string) =>
      ((await h.api.get(`/sandbox/${connectionId}/outbox`, token)).body.messages as { to: string; body: string }[])
        .filter((m) => m.to.includes(number))
        .map((m) => m.body);
    const says = async (body: string) => {
      const sent = await h.api.post(`/sandbox/${connectionId}/messages`, { ...BOT_CUSTOMER, body }, token);
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    };

    await says('Oi, preciso de ajuda');
    await expect.poll(() => outboxTo(BOT_CUSTOMER.from), { timeout: UI_TIMEOUT }).toHaveLength(1);
    const [menu] = await outboxTo(BOT_CUSTOMER.from);
    expect(menu).toContain('Olá Carlos! Escolha um setor:');
    expect(menu).toContain('*[ 1 ]* - Vendas');
    expect(menu).toContain('*[ 2 ]* - Suporte');

    await says('2');
    await expect.poll(async () => (await outboxTo(BOT_CUSTOMER.from)).join('\n'), { timeout: UI_TIMEOUT }).toContain(OPTION.title);
    await says('1');
    await expect.poll(async () => (await outboxTo(BOT_CUSTOMER.from)).join('\n'), { timeout: UI_TIMEOUT }).toContain(OPTION.message);

    const pending = await h.api.get('/tickets?status=pending&showAll=true', token);
    const ticket = (pending.body.tickets as { id: number; queueId: number | null; contact?: { number?: string } }[]).find(
      (t) => t.contact?.number === BOT_CUSTOMER.from,
    );
    expect(ticket?.queueId).toBe(queueIds.Suporte);
    botTicketId = ticket!.id;
    // The agent's waiting list shows it under its queue, live.
    await open('/tickets');
    await byTestId('tickets-tab-open').click();
    await byTestId('tickets-subtab-pending').click();
    const item = byTestId(`ticket-item-${botTicketId}`);
    await item.waitFor();
    await expect.poll(() => item.textContent()).toContain('Suporte');
    await shot('chatbot-ticket');
  });

  it('schedules a message for that customer on /schedules; the phone receives it at its time', async (ctx) => {
    skipIfBroken(ctx);
    const ticket = await h.api.get(`/tickets/${botTicketId}`, token);
    const contactId = ticket.body.contactId as number;
    // ?contactId= opens the add dialog for that contact, as the conversation's schedule action does.
    await open(`/schedules?contactId=${contactId}`);
    await byTestId('schedule-modal').waitFor();
    await expect.poll(() => byTestId('schedule-contact').inputValue()).toContain(BOT_CUSTOMER.name);
    await byTestId('schedule-body').fill(SCHEDULED);
    // Due now (this minute, in the browser's clock): the job sends it within seconds.
    const now = await page.evaluate(() => {
      const d = new Date();
      const two = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
    });
    await byTestId('schedule-send-at').fill(now);
    await shot('schedule-modal');
    const created = apiResponse('POST', /^\/schedules$/);
    await byTestId('schedule-save').click();
    const response = await created;
    expect(response.status()).toBe(201);
    const scheduleId = ((await response.json()) as { id: number }).id;
    await byTestId(`schedule-event-${scheduleId}`).waitFor();

    await expect
      .poll(async () => {
        const out = await h.api.get(`/sandbox/${connectionId}/outbox`, token);
        return (out.body.messages as { to: string; body: string }[]).some(
          (m) => m.to.includes(BOT_CUSTOMER.from) && m.body.includes('Lembrete: sua segunda via vence amanhã, Carlos.'),
        );
      }, { timeout: 30_000 })
      .toBe(true);
    await expect.poll(async () => (await h.api.get(`/schedules/${scheduleId}`, token)).body.status, { timeout: UI_TIMEOUT }).toBe('ENVIADA');
    await shot('schedule-sent');
  });

  it('light and dark themes of /tickets and /connections', async (ctx) => {
    skipIfBroken(ctx);
    const background = () => page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="top-bar"]')!).backgroundColor);
    const luminance = (rgb: string) => {
      const [r, g, b] = (rgb.match(/\d+/g) ?? ['0', '0', '0']).map(Number);
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    for (const [name, path] of [
      ['tickets', `/tickets/${ticketUuid}`],
      ['connections', '/connections'],
    ]) {
      await open(path);
      await byTestId('top-bar').waitFor();
      if (name === 'tickets') await byTestId(`message-${firstMessageId}`).waitFor();
      if ((await page.evaluate(() => localStorage.getItem('preferredTheme'))) === 'dark') await byTestId('theme-toggle').click();
      await expect.poll(async () => luminance(await background())).toBeGreaterThan(128);
      await shot(`${name}-light`);
      await byTestId('theme-toggle').click();
      await expect.poll(async () => luminance(await background())).toBeLessThan(128);
      expect(await page.evaluate(() => localStorage.getItem('preferredTheme'))).toBe('dark');
      await shot(`${name}-dark`);
      await byTestId('theme-toggle').click();
      await expect.poll(async () => luminance(await background())).toBeGreaterThan(128);
    }
  });

  it('switching the language to Português changes the UI text', async (ctx) => {
    skipIfBroken(ctx);
    await open('/connections');
    const heading = page.getByRole('heading', { name: connectionsEn.title, exact: true });
    await heading.waitFor();
    await page.getByRole('button', { name: coreEn.layout.language, exact: true }).click();
    await page.getByRole('menuitemradio', { name: coreEn.languages.pt }).click();
    await page.getByRole('heading', { name: connectionsPt.title, exact: true }).waitFor();
    await page.getByRole('button', { name: corePt.layout.language, exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('pt');
    await shot('connections-pt');
    // It survives a reload and reaches other screens.
    await open('/tickets');
    await expect.poll(() => byTestId('tickets-subtab-pending').textContent()).toContain(ticketsPt.subtabs.pending);
    expect(await byTestId('tickets-subtab-pending').textContent()).not.toContain(ticketsEn.subtabs.pending);
    expect(await byTestId('tickets-tab-open').textContent()).toContain(ticketsPt.tabs.open);
    await shot('tickets-pt');
  });

  it('the page threw no uncaught error along the way', () => {
    expect(h.browser.pageErrors).toEqual([]);
  });
});
