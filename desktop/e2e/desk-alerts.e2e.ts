import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import path from 'node:path';
import notificationsEn from '../src/renderer/features/notifications/i18n/en';
import ticketsEn from '../src/renderer/features/tickets/i18n/en';
import { describeInChromium, signIn, setTheme, startHarness, storySteps, type Harness } from './support/harness';
import { ARTIFACTS_DIR } from './support/paths';

/**
 * A fresh company's first hour, as a support team lead tries it in Chromium (issue 24): the admin connects
 * a number without queues and adds an agent, whose inbox says why it is empty and what to do; then the
 * connection gets queues with a chatbot, a customer goes through the menu to a person, and the agent's
 * bell, Waiting badge, unread badge, tab title and desktop notification all tell of it — once.
 */

const UI_TIMEOUT = 15_000;
const AGENT = { name: 'Dora Agente', email: 'dora@atrium.local', password: 'Agente-123456' };
const FIRST = { from: '5511970001111', name: 'Rita Primeira', body: 'Olá, alguém aí?' };
const BOT_CUSTOMER = { from: '5511970002222', name: 'Paulo Menu' };

let h: Harness;
/** The agent: the harness's page (it records browser notifications). */
let agent: Page;
let adminContext: BrowserContext;
let admin: Page;
let token = '';
let agentId = 0;
let connectionId = 0;
let vendasId = 0;
let handedOver = 0;
const REPLY = 'Olá Paulo, já te passo o orçamento.';
const { skipIfBroken, broken } = storySteps();


const says = async (message: { from: string; name?: string; body: string }) => {
  const res = await h.api.post(`/sandbox/${connectionId}/messages`, message, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
};

const shot = async (page: Page, name: string) => {
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await page.mouse.move(683, 790);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, `desk-alerts-${name}-${theme}.png`), animations: 'disabled' });
  }
  await setTheme(page, 'light');
};

const ticketOf = async (number: string) => {
  const res = await h.api.get(`/tickets?showAll=true&searchParam=${number}`, token);
  return (res.body.tickets as { id: number; uuid: string; contact: { number: string } | null; queueId: number | null; chatbot: boolean; unreadMessages: number }[]).find(
    (t) => t.contact?.number === number,
  );
};

describeInChromium('a fresh company in Chromium: empty inboxes explained, the chatbot handoff alerts', () => {
  beforeAll(async () => {
    h = await startHarness({ name: 'desk-alerts' });
    agent = h.browser.page;
    agent.setDefaultTimeout(UI_TIMEOUT);
    adminContext = await h.browser.browser.newContext({ baseURL: h.server.url, viewport: { width: 1366, height: 800 }, locale: 'en-US' });
    admin = await adminContext.newPage();
    admin.setDefaultTimeout(UI_TIMEOUT);
  });

  afterAll(async () => {
    if (broken()) {
      await h?.browser.screenshot('desk-alerts-failure-agent').catch(() => undefined);
      await admin?.screenshot({ path: path.join(ARTIFACTS_DIR, 'desk-alerts-failure-admin.png') }).catch(() => undefined);
    }
    await adminContext?.close().catch(() => undefined);
    await h?.stop();
  });

  it("the admin's empty Waiting list says where agents' conversations come from, with the links to fix it", async (ctx) => {
    skipIfBroken(ctx);
    token = await signIn(admin, h.server.adminEmail, h.server.adminPassword);
    await admin.goto('/tickets');
    await admin.getByTestId('tickets-subtab-pending').click();
    const empty = admin.getByTestId('inbox-empty');
    await empty.getByText(ticketsEn.inboxEmpty.admin).waitFor();
    await shot(admin, 'admin-empty');
    await empty.getByRole('link', { name: ticketsEn.inboxEmpty.connections }).click();
    await admin.waitForURL((url) => url.pathname === '/connections');
  });

  it('a number connected without queues and a new agent: the agent is told to ask the admin', async (ctx) => {
    skipIfBroken(ctx);
    const created = await h.api.post('/whatsapp', { name: 'Loja', provider: 'sandbox' }, token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    connectionId = created.body.id;
    expect((await h.api.post(`/sandbox/${connectionId}/scan`, {}, token)).status).toBe(200);
    const user = await h.api.post('/users', { name: AGENT.name, email: AGENT.email, password: AGENT.password, profile: 'user' }, token);
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    agentId = user.body.id;
    await says(FIRST);

    await signIn(agent, AGENT.email, AGENT.password);
    await agent.goto('/tickets');
    const empty = agent.getByTestId('inbox-empty');
    await empty.getByText(ticketsEn.inboxEmpty.noQueue).waitFor();
    await empty.getByText(ticketsEn.inboxEmpty.askAdmin).waitFor();
    await agent.getByTestId('tickets-subtab-pending').click();
    await empty.getByText(ticketsEn.inboxEmpty.askAdmin).waitFor();
    // The admin does see the waiting conversation the agent cannot.
    const first = await ticketOf(FIRST.from);
    expect(first?.queueId).toBeNull();
    await admin.goto('/tickets');
    await admin.getByTestId('tickets-subtab-pending').click();
    await admin.getByTestId(`ticket-item-${first!.id}`).waitFor();
    await shot(agent, 'agent-no-queue');
  });

  it("in a queue, the agent's empty inbox names it and what stays hidden", async (ctx) => {
    skipIfBroken(ctx);
    const vendas = await h.api.post('/queue', { name: 'Vendas', color: '#2e7d32', greetingMessage: 'Bem-vindo às Vendas!', orderQueue: 1 }, token);
    expect(vendas.status, JSON.stringify(vendas.body)).toBe(201);
    vendasId = vendas.body.id;
    const suporte = await h.api.post('/queue', { name: 'Suporte', color: '#c62828', greetingMessage: 'Suporte aqui.', orderQueue: 2 }, token);
    expect(suporte.status).toBe(201);
    const option = await h.api.post('/queue-options', { queueId: vendasId, title: 'Falar com atendente', message: 'Aguarde, já vamos te atender' }, token);
    expect(option.status, JSON.stringify(option.body)).toBe(201);
    const wa = await h.api.put(`/whatsapp/${connectionId}`, { queueIds: [vendasId, suporte.body.id], greetingMessage: 'Olá! Escolha um setor:' }, token);
    expect(wa.status, JSON.stringify(wa.body)).toBe(200);
    expect((await h.api.put(`/users/${agentId}`, { queueIds: [vendasId] }, token)).status).toBe(200);

    await agent.reload();
    await agent.getByTestId('tickets-subtab-pending').click();
    const empty = agent.getByTestId('inbox-empty');
    await empty.getByText(ticketsEn.inboxEmpty.queueLess.replace('{{queues}}', 'Vendas')).waitFor();
    await empty.getByText(ticketsEn.inboxEmpty.askAdmin).waitFor();
  });

  it("a customer handed over by the chatbot: the agent's bell, badges, title and one notification agree", async (ctx) => {
    skipIfBroken(ctx);
    const notifiedBefore = (await h.browser.notifications()).length;
    // The greeting's menu, the queue's menu, then the option that hands over to a person.
    await says({ ...BOT_CUSTOMER, body: 'oi' });
    await says({ ...BOT_CUSTOMER, body: '1' });
    await expect.poll(async () => (await ticketOf(BOT_CUSTOMER.from))?.chatbot).toBe(true);
    await says({ ...BOT_CUSTOMER, body: '1' });
    await expect.poll(async () => (await ticketOf(BOT_CUSTOMER.from))?.chatbot).toBe(false);
    const ticket = (await ticketOf(BOT_CUSTOMER.from))!;
    expect(ticket).toMatchObject({ queueId: vendasId, unreadMessages: 3 });

    // The handoff is announced once, with the customer's name.
    await expect.poll(async () => (await h.browser.notifications()).slice(notifiedBefore).map((n) => n.title)).toEqual([BOT_CUSTOMER.name]);
    await agent.getByTestId(`ticket-item-${ticket.id}`).waitFor();
    await expect.poll(() => agent.getByTestId(`ticket-unread-${ticket.id}`).textContent()).toBe('3');
    await expect.poll(() => agent.getByTestId('tickets-subtab-pending').textContent()).toBe(`${ticketsEn.subtabs.pending}1`);
    await expect.poll(() => agent.getByTestId('notifications-bell').textContent()).toBe('1');
    await expect.poll(() => agent.title()).toMatch(/^\(1\) /);
    await shot(agent, 'agent-handoff');

    // The customer's next message is a notification of its own; the handoff was not announced twice.
    await says({ ...BOT_CUSTOMER, body: 'Quero um orçamento' });
    await expect
      .poll(async () => (await h.browser.notifications()).slice(notifiedBefore).map((n) => [n.title, n.body]))
      .toEqual([
        [BOT_CUSTOMER.name, notificationsEn.handoff.replace('{{queue}}', 'Vendas')],
        [BOT_CUSTOMER.name, 'Quero um orçamento'],
      ]);
    await expect.poll(() => agent.getByTestId(`ticket-unread-${ticket.id}`).textContent()).toBe('4');
    handedOver = ticket.id;
  });

  it("the agent's reply moves the row's preview and time together: the time is the reply's (issue 24 item 7)", async (ctx) => {
    skipIfBroken(ctx);
    await agent.getByTestId(`ticket-accept-${handedOver}`).click();
    await agent.getByTestId('conversation').waitFor();
    await expect.poll(() => agent.getByTestId('tickets-subtab-open').getAttribute('aria-selected')).toBe('true');
    await agent.getByTestId(`ticket-item-${handedOver}`).waitFor();
    const sent = agent.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === `/messages/${handedOver}`);
    await agent.getByTestId('message-input').fill(REPLY);
    await agent.getByTestId('message-send').click();
    const reply = (await (await sent).json()) as { createdAt: string };
    // Signed with the agent's name (the default).
    await expect.poll(() => agent.getByTestId(`ticket-last-${handedOver}`).textContent()).toBe(`${AGENT.name}: ${REPLY}`);
    // The row shows the instant of the message it previews, from the same event as the preview.
    await expect.poll(() => agent.getByTestId(`ticket-time-${handedOver}`).getAttribute('data-at')).toBe(reply.createdAt);
    expect(await agent.getByTestId(`ticket-unread-${handedOver}`).count()).toBe(0);
  });
});
