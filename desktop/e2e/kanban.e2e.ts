import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import path from 'node:path';
import { describeInChromium, startHarness, storySteps, type Harness } from './support/harness';
import { roomsJoined } from './support/browser';
import { ARTIFACTS_DIR } from './support/paths';

/**
 * The kanban board in a real browser against the server as `npm start` runs it: an admin and an agent of
 * the same queue have /kanban open; the admin drags a card with the mouse and the agent's board shows it in
 * its new lane at once; the agent moves one with the keyboard and the admin sees it; the admin drags a lane
 * to reorder the board. Screenshots at 1366 and 400 px, light and dark, go to test-artifacts/e2e/.
 */

const UI_TIMEOUT = 15_000;
const AGENT = { name: 'Bruno Kanban', email: 'bruno.kanban@atrium.local', password: 'Agente-123456' };
const LANES = ['Novo', 'Negociando', 'Fechando'];
const CUSTOMERS = [
  { from: '5511911110001', name: 'Maria Oliveira', body: 'Quero saber o preço do plano anual.' },
  { from: '5511911110002', name: 'João Souza', body: 'Vocês entregam no sábado?' },
  { from: '5511911110003', name: 'Carla Dias', body: 'Meu boleto venceu, podem reenviar?' },
  { from: '5511911110004', name: 'Diego Lima', body: 'Bom dia! Ainda tem o modelo azul?' },
];

let h: Harness;
let page: Page;
let agentPage: Page;
const lanes: Record<string, number> = {};
const tickets: Record<string, number> = {};
const { skipIfBroken, broken } = storySteps();

const shot = (name: string) => h.browser.screenshot(name);

/** The ids of the cards in a lane, top to bottom. */
const laneCards = (p: Page, lane: number | 'none') =>
  p
    .getByTestId(`kanban-cards-${lane}`)
    .locator('[data-testid^="kanban-card-"]')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-testid')!.replace('kanban-card-', ''))));
const laneOrder = (p: Page) =>
  p
    .locator('[data-testid="kanban-board"] > section')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')!.replace('kanban-lane-', '')));

/** Drags with the mouse in small steps (dnd-kit starts a drag after the pointer moves 6 px). */
const mouseDrag = async (p: Page, from: string, to: string, grip: { x: number; y: number } = { x: 0.5, y: 0.15 }) => {
  const a = (await p.getByTestId(from).boundingBox())!;
  const b = (await p.getByTestId(to).boundingBox())!;
  await p.mouse.move(a.x + a.width * grip.x, a.y + a.height * grip.y);
  await p.mouse.down();
  await p.mouse.move(a.x + a.width * grip.x + 10, a.y + a.height * grip.y + 10, { steps: 3 });
  await p.mouse.move(b.x + b.width / 2, b.y + 120, { steps: 15 });
  await p.mouse.move(b.x + b.width / 2 + 2, b.y + 122, { steps: 2 });
  await p.mouse.up();
};

/** Light and dark screenshots of the board at 1366 and 400 px. */
const screens = async (name: string) => {
  for (const width of [1366, 400]) {
    await page.setViewportSize({ width, height: 800 });
    for (const theme of ['light', 'dark'] as const) {
      if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) await page.getByTestId('theme-toggle').click();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      await page.mouse.move(width / 2, 790);
      await shot(`kanban-${name}-${width}-${theme}`);
    }
  }
  if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== 'light') await page.getByTestId('theme-toggle').click();
  await page.setViewportSize({ width: 1366, height: 800 });
};

const login = async (p: Page, email: string, password: string) => {
  await p.goto('/login');
  await p.getByTestId('login-email').fill(email);
  await p.getByTestId('login-password').fill(password);
  await p.getByTestId('login-submit').click();
  await p.waitForURL((url) => !url.pathname.startsWith('/login'));
};

describeInChromium('the kanban board in Chromium: two users watch cards move', () => {
  beforeAll(async () => {
    h = await startHarness({ name: 'kanban' });
    page = h.browser.page;
    page.setDefaultTimeout(UI_TIMEOUT);
    await page.setViewportSize({ width: 1366, height: 800 });
  });

  afterAll(async () => {
    if (page && broken()) await shot('kanban-failure').catch(() => undefined);
    await agentPage?.context().close().catch(() => undefined);
    await h?.stop();
  });

  it('seeds a queue, an agent, kanban lanes and waiting tickets through the API', async (ctx) => {
    skipIfBroken(ctx);
    // The browser's login below ends this session (one session per user): everything is seeded first.
    const session = await h.api.post('/auth/login', { email: h.server.adminEmail, password: h.server.adminPassword });
    expect(session.status).toBe(200);
    const token = (session.body as { token: string }).token;
    const queue = await h.api.post('/queue', { name: 'Vendas', color: '#2e7d32', greetingMessage: 'Olá!' }, token);
    expect(queue.status, JSON.stringify(queue.body)).toBe(201);
    const queueId = (queue.body as { id: number }).id;
    const agent = await h.api.post('/users', { ...AGENT, profile: 'user', queueIds: [queueId] }, token);
    expect(agent.status, JSON.stringify(agent.body)).toBe(201);
    const connection = await h.api.post('/whatsapp', { name: 'Kanban phone', provider: 'sandbox' }, token);
    expect(connection.status).toBe(201);
    const connectionId = (connection.body as { id: number }).id;
    expect((await h.api.post(`/sandbox/${connectionId}/scan`, {}, token)).status).toBe(200);
    for (const name of LANES) {
      const tag = await h.api.post('/tags', { name, color: { Novo: '#1565c0', Negociando: '#ef6c00', Fechando: '#6a1b9a' }[name], kanban: 1 }, token);
      expect(tag.status, JSON.stringify(tag.body)).toBe(201);
      lanes[name] = (tag.body as { id: number }).id;
    }
    for (const customer of CUSTOMERS) {
      expect((await h.api.post(`/sandbox/${connectionId}/messages`, customer, token)).status).toBe(201);
      const found = await h.api.get(`/tickets?showAll=true&searchParam=${customer.from}`, token);
      const id = (found.body as { tickets: { id: number }[] }).tickets[0].id;
      tickets[customer.name] = id;
      expect((await h.api.put(`/tickets/${id}`, { queueId }, token)).status).toBe(200);
    }
    expect((await h.api.put(`/ticket-tags/${tickets['Carla Dias']}/${lanes.Negociando}`, {}, token)).status).toBe(201);
    expect((await h.api.put(`/ticket-tags/${tickets['Diego Lima']}/${lanes.Novo}`, {}, token)).status).toBe(201);
  });

  it('the admin and the agent open /kanban: a lane without tag, then the kanban lanes with their counts', async (ctx) => {
    skipIfBroken(ctx);
    await login(page, h.server.adminEmail, h.server.adminPassword);
    h.browser.roomChanges.done.length = 0;
    await page.goto('/kanban');
    await page.getByTestId(`kanban-card-${tickets['Maria Oliveira']}`).waitFor();
    // Moves reach a board through its ticket rooms.
    await roomsJoined(h.browser.roomChanges, ['joinTickets'], UI_TIMEOUT);
    expect(await laneOrder(page)).toEqual(['none', ...LANES.map((name) => String(lanes[name]))]);
    expect(await page.getByTestId(`kanban-count-${lanes.Negociando}`).textContent()).toBe('1');

    const agent = await h.browser.newContext();
    agentPage = agent.page;
    agentPage.setDefaultTimeout(UI_TIMEOUT);
    await login(agentPage, AGENT.email, AGENT.password);
    agent.roomChanges.done.length = 0;
    await agentPage.goto('/kanban');
    await agentPage.getByTestId(`kanban-card-${tickets['Maria Oliveira']}`).waitFor();
    await roomsJoined(agent.roomChanges, ['joinTickets'], UI_TIMEOUT);
    expect((await laneCards(agentPage, 'none')).sort()).toEqual([tickets['Maria Oliveira'], tickets['João Souza']].sort());
    // Agents do not reorder lanes: no handles.
    expect(await agentPage.locator('[data-testid^="kanban-lane-handle-"]').count()).toBe(0);
    await screens('board');
  });

  it('the admin drags a card with the mouse; the agent sees it in its new lane at once', async (ctx) => {
    skipIfBroken(ctx);
    const maria = tickets['Maria Oliveira'];
    const moved = page.waitForResponse((res) => res.request().method() === 'PUT' && res.url().endsWith(`/ticket/${maria}/kanban`));
    await mouseDrag(page, `kanban-card-${maria}`, `kanban-lane-${lanes.Novo}`);
    expect((await moved).status()).toBe(200);
    await expect.poll(() => laneCards(page, lanes.Novo)).toContain(maria);
    await expect.poll(() => laneCards(agentPage, lanes.Novo), { timeout: 5000 }).toContain(maria);
    expect(await laneCards(agentPage, 'none')).not.toContain(maria);
    expect(await agentPage.getByTestId(`kanban-count-${lanes.Novo}`).textContent()).toBe('2');
    await agentPage.screenshot({ path: path.join(ARTIFACTS_DIR, 'kanban-agent-after-admin-move.png') });
  });

  it('the agent moves a card with the keyboard (space, arrow, space); the admin sees it', async (ctx) => {
    skipIfBroken(ctx);
    const joao = tickets['João Souza'];
    const card = agentPage.getByTestId(`kanban-grab-${joao}`);
    await card.focus();
    const moved = agentPage.waitForResponse((res) => res.request().method() === 'PUT' && res.url().endsWith(`/ticket/${joao}/kanban`));
    await agentPage.keyboard.press('Space');
    await agentPage.getByTestId('kanban-drag-overlay').waitFor();
    await agentPage.keyboard.press('ArrowRight');
    // The screen reader hears where the card is.
    await expect.poll(() => agentPage.locator('[id^="DndLiveRegion"]').allTextContents()).toEqual([`Ticket #${joao} is over lane Novo.`]);
    await agentPage.keyboard.press('Space');
    expect((await moved).status()).toBe(200);
    await expect.poll(() => laneCards(agentPage, lanes.Novo)).toContain(joao);
    await expect.poll(() => laneCards(page, lanes.Novo), { timeout: 5000 }).toContain(joao);
  });

  it('the admin drags a lane by its handle: both boards show the new order', async (ctx) => {
    skipIfBroken(ctx);
    const saved = page.waitForResponse((res) => res.request().method() === 'PUT' && res.url().endsWith('/tags/kanban/order'));
    await mouseDrag(page, `kanban-lane-handle-${lanes.Fechando}`, `kanban-lane-${lanes.Novo}`, { x: 0.5, y: 0.5 });
    expect((await saved).status()).toBe(200);
    const expected = ['none', String(lanes.Fechando), String(lanes.Novo), String(lanes.Negociando)];
    await expect.poll(() => laneOrder(page)).toEqual(expected);
    await expect.poll(() => laneOrder(agentPage), { timeout: 5000 }).toEqual(expected);
    // And after a reload: the order is the server's.
    await page.reload();
    await page.getByTestId(`kanban-card-${tickets['Maria Oliveira']}`).waitFor();
    expect(await laneOrder(page)).toEqual(expected);
    await screens('after-moves');
  });

  it("the see-ticket button opens the ticket's conversation", async (ctx) => {
    skipIfBroken(ctx);
    const carla = tickets['Carla Dias'];
    await page.getByTestId(`kanban-open-${carla}`).click();
    await page.waitForURL((url) => url.pathname.startsWith('/tickets/') && url.pathname.length > '/tickets/'.length);
  });
});
