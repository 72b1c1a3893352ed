import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import coreEn from '../src/renderer/i18n/locales/en';
import ticketsEn from '../src/renderer/features/tickets/i18n/en';
import ticketsPt from '../src/renderer/features/tickets/i18n/pt';
import ticketsEs from '../src/renderer/features/tickets/i18n/es';
import authEn from '../src/renderer/features/auth/i18n/en';
import authPt from '../src/renderer/features/auth/i18n/pt';
import { isProductionWebBuild } from './support/build';
import { describeInChromium, setTheme, startHarness, storySteps, type Harness } from './support/harness';

/**
 * The desk as a support team lead tries it (issue 24): the conversation's activity trail (who moved,
 * transferred, accepted, closed the ticket), live, in the three languages and never sent to the customer;
 * then the smaller things (dates, the queue dialog, toasts, the Waiting badge, the "+N" chip, unknown
 * addresses, narrow tables) and accessibility (one Tab stop per header control, named message menus, axe
 * and a keyboard walk over the main pages in light and dark, at 1366 and 400 px with the overlay menu open);
 * and the first screen fetches only its language's strings.
 */

const UI_TIMEOUT = 15_000;
const AGENT = { name: 'Ana', email: 'ana@atrium.local', password: 'Agente-123456' };
const CUSTOMER = { from: '5511933330001', name: 'Maria Oliveira' };
const WAITING = { from: '5511933330002', name: 'João Souza', body: 'Bom dia, alguém aí?' };

let h: Harness;
let page: Page;
let token = '';
let agentToken = '';
let adminName = '';
let connectionId = 0;
let ticket = { id: 0, uuid: '' };
const queues: Record<string, number> = {};
const { skipIfBroken, broken } = storySteps();

const shot = (name: string) => h.browser.screenshot(name);
/** Polls until the assertion holds, for as long as the UI may take on a busy machine (vitest's default is 1 s). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: UI_TIMEOUT });
const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '');
/** The activity lines on screen, without their time. */
const trail = () => page.getByTestId('activity-line').evaluateAll((els) => els.map((el) => (el.textContent ?? '').replace(/ · \d\d:\d\d$/, '')));

const login = async (p: Page, email: string, password: string) => {
  await p.goto('/login');
  await p.getByTestId('login-email').fill(email);
  await p.getByTestId('login-password').fill(password);
  // One session per user: the test process goes on with the browser's own token.
  const response = p.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/auth/login');
  await p.getByTestId('login-submit').click();
  const token = ((await (await response).json()) as { token: string }).token;
  await p.waitForURL((url) => !url.pathname.startsWith('/login'));
  await p.waitForLoadState('networkidle');
  return token;
};

describeInChromium('the desk in Chromium: activity trail', () => {
  beforeAll(async () => {
    h = await startHarness({ name: 'desk' });
    page = h.browser.page;
    page.setDefaultTimeout(UI_TIMEOUT);
    await page.setViewportSize({ width: 1366, height: 800 });
  });

  afterAll(async () => {
    if (page && broken()) await shot('desk-failure').catch(() => undefined);
    await h?.stop();
  });

  it('seeds two queues behind a chatbot menu and an agent; the customer picks Vendas; the admin transfers to Ana', async (ctx) => {
    skipIfBroken(ctx);
    // The browser's login ends this API session (one session per user): the admin's API work comes first.
    const session = await h.api.post('/auth/login', { email: h.server.adminEmail, password: h.server.adminPassword });
    expect(session.status).toBe(200);
    token = (session.body as { token: string }).token;
    adminName = (session.body as { user: { name: string } }).user.name;
    for (const [name, color, order] of [['Vendas', '#2e7d32', 1], ['Suporte', '#c62828', 2]] as const) {
      const queue = await h.api.post('/queue', { name, color, greetingMessage: `${name} aqui`, orderQueue: order }, token);
      expect(queue.status, JSON.stringify(queue.body)).toBe(201);
      queues[name] = (queue.body as { id: number }).id;
    }
    const agent = await h.api.post('/users', { ...AGENT, profile: 'user', queueIds: [queues.Vendas, queues.Suporte] }, token);
    expect(agent.status, JSON.stringify(agent.body)).toBe(201);
    const connection = await h.api.post('/whatsapp', { name: 'Desk phone', provider: 'sandbox' }, token);
    expect(connection.status).toBe(201);
    connectionId = (connection.body as { id: number }).id;
    expect((await h.api.post(`/sandbox/${connectionId}/scan`, {}, token)).status).toBe(200);
    const linked = await h.api.put(`/whatsapp/${connectionId}`, { queueIds: [queues.Vendas, queues.Suporte], greetingMessage: 'Escolha:' }, token);
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);

    for (const body of ['oi', '1']) {
      expect((await h.api.post(`/sandbox/${connectionId}/messages`, { ...CUSTOMER, body }, token)).status).toBe(201);
    }
    const found = await h.api.get(`/tickets?showAll=true&searchParam=${CUSTOMER.from}`, token);
    ticket = (found.body as { tickets: { id: number; uuid: string }[] }).tickets[0];
    await eventually(async () => ((await h.api.get(`/tickets/${ticket.id}`, token)).body as { queueId: number }).queueId).toBe(queues.Vendas);
    const moved = await h.api.put(`/tickets/${ticket.id}`, { queueId: queues.Suporte, userId: (agent.body as { id: number }).id, status: 'open' }, token);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const agentSession = await h.api.post('/auth/login', { email: AGENT.email, password: AGENT.password });
    expect(agentSession.status).toBe(200);
    agentToken = (agentSession.body as { token: string }).token;
  });

  it('the conversation shows who moved and transferred it, between the messages', async (ctx) => {
    skipIfBroken(ctx);
    token = await login(page, h.server.adminEmail, h.server.adminPassword);
    await page.goto(`/tickets/${ticket.uuid}`);
    await page.waitForLoadState('networkidle');
    await eventually(trail).toEqual([
        fill(ticketsEn.activity.queued, { queue: 'Vendas', actor: ticketsEn.activity.actor.chatbot }),
        fill(ticketsEn.activity.transferred, { actor: adminName, target: 'Ana · Suporte' }),
      ]);
    // By time: the chatbot's move comes after the customer's "1" and before the queue's greeting.
    const order = await page
      .getByTestId('message-list')
      .locator('[data-index]')
      .evaluateAll((rows) => rows.map((row) => (row.querySelector('[data-testid="activity-line"]') ? 'line' : (row.textContent ?? '').trim())));
    const moveAt = order.indexOf('line');
    expect(order.slice(0, moveAt).some((text) => text.startsWith('1'))).toBe(true);
    expect(order.slice(moveAt + 1).some((text) => text.includes('Vendas aqui'))).toBe(true);
  });

  it('lines an agent adds elsewhere appear live: accepted, closed', async (ctx) => {
    skipIfBroken(ctx);
    expect((await h.api.put(`/tickets/${ticket.id}`, { status: 'pending' }, agentToken)).status).toBe(200);
    expect((await h.api.put(`/tickets/${ticket.id}`, { status: 'open' }, agentToken)).status).toBe(200);
    await eventually(trail).toContain(fill(ticketsEn.activity.accepted, { actor: 'Ana' }));
    expect((await h.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, agentToken)).status).toBe(200);
    await eventually(trail).toContain(fill(ticketsEn.activity.closed, { actor: 'Ana' }));
    expect(await trail()).toContain(fill(ticketsEn.activity.returnedToQueue, { actor: 'Ana', queue: 'Suporte' }));
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await shot(`desk-trail-${theme}`);
    }
    await setTheme(page, 'light');
  });

  it('the trail speaks Português and Español, and the customer never received it', async (ctx) => {
    skipIfBroken(ctx);
    for (const [code, strings] of [['pt', ticketsPt], ['es', ticketsEs]] as const) {
      await page.evaluate((language) => localStorage.setItem('language', language), code);
      await page.reload();
      await eventually(trail).toContain(fill(strings.activity.accepted, { actor: 'Ana' }));
      expect(await trail()).toContain(fill(strings.activity.queued, { queue: 'Vendas', actor: strings.activity.actor.chatbot }));
    }
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    const phone = ((await h.api.get(`/sandbox/${connectionId}/outbox`, token)).body as { messages?: { to: string; body: string }[] }).messages ?? [];
    const received = phone.filter((m) => m.to.includes(CUSTOMER.from)).map((m) => m.body).join('\n');
    for (const word of ['Ana · Suporte', ticketsEn.activity.actor.chatbot, fill(ticketsEn.activity.closed, { actor: 'Ana' })]) {
      expect(received).not.toContain(word);
    }
  });

  // ------------------------------------------------------------------ smaller things (item 8)

  /** Whether two boxes share any area. */
  const overlap = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
    a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
  const box = async (testId: string) => (await page.getByTestId(testId).boundingBox())!;

  it('an unknown address says so, keeps the address and offers a way back', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/no-such-page');
    await page.getByTestId('not-found').waitFor();
    expect(new URL(page.url()).pathname).toBe('/no-such-page');
    expect(await page.getByTestId('not-found').textContent()).toContain('/no-such-page');
    await page.getByTestId('not-found').getByRole('link').click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('the dashboard filter takes dates as the charts do (dd/MM/yyyy), not in the browser format', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/');
    await page.getByTestId('filter-type').selectOption('date');
    const from = page.getByTestId('filter-from');
    await from.fill('01/11/2026');
    expect(await from.inputValue()).toBe('01/11/2026');
    // The same field as the charts' date range below it.
    const chartField = page.locator('section[data-testid] input[inputmode="numeric"]').first();
    expect(await from.getAttribute('placeholder')).toBe(await chartField.getAttribute('placeholder'));
  });

  it('the Waiting badge is red only when someone waits', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/tickets');
    // The tab keeps a hidden copy of its label (its bold width): the first is the one shown.
    const badge = page.getByTestId('tickets-pending-count').first();
    await eventually(() => badge.textContent()).toBe('0');
    const background = () => badge.evaluate((el) => getComputedStyle(el).backgroundColor);
    const atZero = await background();
    expect((await h.api.post(`/sandbox/${connectionId}/messages`, { ...WAITING }, token)).status).toBe(201);
    await eventually(() => badge.textContent()).toBe('1');
    expect(await background()).not.toBe(atZero);
  });

  it('the "+N" chip of a narrow ticket row names the badges it hides, on hover and to screen readers', async (ctx) => {
    skipIfBroken(ctx);
    const found = await h.api.get(`/tickets?showAll=true&searchParam=${WAITING.from}`, token);
    const waiting = (found.body as { tickets: { id: number }[] }).tickets[0];
    const names = ['Prioridade alta', 'Cliente antigo', 'Boleto em aberto', 'Segunda via'];
    const synced = await h.api.post('/tags/sync', { ticketId: waiting.id, tags: names.map((name) => ({ name })) }, token);
    expect(synced.status, JSON.stringify(synced.body)).toBeLessThan(300);
    await page.setViewportSize({ width: 400, height: 800 });
    await page.goto('/tickets');
    await page.getByTestId('tickets-subtab-pending').click();
    const more = page.getByTestId(`ticket-badges-more-${waiting.id}`);
    await more.waitFor();
    // On hover: the names of the hidden badges (the last ones: tags).
    const hidden = ((await more.getAttribute('title')) ?? '').split(' · ');
    expect(names.filter((name) => hidden.includes(name)).length).toBeGreaterThan(0);
    // What a screen reader reads: those names, not just "+N".
    const spoken = (await more.textContent()) ?? '';
    for (const name of hidden) expect(spoken).toContain(name);
    await page.setViewportSize({ width: 1366, height: 800 });
  });

  it('the queue dialog: the colour box stays in its column at 1366 and 400 px', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/queues');
    for (const width of [1366, 400]) {
      await page.setViewportSize({ width, height: 800 });
      await page.getByTestId('queues-add').click();
      await page.getByTestId('queue-color').waitFor();
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      const color = await box('queue-color');
      const picker = await box('queue-color-picker');
      for (const other of ['queue-name', 'queue-order']) {
        const next = await box(other);
        expect(overlap(color, next), `queue-color overlaps ${other} at ${width} px`).toBe(false);
        expect(overlap(picker, next), `queue-color-picker overlaps ${other} at ${width} px`).toBe(false);
      }
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }
    await page.setViewportSize({ width: 1366, height: 800 });
  });

  it('a success toast covers neither Add nor the search box (1366 and 400 px)', async (ctx) => {
    skipIfBroken(ctx);
    for (const width of [1366, 400]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/tags');
      await page.getByTestId('tags-add').click();
      await page.getByRole('dialog').getByRole('textbox').first().fill(`Etiqueta ${width}`);
      await page.getByRole('dialog').getByRole('button', { name: /save|salvar|guardar/i }).click();
      const toast = page.getByTestId('app-toast').first();
      await toast.waitFor();
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      const shown = (await toast.boundingBox())!;
      for (const control of ['tags-add', 'tags-search']) {
        expect(overlap(shown, await box(control)), `the toast covers ${control} at ${width} px`).toBe(false);
      }
    }
    await page.setViewportSize({ width: 1366, height: 800 });
  });

  it('at 400 px a table row\'s actions are on screen without scrolling sideways', async (ctx) => {
    skipIfBroken(ctx);
    await page.setViewportSize({ width: 400, height: 800 });
    for (const [path, row] of [['/users', 'user'], ['/queues', 'queue'], ['/tags', 'tag']] as const) {
      await page.goto(path);
      const edit = page.locator(`[data-testid^="${row}-edit-"]`).first();
      await edit.waitFor();
      const at = (await edit.boundingBox())!;
      expect(at.x + at.width, `${path}: the edit button ends past the window`).toBeLessThanOrEqual(400);
      // Nothing lies over it: a click there reaches it.
      const reached = await edit.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return !!hit && el.contains(hit);
      });
      expect(reached, `${path}: the edit button is covered`).toBe(true);
    }
    await page.setViewportSize({ width: 1366, height: 800 });
  });

  // ------------------------------------------------------------------ accessibility (item 9)

  it('each header control (Notifications, Announcements, Internal chat) is one named Tab stop', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/tickets');
    const header = page.getByTestId('top-bar');
    await header.getByRole('button', { name: coreEn.layout.notifications, exact: true }).first().waitFor();
    for (const name of [coreEn.layout.notifications, coreEn.layout.announcements, coreEn.layout.chats]) {
      // The bells mount as their features load: each appears, once.
      await eventually(() => header.getByRole('button', { name, exact: true }).count()).toBe(1);
    }
    // No control inside another (a role=button wrapper around the button made two Tab stops).
    const nested = await header.evaluate(
      (el) => el.querySelectorAll('[role="button"] button, [role="button"] [role="button"], button button, button [role="button"]').length,
    );
    expect(nested).toBe(0);
    // Tab stops in the header: each focusable element once, each named.
    const stops = await header.evaluate((el) =>
      Array.from(el.querySelectorAll<HTMLElement>('button, [href], [tabindex]:not([tabindex="-1"]), [role="button"]'))
        .filter((e) => e.tabIndex >= 0 && !e.hasAttribute('disabled'))
        .map((e) => e.getAttribute('aria-label') ?? e.textContent?.trim() ?? ''),
    );
    expect(stops.filter((label) => label === '')).toEqual([]);
  });

  it('a message\'s menu button is named for what it is, not "menu"', async (ctx) => {
    skipIfBroken(ctx);
    const found = await h.api.get(`/tickets?showAll=true&searchParam=${WAITING.from}`, token);
    const waiting = (found.body as { tickets: { id: number; uuid: string }[] }).tickets[0];
    expect((await h.api.put(`/tickets/${waiting.id}`, { status: 'open' }, token)).status).toBe(200);
    await page.goto(`/tickets/${waiting.uuid}`);
    const list = page.getByTestId('message-list');
    await list.getByText(WAITING.body).waitFor();
    expect(await list.getByRole('button', { name: 'menu', exact: true }).count()).toBe(0);
    expect(await list.getByRole('button', { name: /^Message actions \(\d\d:\d\d\)$/ }).count()).toBeGreaterThan(0);
  });

  /**
   * Every control on the page by Tab alone, each named: Tab round the page (past the last control focus
   * leaves the page once, then starts again at the top) until a stop comes round again; the names are
   * Chromium's own (its accessibility tree). Every visible element in the Tab order
   * must be among the stops (nothing behind a trap); roving groups (tabs, menus) are one stop, their items
   * reached by arrows. Returns the problems found.
   */
  const walkByKeyboard = async (name: string, scope?: string): Promise<string[]> => {
    const cdp = await page.context().newCDPSession(page);
    const problems: string[] = [];
    try {
      await page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
        (window as unknown as { __stops: Set<Element> }).__stops = new Set();
      });
      let outside = 0;
      for (let i = 0; i < 400; i++) {
        await page.keyboard.press('Tab');
        const step = await page.evaluate(() => {
          const el = document.activeElement;
          const stops = (window as unknown as { __stops: Set<Element> }).__stops;
          // Past the last control focus leaves the page (the body), then comes round to the first one.
          if (!el || el === document.body) return 'outside';
          if (stops.has(el)) return 'round';
          stops.add(el);
          return el.outerHTML.slice(0, 160);
        });
        if (step === 'round') break;
        if (step === 'outside') {
          outside += 1;
          if (outside > 1) break;
          continue;
        }
        const { result } = await cdp.send('Runtime.evaluate', { expression: 'document.activeElement' });
        const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { objectId: result.objectId, fetchRelatives: false });
        const accessibleName = String(nodes[0]?.name?.value ?? '').trim();
        if (!accessibleName) problems.push(`${name}: a Tab stop without a name: ${step}`);
      }
      const missed = await page.evaluate((scope) => {
        const stops = (window as unknown as { __stops: Set<Element> }).__stops;
        // A modal (the side menu as an overlay) keeps focus inside: only its controls must be reached.
        const root = (scope && document.querySelector(scope)) || document;
        return Array.from(root.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]'))
          .filter((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && !el.closest('[inert], [data-tabster-dummy]'))
          .filter((el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && el.getClientRects().length > 0)
          .filter((el) => !stops.has(el))
          // An arrow-key group (Fluent's mover: the menu, tab lists, toolbars) is one Tab stop; arrows reach the rest.
          .filter((el) => {
            const group = el.parentElement?.closest('[data-tabster*="mover"]');
            return !group || !Array.from(stops).some((stop) => group.contains(stop));
          })
          .map((el) => el.outerHTML.slice(0, 160));
      }, scope);
      for (const html of missed) problems.push(`${name}: not reached by Tab: ${html}`);
    } finally {
      await cdp.detach();
    }
    return problems;
  };

  /** The widths the accessibility checks run at: a laptop, and a phone (the side menu an overlay). */
  const WIDTHS = [1366, 400] as const;
  const SIDE_MENU = '[data-testid="side-menu"]';

  /** At 400 px the side menu is an overlay, closed: opens it from the top bar's menu button. */
  const openOverlayMenu = async () => {
    await page.getByTestId('top-bar').getByRole('button', { name: coreEn.layout.toggleMenu, exact: true }).click();
    await page.locator(SIDE_MENU).waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  };

  const closeOverlayMenu = async () => {
    await page.keyboard.press('Escape');
    await page.locator(SIDE_MENU).waitFor({ state: 'hidden' });
  };

  /** The pages the accessibility checks walk (issue 24 item 9): name and address. */
  const mainPages = async (): Promise<[string, string][]> => {
    const found = await h.api.get(`/tickets?showAll=true&searchParam=${WAITING.from}`, token);
    const open = (found.body as { tickets: { uuid: string }[] }).tickets[0];
    return [
      ['tickets with an open conversation', `/tickets/${open.uuid}`],
      ['kanban', '/kanban'],
      ['chats', '/chats'],
      ['contacts', '/contacts'],
      ['users', '/users'],
      ['settings', '/settings'],
      ['queues', '/queues'],
    ];
  };

  it('axe finds no serious or critical violation on the main pages, light and dark', async (ctx) => {
    skipIfBroken(ctx);
    const pages = await mainPages();
    const problems: string[] = [];
    const check = async (name: string, theme: string) => {
      await page.waitForLoadState('networkidle');
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      // Tabster's focus redirectors (Fluent's arrow-key groups: the menu, tab lists) are focusable by design and
      // hidden from screen readers so none reads them; focus never rests on one (Fluent's known issue
      // "aria-hidden-focus on elements with data-tabster-dummy"). Anything else hidden and focusable fails.
      const results = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .exclude('[data-tabster-dummy]')
        .analyze();
      for (const v of results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
        problems.push(`${name} (${theme}): ${v.id} [${v.impact}] ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      }
    };
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      for (const theme of ['light', 'dark'] as const) {
        await page.goto('/tickets');
        await setTheme(page, theme);
        for (const [name, path] of pages) {
          await page.goto(path);
          await check(`${name} at ${width} px`, theme);
        }
        if (width === 400) {
          // The side menu as an overlay, open over the page.
          await openOverlayMenu();
          await check('side menu (overlay) at 400 px', theme);
          await closeOverlayMenu();
        }
      }
      await setTheme(page, 'light');
      // The login page, signed out (its theme follows the stored preference).
      for (const theme of ['light', 'dark'] as const) {
        await page.goto('/tickets');
        await setTheme(page, theme);
        await page.context().clearCookies();
        await page.goto('/login');
        await page.getByTestId('login-email').waitFor();
        await check(`login at ${width} px`, theme);
        token = await login(page, h.server.adminEmail, h.server.adminPassword);
      }
    }
    await setTheme(page, 'light');
    await page.setViewportSize({ width: 1366, height: 800 });
    expect(problems).toEqual([]);
  }, 600_000); // Thirty-four screens through axe: longer than a test's default on a busy machine.

  it('every control on the main pages is reached by Tab and named', async (ctx) => {
    skipIfBroken(ctx);
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      for (const [name, path] of await mainPages()) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        problems.push(...(await walkByKeyboard(`${name} at ${width} px`)));
      }
      if (width === 400) {
        // The overlay menu holds focus while open: every entry reached by Tab inside it, and Escape closes it.
        await openOverlayMenu();
        problems.push(...(await walkByKeyboard('side menu (overlay) at 400 px', SIDE_MENU)));
        await closeOverlayMenu();
      }
      await page.context().clearCookies();
      await page.goto('/login');
      await page.getByTestId('login-email').waitFor();
      problems.push(...(await walkByKeyboard(`login at ${width} px`)));
      token = await login(page, h.server.adminEmail, h.server.adminPassword);
    }
    await page.setViewportSize({ width: 1366, height: 800 });
    expect(problems).toEqual([]);
  }, 600_000);

  // ------------------------------------------------------------------ the first screen (item 3)

  it('the browser runs the production build of React, as users get it', async () => {
    // The build the harness made under vitest (NODE_ENV=test) would otherwise carry React's development
    // build: slower, and with checks users never run. Only development fibers carry `_debugOwner`.
    expect(isProductionWebBuild()).toBe(true);
    const fresh = await h.browser.newContext();
    try {
      await fresh.page.goto('/login');
      await fresh.page.getByTestId('login-email').waitFor();
      const development = await fresh.page.evaluate(() => {
        const root = document.getElementById('root') as HTMLElement & Record<string, unknown>;
        const key = Object.keys(root).find((name) => name.startsWith('__reactContainer$'));
        return key ? '_debugOwner' in (root[key] as object) : null;
      });
      expect(development).toBe(false);
    } finally {
      await fresh.context.close();
    }
  });

  it('the login screen fetches its own language\'s strings only, and the new language\'s on a switch', async () => {
    // A browser of its own: a cold cache, and no language chosen before.
    const fresh = await h.browser.newContext();
    try {
      const strings: string[] = [];
      const assets: string[] = [];
      fresh.page.on('request', (request) => {
        const file = new URL(request.url()).pathname;
        if (file.startsWith('/assets/')) assets.push(file);
        const match = /\/assets\/strings-(.+)-(pt|en|es)-[\w-]+\.js$/.exec(file);
        if (match) strings.push(`${match[1]}/${match[2]}`);
      });
      await fresh.page.goto('/login');
      await fresh.page.getByRole('heading', { name: authEn.login.title }).waitFor();
      await fresh.page.waitForLoadState('networkidle');
      // English: the common strings and the login page's, nothing of Português or Español, nor of other pages.
      expect([...strings].sort()).toEqual(['auth/en', 'common/en']);
      // Nor the realtime client: nobody is signed in. Nor the date library, nor the toasts' host before the form shows.
      expect(assets.filter((file) => /^\/assets\/(socket|dates)-/.test(file))).toEqual([]);
      // Nor the language menu (its popover, positioning and keyboard navigation) before it is opened.
      expect(assets.filter((file) => file.startsWith('/assets/language-menu-'))).toEqual([]);

      await fresh.page.getByRole('button', { name: new RegExp(coreEn.layout.language) }).click();
      await fresh.page.getByRole('menuitemradio', { name: coreEn.languages.pt }).click();
      // The screen changes without a reload, once the Português strings have come.
      await fresh.page.getByRole('heading', { name: authPt.login.title }).waitFor();
      expect(await fresh.page.getByTestId('login-submit').textContent()).toBe(authPt.login.submit);
      expect([...strings].sort()).toEqual(['auth/en', 'auth/pt', 'common/en', 'common/pt']);
      expect(assets.some((file) => file.startsWith('/assets/language-menu-'))).toBe(true);
    } finally {
      await fresh.context.close();
    }
  });

  it('an agent reloading / lands on the tickets without fetching the admin dashboard', async (ctx) => {
    skipIfBroken(ctx);
    // A browser of its own (the agent's login ends the test's API session of the agent: nothing after uses it).
    const fresh = await h.browser.newContext();
    try {
      await login(fresh.page, AGENT.email, AGENT.password);
      await fresh.page.waitForURL((url) => url.pathname.startsWith('/tickets'));
      const assets: string[] = [];
      fresh.page.on('request', (request) => {
        const file = new URL(request.url()).pathname;
        if (file.startsWith('/assets/')) assets.push(file);
      });
      await fresh.page.goto('/');
      await fresh.page.waitForURL((url) => url.pathname.startsWith('/tickets'));
      await fresh.page.getByTestId('tickets-welcome').waitFor();
      await fresh.page.waitForLoadState('networkidle');
      expect(assets.filter((file) => /^\/assets\/(dashboard-page|strings-dashboard)-/.test(file))).toEqual([]);
      // The layout was fetched with the start (the check above would pass on a page that never loaded).
      expect(assets.some((file) => file.startsWith('/assets/main-layout-'))).toBe(true);
    } finally {
      await fresh.context.close();
    }
  });
});
