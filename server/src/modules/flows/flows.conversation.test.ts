import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, customerSays, outbox, ticketOf } from '../../../testing/conversation.js';
import { createTenant, eventually, outboxSettled, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { customer, edge, menu, message, node, phraseCampaign, question, savedFlow, start } from '../../../testing/flows.js';

/**
 * The conformance suite: whole flows driven through the sandbox phone, as a customer meets them (issue 22,
 * "Tests"). Each test has its own customer number; the phone's received messages are what is asserted.
 */
let t: TestApp;
let a: Tenant;
let wa: number;
let numberSeq = 0;
const nextNumber = () => `55119${String(70000000 + ++numberSeq).padStart(8, '0')}`;

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'Flows');
  wa = (await connectSandbox(t.api, a.admin.token)).id;
});
afterAll(() => t?.stop());

const sql = <T = any>(query: string, params: unknown[] = []): Promise<T[]> => t.app.orm.em.fork().getConnection().execute(query, params);
const who = () => customer(t.api, a.admin.token, wa, nextNumber());
/** Nothing more reaches the customer: the outbox has nothing due, and nothing unread came. */
const silent = async (c: ReturnType<typeof who>) => {
  await outboxSettled(t.app, wa);
  expect((await c.unread()).map((m) => m.body)).toEqual([]);
};

describe('a menu', () => {
  let flowId: number;
  beforeAll(async () => {
    flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [
        start(),
        menu('m', 'Olá {{firstName}}! Escolha:', ['Vendas', 'Suporte técnico', 'Financeiro'], { retries: 2 }),
        message('v', 'Vendas aqui.'),
        message('s', 'Suporte aqui.'),
        message('f', 'Financeiro aqui.'),
        message('inv', 'Vou chamar alguém.'),
      ],
      connections: [edge('1', 'm'), edge('m', 'v', 'a1'), edge('m', 's', 'a2'), edge('m', 'f', 'a3'), edge('m', 'inv', 'invalid')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'Quero Ajuda' });
  });

  it('sends numbered options and accepts "1", " 2", "3)", "[1]" and the option text, whatever case and accents', async () => {
    for (const [answer, expected] of [
      ['1', 'Vendas aqui.'],
      [' 2 ', 'Suporte aqui.'],
      ['3)', 'Financeiro aqui.'],
      ['[1]', 'Vendas aqui.'],
      ['suporte TECNICO', 'Suporte aqui.'],
    ]) {
      const c = who();
      await c.says('  quero   AJUDA ');
      const [asked] = await c.replies(1);
      expect(asked.body).toBe('Olá Maria! Escolha:\n\n[1] Vendas\n[2] Suporte técnico\n[3] Financeiro');
      await c.says(answer);
      expect((await c.replies(1)).map((m) => m.body)).toEqual([expected]);
      await silent(c);
    }
  });

  it('asks again on an invalid answer up to its retries, then takes the invalid output', async () => {
    const c = who();
    await c.says('quero ajuda');
    await c.replies(1);
    await c.says('banana');
    const [again] = await c.replies(1);
    expect(again.body).toContain('Opção inválida');
    expect(again.body).toContain('[2] Suporte técnico');
    // Still at the menu: a valid answer after an invalid one works (the old product ignored it).
    await c.says('9');
    await c.replies(1);
    await c.says('nada disso');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Vou chamar alguém.']);
    await silent(c);
  });

  it('a valid answer after an invalid one is taken', async () => {
    const c = who();
    await c.says('quero ajuda');
    await c.replies(1);
    await c.says('oi?');
    await c.replies(1);
    await c.says('2');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Suporte aqui.']);
  });
});

describe('a question', () => {
  it('stores the answer under its key, merges variables, and asks every question even when variables exist', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [
        start(),
        question('q1', 'Qual é o seu nome?', 'nome'),
        question('q2', 'Obrigado {{nome}}. Qual é a sua cidade?', 'cidade'),
        message('end', '{{nome}} de {{cidade}}, protocolo {{protocol}}. {{naoExiste}}fim'),
      ],
      connections: [edge('1', 'q1'), edge('q1', 'q2'), edge('q2', 'end')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'cadastro' });
    const c = who();
    await c.says('Cadastro');
    expect((await c.replies(1))[0].body).toBe('Qual é o seu nome?');
    await c.says('  Ana Souza ');
    expect((await c.replies(1))[0].body).toBe('Obrigado Ana Souza. Qual é a sua cidade?');
    await c.says('Recife');
    const [end] = await c.replies(1);
    expect(end.body).toMatch(/^Ana Souza de Recife, protocolo \d{14}\. fim$/);
    await silent(c);
  });
});

describe('a randomizer', () => {
  it('takes a and b in its proportion over 1,000 runs', async () => {
    // A phone of its own, so the other tests' conversations stay small to read.
    const phone = (await connectSandbox(t.api, a.admin.token)).id;
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), node('r', 'randomizer', { percent: 30 }), message('a', 'A'), message('b', 'B')],
      connections: [edge('1', 'r'), edge('r', 'a', 'a'), edge('r', 'b', 'b')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: phone, phrase: 'sorteio' });
    const numbers = Array.from({ length: 1000 }, () => nextNumber());
    // 1,000 customers, 50 at a time.
    for (let i = 0; i < numbers.length; i += 50) {
      await Promise.all(numbers.slice(i, i + 50).map((from) => customerSays(t.api, a.admin.token, phone, { from, body: 'sorteio' })));
    }
    const bodies = await eventually(async () => {
      const received = (await outbox(t.api, a.admin.token, phone)).map((m) => m.body);
      expect(received).toHaveLength(1000);
      return received;
    }, 60_000, 250);
    const share = bodies.filter((b) => b === 'A').length / 1000;
    // 30% of 1,000 runs: a 4.5-sigma band (sigma 1.45%) fails by chance about once in 150,000 runs.
    expect(share).toBeGreaterThan(0.235);
    expect(share).toBeLessThan(0.365);
    expect(await sql(`select count(*)::int as n from flow_runs r join tickets t on t.id = r.ticket_id where t.whatsapp_id = ? and r.status = 'done'`, [phone])).toEqual([{ n: 1000 }]);
  }, 600_000);
});

describe('a condition', () => {
  it('branches on a captured variable', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [
        start(),
        question('q', 'Quantos anos você tem?', 'idade'),
        node('c', 'condition', { key: 'idade', condition: 'greaterThan', value: '17' }),
        message('adult', 'Maior de idade.'),
        message('minor', 'Menor de idade.'),
      ],
      connections: [edge('1', 'q'), edge('q', 'c'), edge('c', 'adult', 'true'), edge('c', 'minor', 'false')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'idade' });
    for (const [age, expected] of [
      ['30', 'Maior de idade.'],
      ['12', 'Menor de idade.'],
    ]) {
      const c = who();
      await c.says('idade');
      await c.replies(1);
      await c.says(age);
      expect((await c.replies(1))[0].body).toBe(expected);
    }
  });
});

describe('a ticket node', () => {
  it('moves the ticket to its queue as pending and ends the flow', async () => {
    const queue = await t.api.post('/queue', { name: 'Fila do fluxo', color: '#123456' }, a.admin.token);
    expect(queue.status).toBe(201);
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), message('m', 'Transferindo.'), node('tk', 'ticket', { queue: { id: queue.body.id, name: 'Fila do fluxo' } }), message('never', 'nunca')],
      connections: [edge('1', 'm'), edge('m', 'tk')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'atendente' });
    const c = who();
    await c.says('atendente');
    await c.replies(1);
    const ticket = await ticketOf(t.api, a.admin.token, c.number);
    expect(ticket).toMatchObject({ status: 'pending', queueId: queue.body.id, userId: null });
    expect(await sql(`select holder from conversation_holds where ticket_id = ?`, [ticket.id])).toEqual([]);
    // The flow is over: the next message is nobody's flow.
    await c.says('alô?');
    await silent(c);
    const runs = await sql(`select status from flow_runs where ticket_id = ?`, [ticket.id]);
    expect(runs).toEqual([{ status: 'done' }]);
  });
});

describe('typebot and openai nodes', () => {
  // Their conversations are in flows.ai.test.ts, against the local Typebot and OpenAI servers.
  it('hand the conversation to a person when the client is gone, with the reason in the flow log', async () => {
    const integration = await t.api.post('/queueIntegration', { type: 'typebot', name: 'Bot apagado', urlN8N: 'http://typebot.test', typebotSlug: 'x' }, a.admin.token);
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), question('q', 'Seu nome?', 'nome'), node('x', 'typebot', { typebotIntegration: { id: integration.body.id, name: 'Bot' } }), message('never', 'nunca')],
      connections: [edge('1', 'q'), edge('q', 'x'), edge('x', 'never')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'fale com typebot' });
    const c = who();
    await c.says('fale com typebot');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Seu nome?']);
    // While the flow's saved canvas names it, the integration stays; once a new canvas no longer does, it
    // can go, and the customer still on the old version reaches a node whose client is gone.
    expect((await t.api.del(`/queueIntegration/${integration.body.id}`, a.admin.token)).status).toBe(409);
    expect((await t.api.post('/flowbuilder/flow', { idFlow: flowId, nodes: [start(), message('m', 'Oi')], connections: [edge('1', 'm')] }, a.admin.token)).status).toBe(200);
    expect((await t.api.del(`/queueIntegration/${integration.body.id}`, a.admin.token)).status).toBe(200);
    await c.says('Ana');
    const ticket = await ticketOf(t.api, a.admin.token, c.number);
    await eventually(async () => expect((await t.api.get(`/flowbuilder/log/${ticket.id}`, a.admin.token)).body.runs[0]).toMatchObject({ status: 'handed' }));
    expect(await ticketOf(t.api, a.admin.token, c.number)).toMatchObject({ status: 'pending', userId: null });
    expect(await sql(`select holder from conversation_holds where ticket_id = ?`, [ticket.id])).toEqual([]);
    const log = await t.api.get(`/flowbuilder/log/${ticket.id}`, a.admin.token);
    expect(log.body.runs[0].steps.at(-1)).toMatchObject({ nodeId: 'x', detail: 'typebot is not available' });
    await c.says('oi?');
    await silent(c);
  });
});

describe('phrases', () => {
  it('an inactive campaign, or a flow switched off, never starts', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, { nodes: [start(), message('m', 'Oi!')], connections: [edge('1', 'm')] });
    const campaignId = await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'promo inverno' });
    const c = who();
    expect((await t.api.put('/flowcampaign', { id: campaignId, status: false }, a.admin.token)).status).toBe(200);
    await c.says('promo inverno');
    await silent(c);
    expect((await t.api.put('/flowcampaign', { id: campaignId, status: true }, a.admin.token)).status).toBe(200);
    expect((await t.api.put('/flowbuilder', { flowId, active: false }, a.admin.token)).status).toBe(200);
    await c.says('promo inverno');
    await silent(c);
    expect((await t.api.put('/flowbuilder', { flowId, active: true }, a.admin.token)).status).toBe(200);
    await c.says('Promo Inverno');
    expect((await c.replies(1))[0].body).toBe('Oi!');
  });

  it('"contains" matches a phrase inside the message, whole words only', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, { nodes: [start(), message('m', 'Boleto!')], connections: [edge('1', 'm')] });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'segunda via', matchType: 'contains' });
    const c = who();
    await c.says('quero a SEGUNDA   VIA do boleto');
    expect((await c.replies(1))[0].body).toBe('Boleto!');
    await c.says('segunda viagem');
    await silent(c);
  });

  it('is unique per connection, compared without case, accents or spaces', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, { nodes: [start()], connections: [] });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'Promoção de Verão' });
    const again = await t.api.post('/flowcampaign', { name: 'dup', flowId, whatsappId: wa, phrase: '  promocao  de verao ' }, a.admin.token);
    expect(again).toMatchObject({ status: 409, body: { error: 'ERR_FLOW_PHRASE_ALREADY_EXISTS' } });
  });

  it('while a flow waits for an answer, a phrase is an answer, not a restart', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), question('q', 'Diga algo.', 'algo'), message('m', 'Você disse {{algo}}.')],
      connections: [edge('1', 'q'), edge('q', 'm')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'eco' });
    const c = who();
    await c.says('eco');
    await c.replies(1);
    await c.says('eco');
    expect((await c.replies(1))[0].body).toBe('Você disse eco.');
    await silent(c);
  });
});
