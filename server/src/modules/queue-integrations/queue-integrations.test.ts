import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectSandbox, customerSays, outbox, ticketOf } from '../../../testing/conversation.js';
import { startDialogflowServer } from '../../../testing/dialogflow-server.js';
import { expectError, expectInvalid } from '../../../testing/expect.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { startTypebotServer, text } from '../../../testing/typebot-server.js';
import { startWebhookReceiver } from '../../../testing/webhook-receiver.js';
import { httpRequest, isPrivateAddress, RefusedAddressError } from './outbound-http.js';

/** Queue integrations (issue 21): the /queueIntegration calls and each integration's conversation through the sandbox phone. */
let typebot: Awaited<ReturnType<typeof startTypebotServer>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let dialogflow: Awaited<ReturnType<typeof startDialogflowServer>>;
let t: TestApp;
let a: Tenant;
let b: Tenant;

const hex = () => randomBytes(3).toString('hex');
const sql = <T = any>(query: string, params: unknown[] = []): Promise<T[]> => t.app.orm.em.fork().getConnection().execute(query, params);
const queue = async (tenant: Tenant, body: Record<string, unknown> = {}) => {
  const res = await t.api.post('/queue', { name: `Queue ${hex()}`, color: `#${hex()}`, greetingMessage: 'Olá!', ...body }, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number };
};
const integration = async (tenant: Tenant, body: Record<string, unknown>) => {
  const res = await t.api.post('/queueIntegration', { name: `Bot ${hex()}`, ...body }, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; signingSecret?: string };
};
const notesOf = async (ticket: { id: number; contactId: number }) =>
  ((await t.api.get(`/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, a.admin.token)).body as { note: string }[]).map((n) => n.note);
const phone = async (wa: number, number: string) => (await outbox(t.api, a.admin.token, wa)).filter((m) => m.to.includes(number)).map((m) => m.body);
/** A sandbox connection whose tickets without a queue are answered by the integration. */
const connectionWith = async (integrationId: number) => {
  const wa = (await connectSandbox(t.api, a.admin.token)).id;
  const res = await t.api.put(`/whatsapp/${wa}`, { integrationId }, a.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return wa;
};

beforeAll(async () => {
  [typebot, receiver, dialogflow] = await Promise.all([startTypebotServer('atendimento'), startWebhookReceiver(), startDialogflowServer()]);
  t = await startTestApp({
    INTEGRATIONS_ALLOW_PRIVATE_NETWORK: 'true',
    WEBHOOK_RETRY_DELAYS: '0.2,0.2',
    DIALOGFLOW_API_ENDPOINT: dialogflow.url,
    PUBLIC_URL: 'http://atrium.test',
  });
  const roomy = await t.api.post('/plans', { name: `Roomy ${hex()}`, users: 10, connections: 50, queues: 100, value: 0 }, t.superToken);
  a = await createTenant(t, 'Integrations', roomy.body.id);
  b = await createTenant(t, 'Other');
});
// The local services are shared: each test starts with them as they started (the receiver expects no
// authorization and answers ok, the bots answer their default flows), whatever an earlier test told them.
let defaults: [typeof receiver.state, typeof typebot.state, typeof dialogflow.state];
beforeAll(() => {
  defaults = [{ ...receiver.state }, { ...typebot.state }, { ...dialogflow.state }];
});
beforeEach(() => {
  Object.assign(receiver.state, defaults[0]);
  Object.assign(typebot.state, defaults[1]);
  Object.assign(dialogflow.state, defaults[2]);
});
afterAll(async () => {
  await t?.stop();
  await Promise.all([typebot?.close(), receiver?.close(), dialogflow?.close()]);
});

describe('/queueIntegration', () => {
  it('creates each type with its required fields (spec 02 section 5); projectName follows the name', async () => {
    expectInvalid(await t.api.post('/queueIntegration', { type: 'typebot', name: 'T', urlN8N: typebot.url }, a.admin.token), 'name', 'typebotSlug');
    expectInvalid(await t.api.post('/queueIntegration', { type: 'n8n', name: 'Sem URL' }, a.admin.token), 'urlN8N');
    expectInvalid(await t.api.post('/queueIntegration', { type: 'n8n', name: 'URL ruim', urlN8N: 'ftp://x' }, a.admin.token), 'urlN8N');
    expectInvalid(await t.api.post('/queueIntegration', { type: 'dialogflow', name: 'Sem chave' }, a.admin.token), 'projectName', 'jsonContent');
    expectError(
      await t.api.post('/queueIntegration', { type: 'dialogflow', name: 'Chave ruim', projectName: 'p', jsonContent: '{"a":1}' }, a.admin.token),
      400,
      'ERR_INTEGRATION_INVALID_CREDENTIALS',
    );
    const created = await integration(a, { type: 'typebot', name: 'Typebot Vendas', projectName: 'ignored', urlN8N: typebot.url, typebotSlug: 'atendimento' });
    expect(created).toMatchObject({ type: 'typebot', name: 'Typebot Vendas', projectName: 'Typebot Vendas', typebotDelayMessage: 1000, typebotExpires: 1 });
    expectError(await t.api.post('/queueIntegration', { type: 'n8n', name: 'typebot vendas', urlN8N: receiver.url }, a.admin.token), 409, 'ERR_INTEGRATION_NAME_ALREADY_EXISTS');
  });

  it('keeps credentials write-only and sealed; the signing secret is shown once', async () => {
    const flow = await integration(a, { type: 'dialogflow', projectName: 'atrium-agent', jsonContent: JSON.stringify(dialogflow.account), language: 'pt-BR' });
    expect(flow).toMatchObject({ hasJsonContent: true, serviceAccountEmail: dialogflow.account.client_email });
    expect(JSON.stringify(flow)).not.toContain('PRIVATE KEY');
    const [row] = await sql(`select json_content_sealed from queue_integrations where id = ?`, [flow.id]);
    expect(row.json_content_sealed).not.toContain('PRIVATE');
    const hook = await integration(a, { type: 'webhook', urlN8N: receiver.url, authType: 'basic', authUser: 'n8n', authSecret: 'basic-secret-123456' });
    expect(hook.signingSecret).toMatch(/^whsec_/);
    const read = (await t.api.get(`/queueIntegration/${hook.id}`, a.admin.token)).body;
    expect(read).toMatchObject({ hasSigningSecret: true, signingSecretLast4: hook.signingSecret!.slice(-4), hasAuthSecret: true, authSecretLast4: '3456' });
    expect(read.signingSecret).toBeUndefined();
    expect(JSON.stringify((await t.api.get('/queueIntegration', a.agent.token)).body)).not.toContain('basic-secret');
    const rotated = await t.api.put(`/queueIntegration/${hook.id}`, { regenerateSigningSecret: true }, a.admin.token);
    expect(rotated.body.signingSecret).toMatch(/^whsec_/);
    expect(rotated.body.signingSecret).not.toBe(hook.signingSecret);
  });

  it('writes, tests and the delivery log are for admins; another company sees nothing', async () => {
    const hook = await integration(a, { type: 'n8n', urlN8N: receiver.url });
    expectError(await t.api.post('/queueIntegration', { type: 'n8n', name: `X ${hex()}`, urlN8N: receiver.url }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.put(`/queueIntegration/${hook.id}`, { name: 'Outro' }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.post('/queueIntegration/testSession', { id: hook.id }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.get(`/queueIntegration/${hook.id}/deliveries`, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.get(`/queueIntegration/${hook.id}`, b.admin.token), 404, 'ERR_NO_INTEGRATION_FOUND');
    expectError(await t.api.put(`/queueIntegration/${hook.id}`, { name: 'Tomado' }, b.admin.token), 404, 'ERR_NO_INTEGRATION_FOUND');
    expectError(await t.api.del(`/queueIntegration/${hook.id}`, b.admin.token), 404, 'ERR_NO_INTEGRATION_FOUND');
    expectError(await t.api.post('/queueIntegration/testSession', { id: hook.id }, b.admin.token), 404, 'ERR_NO_INTEGRATION_FOUND');
    expect((await t.api.get('/queueIntegration', b.admin.token)).body.queueIntegrations).toEqual([]);
    expectError(await t.api.put(`/whatsapp/${(await connectSandbox(t.api, b.admin.token)).id}`, { integrationId: hook.id }, b.admin.token), 404, 'ERR_NO_INTEGRATION_FOUND');
    expect((await t.api.get('/queueIntegration')).status).toBe(401);
  });

  it('is refused without the plan flag; in use, it cannot be deleted', async () => {
    const plan = await t.api.post('/plans', { name: `No bots ${hex()}`, users: 5, connections: 5, queues: 5, value: 0, useIntegrations: false }, t.superToken);
    const c = await createTenant(t, 'NoBots', plan.body.id);
    expectError(await t.api.get('/queueIntegration', c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await t.api.post('/queueIntegration', { type: 'n8n', name: 'x1', urlN8N: receiver.url }, c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    const hook = await integration(a, { type: 'n8n', urlN8N: receiver.url });
    const q = await queue(a, { integrationId: hook.id });
    expectError(await t.api.del(`/queueIntegration/${hook.id}`, a.admin.token), 409, 'ERR_INTEGRATION_IN_USE');
    await t.api.put(`/queue/${q.id}`, { integrationId: null }, a.admin.token);
    expect((await t.api.del(`/queueIntegration/${hook.id}`, a.admin.token)).status).toBe(200);
  });

  it('testSession really tries each type and answers {ok, error}', async () => {
    expect((await t.api.post('/queueIntegration/testSession', { projectName: 'atrium-agent', jsonContent: JSON.stringify(dialogflow.account), language: 'pt-BR' }, a.admin.token)).body).toEqual({ ok: true, error: null });
    expect((await t.api.post('/queueIntegration/testSession', { projectName: 'x', jsonContent: 'not json' }, a.admin.token)).body).toEqual({ ok: false, error: 'ERR_INTEGRATION_INVALID_CREDENTIALS' });
    expect((await t.api.post('/queueIntegration/testSession', { type: 'typebot', urlN8N: typebot.url, typebotSlug: 'atendimento' }, a.admin.token)).body).toEqual({ ok: true, error: null });
    expect((await t.api.post('/queueIntegration/testSession', { type: 'typebot', urlN8N: typebot.url, typebotSlug: 'nope' }, a.admin.token)).body).toEqual({ ok: false, error: 'HTTP 404' });
    const hook = await integration(a, { type: 'n8n', urlN8N: receiver.url });
    receiver.state.secret = hook.signingSecret!;
    expect((await t.api.post('/queueIntegration/testSession', { id: hook.id }, a.admin.token)).body).toEqual({ ok: true, error: null });
    expect(receiver.verified.at(-1)?.payload).toMatchObject({ event: 'ping', company: { id: a.companyId } });
  });
});

describe('requests to private addresses', () => {
  it('are refused unless INTEGRATIONS_ALLOW_PRIVATE_NETWORK is on', async () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '192.168.0.10', '169.254.169.254', '::1', 'fd00::1', '::ffff:127.0.0.1']) expect(isPrivateAddress(address)).toBe(true);
    for (const address of ['8.8.8.8', '2001:4860:4860::8888']) expect(isPrivateAddress(address)).toBe(false);
    await expect(httpRequest(`${receiver.url}/x`, { timeoutMs: 2000, allowPrivateNetwork: false })).rejects.toBeInstanceOf(RefusedAddressError);
    // A name that resolves to loopback is refused at connection time, not only a literal address.
    await expect(httpRequest(receiver.url.replace('127.0.0.1', 'localhost.'), { timeoutMs: 2000, allowPrivateNetwork: false })).rejects.toBeInstanceOf(RefusedAddressError);
    const allowed = await httpRequest(`${receiver.url}/x`, { timeoutMs: 2000, allowPrivateNetwork: true });
    expect(allowed.status).toBe(401);
  });
});

describe('Typebot through the sandbox phone', () => {
  let wa: number;
  let bot: { id: number };

  beforeAll(async () => {
    bot = await integration(a, {
      type: 'typebot',
      urlN8N: typebot.url,
      typebotSlug: 'atendimento',
      typebotDelayMessage: 0,
      typebotExpires: 5,
      typebotKeywordRestart: 'Recomeçar',
      typebotRestartMessage: 'Vamos recomeçar.',
      typebotKeywordFinish: 'sair',
      typebotUnknownMessage: 'Não entendi.',
    });
    wa = await connectionWith(bot.id);
  });
  // After the file's reset of the local services, before each test of this bot.
  beforeEach(() => {
    typebot.state.flow = (said) => {
      if (said === undefined) return { messages: [text('**Olá**, bem-vindo! Veja [o site](https://example.com).')], input: { type: 'choice input', items: [{ id: 'i1', content: 'Vendas' }, { id: 'i2', content: 'Suporte' }] } };
      if (said === 'Suporte') return { messages: [text('Descreva o problema, por favor.', 'b1'), text('Estamos online.', 'b2')], clientSideActions: [{ type: 'wait', lastBubbleBlockId: 'b1', wait: { secondsToWaitFor: 1 } }] };
      if (said === 'humano') return { messages: [text('Chamando alguém...'), text(`\\#{"queueId": ${handoffQueueId}}`)] };
      return { messages: [text('Invalid message. Please, try again.')] };
    };
  });
  let handoffQueueId = 0;

  it('starts a session, converts markdown, lists choices and accepts a number for one; a wait delays what follows', async () => {
    const number = '5511950000001';
    await customerSays(t.api, a.admin.token, wa, { from: number, name: 'Ana', body: 'oi' });
    await eventually(async () => expect(await phone(wa, number)).toEqual(['*Olá*, bem-vindo! Veja o site (https://example.com).', '1. Vendas\n2. Suporte']), 10_000);
    const start = typebot.starts().at(-1)!;
    expect(start.json).toMatchObject({ textBubbleContentFormat: 'markdown', prefilledVariables: { number, name: 'Ana' } });
    const ticket = await ticketOf(t.api, a.admin.token, number);
    expect(ticket).toMatchObject({ useIntegration: true, integrationId: bot.id });
    await customerSays(t.api, a.admin.token, wa, { from: number, body: '2' });
    await eventually(async () => expect((await phone(wa, number)).slice(2)).toEqual(['Descreva o problema, por favor.']), 10_000);
    expect(typebot.continues().at(-1)!.json.message).toEqual({ type: 'text', text: 'Suporte' });
    // The bubble after the wait comes after it.
    await eventually(async () => expect((await phone(wa, number)).slice(3)).toEqual(['Estamos online.']), 20_000, 200);
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'blá' });
    await eventually(async () => expect((await phone(wa, number)).at(-1)).toBe('Não entendi.'), 10_000);
  });

  it('restarts on the keyword (accents and case aside), expires after the customer is silent, and starts anew once when Typebot forgot the session', async () => {
    const number = '5511950000002';
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'oi' });
    await eventually(async () => expect(await phone(wa, number)).toHaveLength(2), 10_000);
    const starts = typebot.starts().length;
    await customerSays(t.api, a.admin.token, wa, { from: number, body: '  recomecar ' });
    await eventually(async () => expect((await phone(wa, number)).at(-1)).toBe('Vamos recomeçar.'), 10_000);
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'oi de novo' });
    await eventually(() => expect(typebot.starts().length).toBe(starts + 1), 10_000);
    await eventually(async () => expect(await phone(wa, number)).toHaveLength(5), 10_000);

    // Expiry counts from the customer's previous message: make it 10 minutes old.
    const ticket = await ticketOf(t.api, a.admin.token, number);
    await sql(`update conversation_holds set state = jsonb_set(state, '{lastInboundAt}', to_jsonb((now() - interval '10 minutes')::text)) where ticket_id = ?`, [ticket.id]);
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'voltei' });
    await eventually(() => expect(typebot.starts().length).toBe(starts + 2), 10_000);
    await eventually(async () => expect(await phone(wa, number)).toHaveLength(7), 10_000);

    // Typebot lost its sessions: one new session, not a loop.
    typebot.forget();
    const continues = typebot.continues().length;
    await customerSays(t.api, a.admin.token, wa, { from: number, body: '1' });
    await eventually(() => expect(typebot.starts().length).toBe(starts + 3), 10_000);
    await eventually(async () => expect(await phone(wa, number)).toHaveLength(9), 10_000);
    expect(typebot.continues().length).toBe(continues + 1);
  });

  it('hands the ticket to a queue on a "#" command, and to a person with a note when Typebot fails', async () => {
    handoffQueueId = (await queue(a)).id;
    const number = '5511950000003';
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'oi' });
    await eventually(async () => expect(await phone(wa, number)).toHaveLength(2), 10_000);
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'humano' });
    await eventually(async () => expect((await ticketOf(t.api, a.admin.token, number)).queueId).toBe(handoffQueueId), 10_000);
    expect(await ticketOf(t.api, a.admin.token, number)).toMatchObject({ status: 'pending', userId: null, useIntegration: false });
    await eventually(async () => expect(await phone(wa, number)).toContain('Chamando alguém...'));
    expect((await phone(wa, number)).some((m) => m.includes('queueId'))).toBe(false);

    const failing = '5511950000004';
    typebot.state.failNext = { status: 500, body: { message: 'boom' } };
    await customerSays(t.api, a.admin.token, wa, { from: failing, body: 'oi' });
    await eventually(async () => expect(await notesOf(await ticketOf(t.api, a.admin.token, failing))).toEqual([expect.stringContaining('HTTP 500')]), 10_000);
    expect(await ticketOf(t.api, a.admin.token, failing)).toMatchObject({ status: 'pending', useIntegration: false });
  });

  it('closes the ticket on the finish keyword', async () => {
    const number = '5511950000005';
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'oi' });
    await eventually(async () => expect(await phone(wa, number)).toHaveLength(2), 10_000);
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'SAIR' });
    await eventually(async () => expect((await ticketOf(t.api, a.admin.token, number)).status).toBe('closed'), 10_000);
  });
});

describe('n8n and webhooks through the sandbox phone', () => {
  it('posts a signed event with ids and a signed media URL, and sends back the synchronous reply', async () => {
    const hook = await integration(a, { type: 'n8n', urlN8N: `${receiver.url}/webhook/atrium`, authType: 'basic', authUser: 'n8n', authSecret: 'pass-123456789', webhookSync: true });
    receiver.state.secret = hook.signingSecret!;
    receiver.state.expectAuthorization = `Basic ${Buffer.from('n8n:pass-123456789').toString('base64')}`;
    receiver.state.respond = (req) => ({ body: { output: `Recebemos: ${req.json.message.body || req.json.message.type}` } });
    const wa = await connectionWith(hook.id);
    const number = '5511960000001';
    await customerSays(t.api, a.admin.token, wa, { from: number, name: 'Bia', body: 'Quero um orçamento' });
    await eventually(async () => expect(await phone(wa, number)).toEqual(['Recebemos: Quero um orçamento']), 10_000);
    const event = receiver.verified.at(-1)!.payload;
    const ticket = await ticketOf(t.api, a.admin.token, number);
    expect(event).toMatchObject({
      event: 'message.received',
      company: { id: a.companyId },
      connection: { id: wa },
      ticket: { id: ticket.id, uuid: ticket.uuid },
      contact: { id: ticket.contactId, number },
      message: { body: 'Quero um orçamento', type: 'chat', mediaUrl: null },
    });
    expect(receiver.verified.at(-1)!.id).toBe(`msg_${event.message.id}`);

    await customerSays(t.api, a.admin.token, wa, { from: number, body: '', media: { mimetype: 'image/png', filename: 'foto.png', base64: Buffer.from('png bytes').toString('base64') } });
    await eventually(() => expect(receiver.verified.at(-1)!.payload.message.type).toBe('image'), 10_000);
    const mediaUrl: string = receiver.verified.at(-1)!.payload.message.mediaUrl;
    expect(mediaUrl).toMatch(/^http:\/\/atrium\.test\/media\/\d+\/.+\?expires=\d+&signature=/);
    const media = await fetch(t.app.url + mediaUrl.replace('http://atrium.test', ''));
    expect(media.status).toBe(200);
  });

  it('retries timeouts and 5xx with backoff, shows each delivery in the log, and hands over to a person when it gives up', async () => {
    const hook = await integration(a, { type: 'webhook', urlN8N: receiver.url });
    receiver.state.secret = hook.signingSecret!;
    let calls = 0;
    receiver.state.respond = () => (++calls === 1 ? { status: 503, body: { message: 'busy' } } : { body: { ok: true } });
    const wa = await connectionWith(hook.id);
    const number = '5511960000002';
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'olá' });
    await eventually(async () => {
      const log = (await t.api.get(`/queueIntegration/${hook.id}/deliveries`, a.admin.token)).body.deliveries;
      expect(log).toMatchObject([{ status: 'delivered', attempts: 2, statusCode: 200, event: 'message.received' }]);
    }, 10_000);
    // Both attempts carried the same webhook-id, so the receiver can drop a repeat.
    const ids = receiver.requests.slice(-2).map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);

    receiver.state.respond = () => ({ status: 500, body: { message: 'down' } });
    const giveUp = '5511960000003';
    await customerSays(t.api, a.admin.token, wa, { from: giveUp, body: 'tem alguém?' });
    await eventually(async () => expect(await notesOf(await ticketOf(t.api, a.admin.token, giveUp))).toEqual([expect.stringContaining('HTTP 500')]), 10_000);
    const log = (await t.api.get(`/queueIntegration/${hook.id}/deliveries`, a.admin.token)).body.deliveries;
    expect(log[0]).toMatchObject({ status: 'failed', attempts: 3, statusCode: 500 });
  });
});

describe('Dialogflow ES through the sandbox phone', () => {
  it('asks detectIntent in the integration language, one session per ticket, sends the fulfilment texts and hands over at the end', async () => {
    const flow = await integration(a, { type: 'dialogflow', projectName: 'atrium-agent', jsonContent: JSON.stringify(dialogflow.account), language: 'es' });
    const handoffQueue = await queue(a, { integrationId: flow.id });
    const wa = (await connectSandbox(t.api, a.admin.token)).id;
    await t.api.put(`/whatsapp/${wa}`, { queueIds: [handoffQueue.id] }, a.admin.token);
    dialogflow.state.answer = (said) =>
      said === 'adiós'
        ? { fulfillmentMessages: [{ text: { text: ['¡Hasta luego!'] } }], intent: { displayName: 'Bye', endInteraction: true } }
        : { fulfillmentMessages: [{ text: { text: ['¡Hola!', '¿En qué puedo ayudar?'] } }], intent: { displayName: 'Welcome' } };
    const number = '5511970000001';
    // A connection with one queue puts the ticket straight in it: its integration answers that first message.
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'hola' });
    await eventually(async () => expect(await phone(wa, number)).toEqual(expect.arrayContaining(['¡Hola!', '¿En qué puedo ayudar?'])), 10_000);
    const ticket = await ticketOf(t.api, a.admin.token, number);
    const request = dialogflow.detections().at(-1)!;
    expect(request.json).toEqual({ queryInput: { text: { text: 'hola', languageCode: 'es' } } });
    expect(request.path).toContain(`/sessions/atrium-ticket-${ticket.id}:detectIntent`);
    await customerSays(t.api, a.admin.token, wa, { from: number, body: 'adiós' });
    await eventually(async () => expect(await notesOf(ticket)).toEqual([expect.stringContaining('encerrou')]), 10_000);
    expect(await phone(wa, number)).toContain('¡Hasta luego!');
    expect(await ticketOf(t.api, a.admin.token, number)).toMatchObject({ status: 'pending', useIntegration: false, queueId: handoffQueue.id });

    dialogflow.state.fail = true;
    const other = '5511970000002';
    await customerSays(t.api, a.admin.token, wa, { from: other, body: 'hola' });
    await eventually(async () => expect(await notesOf(await ticketOf(t.api, a.admin.token, other))).toEqual([expect.stringContaining('falhou')]), 15_000);
  });
});
