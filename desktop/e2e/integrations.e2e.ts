import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startOpenAiServer } from '../../server/testing/openai-server';
import { startTypebotServer, text } from '../../server/testing/typebot-server';
import { describeInChromium, signIn, startHarness, storySteps, type Harness } from './support/harness';

/**
 * An admin sets up the automation from the screens, in Chromium against the server as `npm start` runs it
 * with local protocol servers (DESIGN.md, "External services in tests"): an AI prompt whose key the
 * provider checks on save and which is never shown again, and a Typebot integration tried with the dialog's
 * test button. A sandbox customer's message then runs through that Typebot, and the agent who takes the
 * ticket asks the prompt for a reply and a summary.
 */

const UI_TIMEOUT = 15_000;
const API_KEY = 'sk-e2e-0123456789WXYZ';
const CUSTOMER = { from: '5511955554444', name: 'Beatriz Lima', body: 'oi' };

let h: Harness;
let page: Page;
let token = '';
let queueId = 0;
let connectionId = 0;
let integrationId = 0;
let promptId = 0;
let openai: Awaited<ReturnType<typeof startOpenAiServer>>;
let typebot: Awaited<ReturnType<typeof startTypebotServer>>;
const { skipIfBroken, broken } = storySteps();

const byTestId = (id: string) => page.getByTestId(id);

describeInChromium('AI prompts and queue integrations from the screens, in Chromium', () => {
  beforeAll(async () => {
    [openai, typebot] = await Promise.all([startOpenAiServer(), startTypebotServer('atendimento-e2e')]);
    typebot.state.flow = (said) => ({ messages: [text(said === undefined ? '**Olá**, sou o robô da loja!' : `Você disse: ${said}`)] });
    h = await startHarness({
      name: 'integrations',
      // The local Typebot and AI servers listen on 127.0.0.1, which integrations may call only when allowed.
      env: { OPENAI_BASE_URL: `${openai.url}/v1`, INTEGRATIONS_ALLOW_PRIVATE_NETWORK: 'true' },
    });
    page = h.browser.page;
    page.setDefaultTimeout(UI_TIMEOUT);
    await page.setViewportSize({ width: 1366, height: 800 });
  });

  afterAll(async () => {
    if (page && broken()) await h.browser.screenshot('failure').catch(() => undefined);
    await h?.stop();
    await Promise.all([openai?.close(), typebot?.close()]);
  });

  it('logs in; a queue and a sandbox connection exist (API)', async (ctx) => {
    skipIfBroken(ctx);
    token = await signIn(page, h.server.adminEmail, h.server.adminPassword);
    const queue = await h.api.post('/queue', { name: 'Vendas', color: '#1565c0', greetingMessage: 'Bem-vindo a Vendas.' }, token);
    expect(queue.status, JSON.stringify(queue.body)).toBe(201);
    queueId = queue.body.id;
    const connection = await h.api.post('/whatsapp', { name: 'Loja', provider: 'sandbox' }, token);
    expect(connection.status, JSON.stringify(connection.body)).toBe(201);
    connectionId = connection.body.id;
    expect((await h.api.post(`/sandbox/${connectionId}/scan`, {}, token)).status).toBe(200);
  });

  it('creates a prompt on /prompts: the provider checks the key, which is never shown again', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/prompts');
    await byTestId('prompts-add').click();
    const dialog = byTestId('prompt-dialog');
    await dialog.waitFor();
    await byTestId('prompt-name').fill('Assistente da loja');
    await byTestId('prompt-text').fill('Você atende a Loja Aurora. Responda sobre preços, horários e entregas com cordialidade e poucas palavras.');
    await byTestId('prompt-api-key').fill(API_KEY);
    await expect.poll(() => byTestId('prompt-queue').locator('option').count()).toBe(2);
    await byTestId('prompt-queue').selectOption(String(queueId));
    await h.browser.screenshot('prompt-dialog');
    await byTestId('prompt-save').click();
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByTestId(/^prompt-name-\d+$/).filter({ hasText: 'Assistente da loja' });
    await row.waitFor();
    const id = Number((await row.getAttribute('data-testid'))!.replace('prompt-name-', ''));
    promptId = id;
    // The key was tried with the provider (GET /models) as the one typed.
    expect(openai.requests.some((r) => r.path === '/v1/models' && r.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
    const stored = await h.api.get(`/prompt/${id}`, token);
    expect(stored.body).toMatchObject({ name: 'Assistente da loja', queueId, hasApiKey: true, apiKeyLast4: 'WXYZ' });
    expect(JSON.stringify(stored.body)).not.toContain(API_KEY);

    // Edited, the key field is empty, with the last four characters in its hint.
    await byTestId(`prompt-edit-${id}`).click();
    await dialog.waitFor();
    expect(await byTestId('prompt-api-key').inputValue()).toBe('');
    await dialog.getByText('WXYZ', { exact: false }).waitFor();
    expect(await page.content()).not.toContain(API_KEY);
    await byTestId('prompt-dialog-cancel').click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('creates a Typebot integration on /queue-integration, tried with the test button', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/queue-integration');
    await byTestId('queue-integrations-add').click();
    const dialog = byTestId('queue-integration-dialog');
    await dialog.waitFor();
    await byTestId('queue-integration-type').selectOption('typebot');
    await byTestId('queue-integration-name').fill('Robô da loja');
    await byTestId('queue-integration-url').fill(typebot.url);
    // A wrong slug: the test says so, and nothing is saved.
    await byTestId('queue-integration-slug').fill('nao-existe');
    await byTestId('queue-integration-test').click();
    await expect.poll(() => byTestId('queue-integration-test-result').getAttribute('data-ok')).toBe('false');
    await byTestId('queue-integration-slug').fill('atendimento-e2e');
    await byTestId('queue-integration-delay').fill('0');
    await byTestId('queue-integration-test').click();
    await expect.poll(() => byTestId('queue-integration-test-result').getAttribute('data-ok')).toBe('true');
    expect(typebot.starts().at(-1)?.json).toMatchObject({ isOnlyRegistering: true });
    await h.browser.screenshot('typebot-dialog');
    await byTestId('queue-integration-save').click();
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByTestId(/^queue-integration-name-\d+$/).filter({ hasText: 'Robô da loja' });
    await row.waitFor();
    integrationId = Number((await row.getAttribute('data-testid'))!.replace('queue-integration-name-', ''));
    expect(await byTestId(`queue-integration-type-${integrationId}`).getAttribute('data-type')).toBe('typebot');
    await h.browser.screenshot('integrations-list');
  });

  it("a sandbox customer's first message is answered by that Typebot, once the connection names it", async (ctx) => {
    skipIfBroken(ctx);
    // The connection dialog names the integration for tickets without a queue.
    await page.goto('/connections');
    await byTestId(`connection-edit-${connectionId}`).click();
    await byTestId('connection-modal').waitFor();
    await expect.poll(() => byTestId('connection-integration').locator('option').count()).toBe(2);
    await byTestId('connection-integration').selectOption(String(integrationId));
    await byTestId('connection-save').click();
    await byTestId('connection-modal').waitFor({ state: 'detached' });
    await expect.poll(async () => (await h.api.get(`/whatsapp/${connectionId}`, token)).body.integrationId).toBe(integrationId);

    const sent = await h.api.post(`/sandbox/${connectionId}/messages`, CUSTOMER, token);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    await expect
      .poll(
        async () =>
          ((await h.api.get(`/sandbox/${connectionId}/outbox`, token)).body.messages as { to: string; body: string }[])
            .filter((m) => m.to.includes(CUSTOMER.from))
            .map((m) => m.body),
        { timeout: UI_TIMEOUT },
      )
      .toEqual(['*Olá*, sou o robô da loja!']);
    expect(typebot.starts().at(-1)?.json).toMatchObject({ prefilledVariables: { number: CUSTOMER.from, name: CUSTOMER.name } });
  });

  it("the agent who takes the ticket gets the prompt's suggested reply in the input, and a summary", async (ctx) => {
    skipIfBroken(ctx);
    // The company's default prompt helps agents where the ticket's queue has none.
    expect((await h.api.put('/settings/aiAssistPromptId', { key: 'aiAssistPromptId', value: String(promptId) }, token)).status).toBe(200);
    const listed = await h.api.get(`/tickets?showAll=true&searchParam=${CUSTOMER.from}`, token);
    const ticket = (listed.body.tickets as { id: number; uuid: string; contact?: { number?: string } }[]).find((t) => t.contact?.number === CUSTOMER.from)!;
    const me = await h.api.get('/auth/me', token);
    expect((await h.api.put(`/tickets/${ticket.id}`, { status: 'open', userId: me.body.id }, token)).status).toBe(200);
    openai.state.reply = (req) =>
      String(req.json?.messages?.[0]?.content ?? '').startsWith('Summarise') ? 'A cliente iniciou conversa com o robô.' : 'Olá Beatriz! Como posso ajudar?';
    const sentBefore = ((await h.api.get(`/sandbox/${connectionId}/outbox`, token)).body.messages as unknown[]).length;

    await page.goto(`/tickets/${ticket.uuid}`);
    await byTestId('message-input').waitFor();
    await byTestId('assist-menu').click();
    await byTestId('assist-suggest').click();
    await expect.poll(() => byTestId('message-input').inputValue()).toBe('Olá Beatriz! Como posso ajudar?');
    await h.browser.screenshot('suggested-reply');
    // A draft only: nothing went to the customer.
    expect(((await h.api.get(`/sandbox/${connectionId}/outbox`, token)).body.messages as unknown[]).length).toBe(sentBefore);

    await byTestId('assist-menu').click();
    await byTestId('assist-summarise').click();
    expect(await byTestId('assist-summary-text').textContent()).toBe('A cliente iniciou conversa com o robô.');
    await h.browser.screenshot('summary');
  });
});
