import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Locator, Page, Response } from 'playwright-core';
import { describeInChromium, startHarness, storySteps, type Harness } from './support/harness';
import { screens } from './support/screens';

/**
 * The flow builder in a real browser against the server as `npm start` runs it: an admin builds a flow
 * with a menu and a question on the canvas (nodes from the speed-dial through their dialogs, connections
 * dragged between handles), saves, reloads (nothing lost), ties it to a phrase on the flow campaigns
 * screen, and a customer on the sandbox phone is guided through it. Screenshots in test-artifacts/e2e/.
 */

const UI_TIMEOUT = 15_000;
const CUSTOMER = { from: '5511955554444', name: 'Maria Souza' };
const MENU_TEXT = 'Olá! Como podemos ajudar?';
const QUESTION = 'Qual é o seu nome?';
const THANKS = 'Obrigado, {{nome}}! Vendas vai falar com você.';

let h: Harness;
let page: Page;
let token = '';
let connectionId = 0;
let flowId = 0;
const { skipIfBroken, broken } = storySteps();

const byTestId = (id: string) => page.getByTestId(id);
const shot = (name: string) => h.browser.screenshot(name);
const nodeOf = (type: string) => page.locator(`[data-node-type="${type}"]`);
const apiResponse = (method: string, path: RegExp): Promise<Response> =>
  page.waitForResponse((res) => res.request().method() === method && path.test(new URL(res.url()).pathname), { timeout: UI_TIMEOUT });

/** Drags a connection from an output handle to a node's input, as a person does with the mouse. */
const connect = async (from: Locator, to: Locator) => {
  const a = (await from.boundingBox())!;
  const b = (await to.locator('.react-flow__handle.target').boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
};

/** What the sandbox phone received so far, for our customer. */
const received = async (): Promise<string[]> => {
  const out = await h.api.get(`/sandbox/${connectionId}/outbox`, token);
  return (out.body.messages as { to: string; body: string }[]).filter((m) => m.to.replace(/\D/g, '').endsWith(CUSTOMER.from)).map((m) => m.body);
};

const says = async (body: string) => {
  const sent = await h.api.post(`/sandbox/${connectionId}/messages`, { ...CUSTOMER, body }, token);
  expect(sent.status).toBe(201);
};

describeInChromium('the web app in Chromium: a flow drawn on the canvas guides a sandbox customer', () => {
  beforeAll(async () => {
    h = await startHarness({ name: 'flows' });
    page = h.browser.page;
    page.setDefaultTimeout(UI_TIMEOUT);
    await page.setViewportSize({ width: 1366, height: 800 });
  });

  afterAll(async () => {
    if (page && broken()) await shot('failure').catch(() => undefined);
    await h?.stop();
  });

  it('logs in as the admin, with the flow screens shown (cshow) and a sandbox phone connected', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/login');
    await byTestId('login-email').fill(h.server.adminEmail);
    await byTestId('login-password').fill(h.server.adminPassword);
    const login = apiResponse('POST', /^\/auth\/login$/);
    await byTestId('login-submit').click();
    token = ((await (await login).json()) as { token: string }).token;
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    // The flow screens exist only when the browser keeps the cshow flag (spec 02 section 1).
    await page.evaluate(() => localStorage.setItem('cshow', 'null'));
    const phone = await h.api.post('/whatsapp', { name: 'Flow phone', provider: 'sandbox' }, token);
    expect(phone.status).toBe(201);
    connectionId = phone.body.id;
    expect((await h.api.post(`/sandbox/${connectionId}/scan`, {}, token)).status).toBeLessThan(300);
  });

  it('adds a flow on /flowbuilders and lands on its canvas with the start node', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/flowbuilders');
    await byTestId('flows-add').click();
    await byTestId('flow-name').fill('Atendimento E2E');
    await byTestId('flow-name-dialog-save').click();
    await page.waitForURL(/\/flowbuilder\/\d+$/);
    flowId = Number(/\/flowbuilder\/(\d+)$/.exec(page.url())![1]);
    await byTestId('flow-node-1').waitFor();
    await shot('flow-empty-canvas');
  });

  it('draws a menu, a question and a message through their dialogs, and connects them', async (ctx) => {
    skipIfBroken(ctx);
    await byTestId('flowbuilder-add').click();
    await byTestId('flowbuilder-add-menu').click();
    await byTestId('flow-dialog-message').fill(MENU_TEXT);
    await byTestId('flow-dialog-option-1').fill('Vendas');
    await byTestId('flow-dialog-add-option').click();
    await byTestId('flow-dialog-option-2').fill('Suporte');
    await byTestId('flow-dialog-retries').fill('2');
    await shot('flow-menu-dialog');
    await byTestId('flow-node-dialog-save').click();
    await nodeOf('menu').waitFor();

    await byTestId('flowbuilder-add').click();
    await byTestId('flowbuilder-add-question').click();
    await byTestId('flow-dialog-message').fill(QUESTION);
    await byTestId('flow-dialog-answer-key').fill('nome');
    await byTestId('flow-node-dialog-save').click();
    await nodeOf('question').waitFor();

    await byTestId('flowbuilder-add').click();
    await byTestId('flowbuilder-add-message').click();
    await byTestId('flow-dialog-label').fill(THANKS);
    await byTestId('flow-node-dialog-save').click();
    await nodeOf('message').waitFor();

    // New nodes go to the right of the last one: fit them all in view before dragging.
    await page.locator('.react-flow__controls-fitview').click();
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    const menuId = await nodeOf('menu').getAttribute('data-testid');
    const questionId = (await nodeOf('question').getAttribute('data-testid'))!.replace('flow-node-', '');
    await connect(byTestId('flow-handle-1-a'), nodeOf('menu'));
    await connect(byTestId(`flow-handle-${menuId!.replace('flow-node-', '')}-a1`), nodeOf('question'));
    await connect(byTestId(`flow-handle-${questionId}-a`), nodeOf('message'));
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(3);
    expect(await byTestId('flowbuilder-hint').textContent()).toMatch(/Unsaved/);
    await shot('flow-drawn');
  });

  it('saves, and a reload shows the same canvas with nothing lost', async (ctx) => {
    skipIfBroken(ctx);
    const saved = apiResponse('POST', /^\/flowbuilder\/flow$/);
    await byTestId('flowbuilder-save').click();
    expect((await saved).status()).toBe(200);
    await expect.poll(() => byTestId('flowbuilder-hint').textContent()).not.toMatch(/Unsaved/);
    await page.reload();
    await nodeOf('question').waitFor();
    expect(await page.locator('.react-flow__node').count()).toBe(4);
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(3);
    expect(await nodeOf('menu').textContent()).toContain('2. Suporte');
    expect(await byTestId('flowbuilder-draft').count()).toBe(0);
    const doc = await h.api.get(`/flowbuilder/flow/${flowId}`, token);
    expect(doc.body.flow.version).toBe(1);
    await shot('flow-reloaded');
  });

  it('ties the flow to a phrase on the flow campaigns screen', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/phrase-lists');
    await byTestId('flow-campaigns-add').click();
    await byTestId('flow-campaign-name').fill('Atendimento');
    await byTestId('flow-campaign-flow').click();
    await page.getByRole('option', { name: 'Atendimento E2E' }).click();
    await byTestId('flow-campaign-connection').click();
    await page.getByRole('option', { name: 'Flow phone' }).click();
    await byTestId('flow-campaign-phrase').fill('Quero atendimento');
    const created = apiResponse('POST', /^\/flowcampaign$/);
    await byTestId('flow-campaign-dialog-save').click();
    const response = await created;
    expect(response.status()).toBe(201);
    const id = ((await response.json()) as { id: number }).id;
    await byTestId(`flow-campaign-row-${id}`).waitFor();
    await shot('flow-campaigns');
  });

  it('a customer is guided through the flow on the sandbox phone', async (ctx) => {
    skipIfBroken(ctx);
    await says('  quero ATENDIMENTO ');
    await expect.poll(received, { timeout: UI_TIMEOUT }).toEqual([`${MENU_TEXT}\n\n[1] Vendas\n[2] Suporte`]);
    await says('1)');
    await expect.poll(received, { timeout: UI_TIMEOUT }).toHaveLength(2);
    expect((await received())[1]).toBe(QUESTION);
    await says('Maria');
    await expect.poll(received, { timeout: UI_TIMEOUT }).toHaveLength(3);
    expect((await received())[2]).toBe('Obrigado, Maria! Vendas vai falar com você.');
  });

  it("the Typebot, OpenAI and leave dialogs at 1366 and 400 px, light and dark", async (ctx) => {
    skipIfBroken(ctx);
    const typebot = await h.api.post('/queueIntegration', { type: 'typebot', name: 'Typebot Vendas', urlN8N: 'https://typebot.example.com', typebotSlug: 'vendas' }, token);
    expect(typebot.status).toBe(201);
    await page.goto(`/flowbuilder/${flowId}`);
    await nodeOf('question').waitFor();
    await screens(page, 'flow-typebot-dialog', {
      openDialog: async () => {
        await byTestId('flowbuilder-add').click();
        await byTestId('flowbuilder-add-typebot').click();
        await byTestId('flow-dialog-integration').click();
        await page.getByRole('option', { name: 'Typebot Vendas' }).waitFor();
      },
      shoot: async (name) => {
        await shot(name);
        await page.keyboard.press('Escape');
      },
    });
    await screens(page, 'flow-openai-dialog', {
      openDialog: async () => {
        await byTestId('flowbuilder-add').click();
        await byTestId('flowbuilder-add-openai').click();
        await byTestId('flow-node-dialog-save').click();
        await page.getByText('Type the API key').waitFor();
      },
    });
    // An edit not saved, then the app's own link away: asked first.
    await byTestId('flowbuilder-add').click();
    await byTestId('flowbuilder-add-typebot').click();
    await byTestId('flow-dialog-integration').click();
    await page.getByRole('option', { name: 'Typebot Vendas' }).click();
    await byTestId('flow-node-dialog-save').click();
    await nodeOf('typebot').waitFor();
    // The app's own menu (the rail at this width): its link is stopped and asked about.
    await byTestId('menu-rail').locator('a[href="/"]').click();
    await byTestId('flowbuilder-leave-dialog').waitFor();
    await byTestId('flowbuilder-leave-stay').click();
    await byTestId('flowbuilder-leave-dialog').waitFor({ state: 'detached' });
    await screens(page, 'flow-leave-dialog', {
      openDialog: async () => {
        await byTestId('flowbuilder-back').click();
        await byTestId('flowbuilder-leave-dialog').waitFor();
      },
    });
    expect(new URL(page.url()).pathname).toBe(`/flowbuilder/${flowId}`);
  });

  it("the browser's back button with unsaved edits asks first; Stay keeps them, Leave goes back", async (ctx) => {
    skipIfBroken(ctx);
    // Into the editor from the list (an entry of the app's own history to go back to): the draft of the
    // last step's edit comes back with it.
    await page.goto('/flowbuilders');
    await byTestId(`flow-open-${flowId}`).click();
    await nodeOf('typebot').waitFor();
    await byTestId('flowbuilder-draft').waitFor();
    const nodes = await page.locator('.react-flow__node').count();

    await page.goBack();
    await byTestId('flowbuilder-leave-dialog').waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/flowbuilder/${flowId}`);
    await byTestId('flowbuilder-leave-stay').click();
    await byTestId('flowbuilder-leave-dialog').waitFor({ state: 'detached' });
    expect(await page.locator('.react-flow__node').count()).toBe(nodes);
    expect(new URL(page.url()).pathname).toBe(`/flowbuilder/${flowId}`);

    await page.goBack();
    await byTestId('flowbuilder-leave-go').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/flowbuilders');
    await byTestId(`flow-open-${flowId}`).waitFor();
  });
});
