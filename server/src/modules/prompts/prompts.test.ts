import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT_HANDOFF_MARKER } from '@atrium/shared';
import { connectSandbox, customerSays, outbox, ticketOf } from '../../../testing/conversation.js';
import { expectError, expectInvalid } from '../../../testing/expect.js';
import { connectSocket, createTenant, eventually, nextEvent, outboxSettled, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { startOpenAiServer } from '../../../testing/openai-server.js';

/** AI prompts (issue 21): the /prompt calls, the automatic answers through the sandbox phone, the agent's help. */
let ai: Awaited<ReturnType<typeof startOpenAiServer>>;
let t: TestApp;
let a: Tenant;
let b: Tenant;
const logLines: string[] = [];
const KEY = 'sk-test-0123456789abcdWXYZ';

const hex = () => randomBytes(3).toString('hex');
const sql = <T = any>(query: string, params: unknown[] = []): Promise<T[]> => t.app.orm.em.fork().getConnection().execute(query, params);
const queue = async (tenant: Tenant, body: Record<string, unknown> = {}) => {
  const res = await t.api.post('/queue', { name: `Queue ${hex()}`, color: `#${hex()}`, greetingMessage: 'Olá!', ...body }, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string };
};
const INSTRUCTIONS = 'Você atende a padaria Pão Quente. Responda sobre preços e horários com cordialidade.';
const promptBody = (queueId: number, extra: Record<string, unknown> = {}) => ({
  name: `Assistente ${hex()}`,
  prompt: INSTRUCTIONS,
  model: 'gpt-4.1-mini',
  maxTokens: 120,
  temperature: 0.7,
  apiKey: KEY,
  queueId,
  maxMessages: 10,
  ...extra,
});
const createPrompt = async (tenant: Tenant, queueId: number, extra: Record<string, unknown> = {}) => {
  const res = await t.api.post('/prompt', promptBody(queueId, extra), tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; queueId: number };
};
const notesOf = async (tenant: Tenant, ticket: { id: number; contactId: number }) =>
  (await t.api.get(`/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, tenant.admin.token)).body as { note: string; userId: number | null }[];
const phoneText = async (wa: number, to: string) => (await outbox(t.api, a.admin.token, wa)).filter((m) => m.to.includes(to)).map((m) => m.body);

beforeAll(async () => {
  ai = await startOpenAiServer();
  // The package reads OPENAI_BASE_URL itself: a company's compatible provider or proxy is set the same way.
  process.env.OPENAI_BASE_URL = `${ai.url}/v1`;
  const stream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  t = await startTestApp({}, { logger: pino({ level: 'trace' }, stream) });
  const roomy = await t.api.post('/plans', { name: `Roomy ${hex()}`, users: 10, connections: 50, queues: 100, value: 0 }, t.superToken);
  a = await createTenant(t, 'Prompts', roomy.body.id);
  b = await createTenant(t, 'Other');
});
afterAll(async () => {
  await t?.stop();
  await ai?.close();
  delete process.env.OPENAI_BASE_URL;
});

describe('/prompt', () => {
  it('creates a prompt whose key is sealed at rest, never answered, and checked with the provider', async () => {
    const q = await queue(a);
    const res = await t.api.post('/prompt', promptBody(q.id), a.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ hasApiKey: true, apiKeyLast4: 'WXYZ', queueId: q.id, queue: { id: q.id, name: q.name }, temperature: 0.7 });
    expect(JSON.stringify(res.body)).not.toContain('sk-test');
    const [row] = await sql(`select api_key_sealed from prompts where id = ?`, [res.body.id]);
    expect(row.api_key_sealed).not.toContain('0123456789');
    expect(ai.requests.some((r) => r.path === '/v1/models' && r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    const listed = await t.api.get('/prompt', a.agent.token);
    expect(listed.body.prompts.map((p: any) => p.id)).toContain(res.body.id);
    expect(JSON.stringify(listed.body)).not.toContain('sk-test');
  });

  it('refuses a key the provider refuses, and bad input by field', async () => {
    const q = await queue(a);
    expectError(await t.api.post('/prompt', promptBody(q.id, { apiKey: 'sk-bad-0000000000000' }), a.admin.token), 400, 'ERR_AI_INVALID_API_KEY');
    expectInvalid(
      await t.api.post('/prompt', { ...promptBody(q.id), name: 'abc', prompt: 'too short', temperature: 1.5, maxTokens: 0 }, a.admin.token),
      'name',
      'prompt',
      'temperature',
      'maxTokens',
    );
    const { queueId: _q, ...withoutQueue } = promptBody(q.id);
    expectInvalid(await t.api.post('/prompt', withoutQueue, a.admin.token), 'queueId');
    expectError(await t.api.post('/prompt', promptBody(999999), a.admin.token), 404, 'ERR_NO_QUEUE_FOUND');
  });

  it('writes are for admins; an empty key on update keeps the stored one', async () => {
    const q = await queue(a);
    expectError(await t.api.post('/prompt', promptBody(q.id), a.agent.token), 403, 'ERR_NO_PERMISSION');
    const p = await createPrompt(a, q.id);
    expectError(await t.api.put(`/prompt/${p.id}`, { name: 'Agente novo' }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    const updated = await t.api.put(`/prompt/${p.id}`, { name: 'Renomeado', apiKey: '' }, a.admin.token);
    expect(updated.body).toMatchObject({ name: 'Renomeado', hasApiKey: true, apiKeyLast4: 'WXYZ' });
    const rekeyed = await t.api.put(`/prompt/${p.id}`, { apiKey: 'sk-test-another-key-9876' }, a.admin.token);
    expect(rekeyed.body.apiKeyLast4).toBe('9876');
    expectError(await t.api.del(`/prompt/${p.id}`, a.agent.token), 403, 'ERR_NO_PERMISSION');
  });

  it("another company's prompt does not exist for the caller", async () => {
    const p = await createPrompt(a, (await queue(a)).id);
    expectError(await t.api.get(`/prompt/${p.id}`, b.admin.token), 404, 'ERR_NO_PROMPT_FOUND');
    expectError(await t.api.put(`/prompt/${p.id}`, { name: 'Tomado por B' }, b.admin.token), 404, 'ERR_NO_PROMPT_FOUND');
    expectError(await t.api.del(`/prompt/${p.id}`, b.admin.token), 404, 'ERR_NO_PROMPT_FOUND');
    expect((await t.api.get('/prompt', b.admin.token)).body.prompts).toEqual([]);
    // B's queue cannot name A's prompt either.
    expectError(await t.api.post('/queue', { name: `Q ${hex()}`, color: `#${hex()}`, promptId: p.id }, b.admin.token), 404, 'ERR_NO_PROMPT_FOUND');
  });

  it('is refused without the plan flag, on the server', async () => {
    const plan = await t.api.post('/plans', { name: `No AI ${hex()}`, users: 5, connections: 5, queues: 5, value: 0, useOpenAi: false }, t.superToken);
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const c = await createTenant(t, 'NoAi', plan.body.id);
    expectError(await t.api.get('/prompt', c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await t.api.post('/prompt', promptBody(1), c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
  });

  it('is refused without a session', async () => {
    expect((await t.api.get('/prompt')).status).toBe(401);
    expect((await t.api.post('/prompt', promptBody(1))).status).toBe(401);
  });

  it('cannot be deleted while a queue uses it; deleted, it is announced', async () => {
    const q = await queue(a);
    const p = await createPrompt(a, q.id);
    const user = await queue(a, { promptId: p.id });
    expectError(await t.api.del(`/prompt/${p.id}`, a.admin.token), 409, 'ERR_PROMPT_IN_USE');
    await t.api.put(`/queue/${user.id}`, { promptId: null }, a.admin.token);
    const socket = await connectSocket(t.app.url, a.agent.token);
    try {
      const heard = nextEvent(socket, `company-${a.companyId}-prompt`);
      expect((await t.api.del(`/prompt/${p.id}`, a.admin.token)).status).toBe(200);
      expect(await heard).toEqual({ action: 'delete', id: p.id });
    } finally {
      socket.close();
    }
  });
});

describe('a prompt answering customers', () => {
  let wa: number;
  let handoffQueue: { id: number };
  let prompt: { id: number };

  beforeAll(async () => {
    wa = (await connectSandbox(t.api, a.admin.token)).id;
    handoffQueue = await queue(a);
    prompt = await createPrompt(a, handoffQueue.id, { maxMessages: 3 });
    // The connection's prompt answers its tickets without a queue.
    expect((await t.api.put(`/whatsapp/${wa}`, { promptId: prompt.id }, a.admin.token)).status).toBe(200);
  });

  it('answers with the last messages in order, once each, the customer called by name', async () => {
    const number = '5511940000001';
    ai.state.reply = () => 'O pão francês custa R$ 1,00.';
    const before = ai.chats().length;
    await customerSays(t.api, a.admin.token, wa, { from: number, name: 'Maria Souza', body: 'Oi' });
    await eventually(async () => expect(await phoneText(wa, number)).toEqual(['O pão francês custa R$ 1,00.']), 15_000);
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'E o croissant?' });
    await eventually(async () => expect(await phoneText(wa, number)).toHaveLength(2), 15_000);
    const calls = ai.chats().slice(before);
    expect(calls).toHaveLength(2);
    const last = calls[1].json;
    expect(last).toMatchObject({ model: 'gpt-4.1-mini', max_tokens: 120, temperature: 0.7 });
    expect(calls[1].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(last.messages[0].role).toBe('system');
    expect(last.messages[0].content).toContain('Maria');
    expect(last.messages[0].content).toContain(INSTRUCTIONS);
    expect(last.messages.slice(1)).toEqual([
      { role: 'user', content: 'Oi' },
      { role: 'assistant', content: 'O pão francês custa R$ 1,00.' },
      { role: 'user', content: 'E o croissant?' },
    ]);
    const ticket = await ticketOf(t.api, a.admin.token, number);
    expect(ticket).toMatchObject({ promptId: prompt.id, queueId: null, userId: null });
    const [usage] = await sql(`select sum(requests)::int as requests, sum(total_tokens)::int as tokens from ai_usages where company_id = ? and kind = 'reply'`, [a.companyId]);
    expect(usage.requests).toBeGreaterThanOrEqual(2);
    expect(usage.tokens).toBeGreaterThanOrEqual(98);
    // GET /prompt/usage: the company's figures by month, kind and model, for admins only.
    const month = new Date().toISOString().slice(0, 7);
    const read = await t.api.get('/prompt/usage', a.admin.token);
    expect(read.status).toBe(200);
    expect(read.body.usage).toContainEqual({ month, kind: 'reply', model: 'gpt-4.1-mini', requests: usage.requests, promptTokens: expect.any(Number), completionTokens: expect.any(Number), totalTokens: usage.tokens });
    expectError(await t.api.get('/prompt/usage', a.agent.token), 403, 'ERR_NO_PERMISSION');
    expect((await t.api.get('/prompt/usage', b.admin.token)).body.usage).toEqual([]);
  });

  it('hands the conversation to a person at the marker, and stops answering it', async () => {
    const number = '5511940000002';
    ai.state.reply = () => `${PROMPT_HANDOFF_MARKER}. Um momento, vou chamar um atendente.`;
    await customerSays(t.api, a.admin.token, wa, { from: number, name: 'João', body: 'Quero falar com uma pessoa' });
    await eventually(async () => expect((await ticketOf(t.api, a.admin.token, number)).queueId).toBe(handoffQueue.id), 15_000);
    const ticket = await ticketOf(t.api, a.admin.token, number);
    expect(ticket).toMatchObject({ status: 'pending', userId: null, promptId: null });
    // Sent with "typing…" first: waited for on the phone.
    await eventually(async () => expect(await phoneText(wa, number)).toEqual(['Um momento, vou chamar um atendente.']), 10_000);
    expect((await notesOf(a, ticket)).map((n) => n.note)).toEqual([expect.stringContaining('transferiu')]);
    const calls = ai.chats().length;
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'Alô?' });
    await outboxSettled(t.app, wa);
    await eventually(async () => expect(await sql(`select count(*)::int as n from step_tasks where ticket_id = ?`, [ticket.id])).toEqual([{ n: 0 }]));
    expect(ai.chats().length).toBe(calls);
  });

  it('never leaves the customer in silence: a refused key hands the ticket to a person with a note, and is never logged', async () => {
    const number = '5511940000003';
    const q = await queue(a);
    const broken = await createPrompt(a, q.id, { apiKey: 'sk-test-rotated-later-1111' });
    // The key stops working after it was saved (revoked at the provider).
    ai.state.reply = (req) => (req.headers.authorization?.includes('rotated') ? ai.error(401, 'invalid_api_key', 'invalid_request_error') : 'ok');
    const other = (await connectSandbox(t.api, a.admin.token)).id;
    await t.api.put(`/whatsapp/${other}`, { promptId: broken.id }, a.admin.token);
    await customerSays(t.api, a.admin.token, other, { from: number, body: 'Bom dia' });
    await eventually(async () => expect((await ticketOf(t.api, a.admin.token, number)).queueId).toBe(q.id), 15_000);
    const ticket = await ticketOf(t.api, a.admin.token, number);
    expect(ticket).toMatchObject({ status: 'pending', userId: null });
    expect((await notesOf(a, ticket)).map((n) => n.note)).toEqual([expect.stringContaining('chave de API')]);
    expect(logLines.join('')).not.toContain('rotated-later');
    expect(logLines.join('')).not.toContain('0123456789');
  });

  it('transcribes a voice note and answers the transcript', async () => {
    const number = '5511940000004';
    ai.state.transcript = 'qual o horário de hoje';
    ai.state.reply = (req) => (req.json.messages.at(-1).content === 'qual o horário de hoje' ? 'Abrimos às 7h.' : 'não entendi');
    await customerSays(t.api, a.admin.token, wa, {
      from: number,
      body: '',
      media: { mimetype: 'audio/ogg', filename: 'voz.ogg', base64: Buffer.from('OggS fake voice').toString('base64') },
    });
    await eventually(async () => expect(await phoneText(wa, number)).toEqual(['Abrimos às 7h.']), 15_000);
    expect(ai.requests.some((r) => r.path === '/v1/audio/transcriptions')).toBe(true);
  });

  it("answers the message that brings a ticket into a queue with a prompt (the chatbot's choice)", async () => {
    const number = '5511940000005';
    const plain = await queue(a, { greetingMessage: 'Vendas', orderQueue: 1 });
    const bakery = await queue(a, { greetingMessage: 'Padaria', orderQueue: 2 });
    const queuePrompt = await createPrompt(a, plain.id);
    await t.api.put(`/queue/${bakery.id}`, { promptId: queuePrompt.id }, a.admin.token);
    const menu = (await connectSandbox(t.api, a.admin.token)).id;
    await t.api.put(`/whatsapp/${menu}`, { queueIds: [plain.id, bakery.id], greetingMessage: 'Escolha:' }, a.admin.token);
    ai.state.reply = () => 'Bem-vindo à padaria!';
    await customerSays(t.api, a.admin.token, menu, { from: number, body: 'Olá' });
    await eventually(async () => expect((await outbox(t.api, a.admin.token, menu)).length).toBeGreaterThan(0));
    await customerSays(t.api, a.admin.token, menu, { from: number, body: '2' });
    await eventually(async () => expect((await outbox(t.api, a.admin.token, menu)).map((m) => m.body)).toContain('Bem-vindo à padaria!'), 15_000);
    expect(await ticketOf(t.api, a.admin.token, number)).toMatchObject({ queueId: bakery.id, promptId: queuePrompt.id });
  });
});

describe("the prompt helping the agent", () => {
  it('suggests a reply (never sent) and summarises the conversation, on tickets the agent sees', async () => {
    const wa = (await connectSandbox(t.api, a.admin.token)).id;
    const q = await queue(a);
    const p = await createPrompt(a, q.id);
    await t.api.put(`/settings/aiAssistPromptId`, { value: String(p.id) }, a.admin.token);
    const number = '5511940000010';
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'Meu pedido 123 não chegou' });
    const ticket = await eventually(async () => (await ticketOf(t.api, a.admin.token, number)) ?? false);
    expect((await t.api.get(`/prompt/assist?ticketId=${ticket.id}`, a.admin.token)).body).toEqual({ available: true, promptId: p.id });
    ai.state.reply = (req) => (req.json.messages[0].content.includes('Summarise') ? 'Cliente reclama do pedido 123.' : 'Sinto muito! Vou verificar o pedido 123.');
    const suggestion = await t.api.post('/prompt/assist/suggest', { ticketId: ticket.id }, a.admin.token);
    expect(suggestion.body).toEqual({ suggestion: 'Sinto muito! Vou verificar o pedido 123.' });
    const summary = await t.api.post('/prompt/assist/summary', { ticketId: ticket.id }, a.admin.token);
    expect(summary.body).toEqual({ summary: 'Cliente reclama do pedido 123.' });
    await outboxSettled(t.app, wa);
    expect(await outbox(t.api, a.admin.token, wa)).toEqual([]);
    expectError(await t.api.post('/prompt/assist/suggest', { ticketId: ticket.id }, b.admin.token), 404, 'ERR_NO_TICKET_FOUND');
    const [usage] = await sql(`select coalesce(sum(requests), 0)::int as n from ai_usages where company_id = ? and kind in ('suggestion', 'summary')`, [a.companyId]);
    expect(usage.n).toBeGreaterThanOrEqual(2);
  });

  it('adds the summary as an internal note when a ticket is transferred and the setting is on', async () => {
    const wa = (await connectSandbox(t.api, a.admin.token)).id;
    const from = await queue(a);
    const to = await queue(a);
    const p = await createPrompt(a, from.id);
    await t.api.put(`/queue/${from.id}`, { promptId: p.id }, a.admin.token);
    await t.api.put(`/settings/aiSummaryOnTransfer`, { value: 'enabled' }, a.admin.token);
    const number = '5511940000011';
    ai.state.reply = (req) => (req.json.messages[0].content.includes('Summarise') ? 'Resumo: quer trocar o produto.' : 'Claro!');
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'Quero trocar um produto' });
    const ticket = await eventually(async () => (await ticketOf(t.api, a.admin.token, number)) ?? false);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'open', userId: a.admin.id, queueId: from.id }, a.admin.token)).status).toBe(200);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'pending', userId: null, queueId: to.id }, a.admin.token)).status).toBe(200);
    await eventually(async () => expect((await notesOf(a, ticket)).map((n) => n.note)).toContain('Resumo da IA:\nResumo: quer trocar o produto.'), 15_000);
    await t.api.put(`/settings/aiSummaryOnTransfer`, { value: 'disabled' }, a.admin.token);
  });
});
