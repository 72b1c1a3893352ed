import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT_HANDOFF_MARKER } from '@atrium/shared';
import { connectSandbox } from '../../../testing/conversation.js';
import { customer, edge, message, node, phraseCampaign, question, savedFlow, start } from '../../../testing/flows.js';
import { createTenant, eventually, jobDueNow, outboxSettled, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { startOpenAiServer } from '../../../testing/openai-server.js';
import { startTypebotServer, text } from '../../../testing/typebot-server.js';
import { expectError } from '../../../testing/expect.js';

/**
 * A flow's Typebot and OpenAI nodes (issue 22) against the local protocol servers the integrations' tests
 * use: the real `openai` package and our Typebot client talking HTTP to them, the customer on the sandbox
 * phone.
 */
let typebot: Awaited<ReturnType<typeof startTypebotServer>>;
let ai: Awaited<ReturnType<typeof startOpenAiServer>>;
let t: TestApp;
let a: Tenant;
let wa: number;
let numberSeq = 0;
const nextNumber = () => `55119${String(80000000 + ++numberSeq).padStart(8, '0')}`;
const who = () => customer(t.api, a.admin.token, wa, nextNumber());
const sql = <T = any>(query: string, params: unknown[] = []): Promise<T[]> => t.app.orm.em.fork().getConnection().execute(query, params);
/** The flow run of the customer's ticket, once it has this status. */
const runOf = (number: string, status: string) =>
  eventually(async () => {
    const [run] = await sql(
      `select r.id, r.status from flow_runs r join tickets t on t.id = r.ticket_id join contacts c on c.id = t.contact_id where c.number = ? order by r.id desc limit 1`,
      [number],
    );
    expect(run?.status).toBe(status);
    return run as { id: number; status: string };
  });
const stepsOf = async (runId: number) => (await sql(`select node_id, outcome, detail from flow_steps where run_id = ? order by id`, [runId])) as { node_id: string; outcome: string; detail: string | null }[];
const bearer = (req: { headers: Record<string, unknown> }) => String(req.headers.authorization);

beforeAll(async () => {
  [typebot, ai] = await Promise.all([startTypebotServer('vendas'), startOpenAiServer()]);
  // The package reads OPENAI_BASE_URL itself (as the prompts' tests do).
  process.env.OPENAI_BASE_URL = `${ai.url}/v1`;
  t = await startTestApp({ INTEGRATIONS_ALLOW_PRIVATE_NETWORK: 'true' });
  a = await createTenant(t, 'FlowsAi');
  wa = (await connectSandbox(t.api, a.admin.token)).id;
});
afterAll(async () => {
  await t?.stop();
  delete process.env.OPENAI_BASE_URL;
  await Promise.all([typebot?.close(), ai?.close()]);
});

describe('a Typebot node', () => {
  let flowId: number;
  beforeAll(async () => {
    const integration = await t.api.post(
      '/queueIntegration',
      { type: 'typebot', name: 'Typebot Vendas', urlN8N: typebot.url, typebotSlug: 'vendas', typebotDelayMessage: 0 },
      a.admin.token,
    );
    expect(integration.status, JSON.stringify(integration.body)).toBe(201);
    flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [
        start(),
        question('q', 'Antes, qual é o seu nome?', 'nome'),
        node('tb', 'typebot', { typebotIntegration: { id: integration.body.id, name: 'Typebot Vendas' } }),
        message('after', 'De volta ao fluxo, {{nome}}.'),
      ],
      connections: [edge('1', 'q'), edge('q', 'tb'), edge('tb', 'after')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'typebot' });
  });

  it('runs the conversation through Typebot until it ends, then the flow goes on by its output', async () => {
    typebot.state.flow = (said, session) => {
      if (said === undefined) return { messages: [text('**Olá!** Qual produto?')], input: { type: 'choice input', items: [{ id: 'c', content: 'Camisa' }, { id: 'b', content: 'Boné' }] } };
      if (session.length === 1) return { messages: [text(`Você escolheu ${said}. Quantas unidades?`)], input: { type: 'text input' } };
      return { messages: [text(`Pedido: ${session[1]} ${session[0]}. Obrigado!`)] };
    };
    const c = who();
    await c.says('Typebot');
    expect((await c.replies(1))[0].body).toBe('Antes, qual é o seu nome?');
    const startsBefore = typebot.starts().length;
    await c.says('Ana');
    expect((await c.replies(2)).map((m) => m.body)).toEqual(['*Olá!* Qual produto?', '1. Camisa\n2. Boné']);
    const started = typebot.starts().slice(startsBefore);
    expect(started).toHaveLength(1);
    expect(started[0].json.prefilledVariables).toMatchObject({ number: c.number, name: 'Maria Silva' });
    // A choice by its number goes to Typebot as the item's text; the flow does not answer meanwhile.
    await c.says('2');
    expect((await c.replies(1))[0].body).toBe('Você escolheu Boné. Quantas unidades?');
    expect(typebot.continues().at(-1)!.json.message).toEqual({ type: 'text', text: 'Boné' });
    await c.says('3');
    expect((await c.replies(2)).map((m) => m.body)).toEqual(['Pedido: 3 Boné. Obrigado!', 'De volta ao fluxo, Ana.']);
    const run = await runOf(c.number, 'done');
    const steps = await stepsOf(run.id);
    expect(steps.filter((s) => s.node_id === 'tb').map((s) => s.outcome)).toEqual(['handoff', 'forwarded', 'forwarded', 'a']);
  });

  it('hands the conversation to a person when Typebot fails, saying why in the flow log', async () => {
    typebot.state.flow = () => ({ messages: [text('nunca')], input: { type: 'text input' } });
    const c = who();
    await c.says('typebot');
    await c.replies(1);
    typebot.state.failNext = { status: 500, body: { message: 'boom' } };
    await c.says('Bruno');
    const run = await runOf(c.number, 'handed');
    expect((await stepsOf(run.id)).at(-1)).toMatchObject({ outcome: 'handed', detail: 'typebot failed: HTTP 500' });
    expect(await sql(`select count(*)::int as n from conversation_holds h join tickets t on t.id = h.ticket_id join contacts c on c.id = t.contact_id where c.number = ?`, [c.number])).toEqual([{ n: 0 }]);
    expect((await c.unread()).map((m) => m.body)).toEqual([]);
  });
});

describe("a Typebot node, as its integration's settings say", () => {
  let flowId: number;
  beforeAll(async () => {
    const integration = await t.api.post(
      '/queueIntegration',
      {
        type: 'typebot',
        name: 'Typebot Ajustes',
        urlN8N: typebot.url,
        typebotSlug: 'vendas',
        typebotDelayMessage: 0,
        typebotExpires: 5,
        typebotKeywordRestart: 'Recomeçar',
        typebotRestartMessage: 'Vamos recomeçar.',
        typebotKeywordFinish: 'sair',
      },
      a.admin.token,
    );
    expect(integration.status, JSON.stringify(integration.body)).toBe(201);
    flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), node('tb', 'typebot', { typebotIntegration: { id: integration.body.id, name: 'Typebot Ajustes' } }), message('after', 'De volta ao fluxo.')],
      connections: [edge('1', 'tb'), edge('tb', 'after')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'ajustes' });
  });

  /** The planned end of the Typebot wait action on the customer's ticket (its job id). */
  const laterJob = (number: string) =>
    eventually(async () => {
      const [job] = await sql<{ id: string }>(
        `select j.id::text as id from agenda_jobs j
           join tickets t on t.id = (j.data -> 'facts' ->> 'ticketId')::int join contacts c on c.id = t.contact_id
          where j.data -> 'data' ->> 'input' = 'typebot-later' and j.last_run_at is null and c.number = ?`,
        [number],
      );
      expect(job).toBeDefined();
      return job.id;
    });

  it("honours Typebot's waits between bubbles, and gives the flow back only after the last one", async () => {
    // An hour's wait: the test makes it due, rather than racing a short one.
    const waitAfter = (id: string) => [{ type: 'wait', lastBubbleBlockId: id, wait: { secondsToWaitFor: 3600 } }];
    typebot.state.flow = (said) =>
      said === undefined
        ? { messages: [text('Um momento...', 'w1'), text('Pronto!', 'w2')], input: { type: 'text input' }, clientSideActions: waitAfter('w1') }
        : { messages: [text('Obrigado', 'x1'), text('Tchau', 'x2')], clientSideActions: waitAfter('x1') };
    const c = who();
    await c.says('ajustes');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Um momento...']);
    const first = await laterJob(c.number);
    await outboxSettled(t.app, wa);
    expect((await c.unread()).map((m) => m.body)).toEqual([]);
    await jobDueNow(t.app, first);
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Pronto!']);

    await c.says('ok');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Obrigado']);
    const second = await laterJob(c.number);
    await outboxSettled(t.app, wa);
    expect((await c.unread()).map((m) => m.body)).toEqual([]);
    expect((await runOf(c.number, 'waiting')).status).toBe('waiting');
    await jobDueNow(t.app, second);
    expect((await c.replies(2)).map((m) => m.body)).toEqual(['Tchau', 'De volta ao fluxo.']);
    await runOf(c.number, 'done');
  });

  it('restarts on the keyword, starts anew after the expiry, and the finish keyword closes the conversation', async () => {
    typebot.state.flow = (said) => ({ messages: [text(said === undefined ? 'Olá, sou o bot.' : `Você disse: ${said}`)], input: { type: 'text input' } });
    const c = who();
    await c.says('ajustes');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Olá, sou o bot.']);
    const starts = typebot.starts().length;
    const continues = typebot.continues().length;

    // Accents and case aside; the keyword itself never reaches Typebot.
    await c.says('  recomecar ');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Vamos recomeçar.']);
    await c.says('oi de novo');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Olá, sou o bot.']);
    expect(typebot.starts().length).toBe(starts + 1);

    await c.says('tudo bem');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Você disse: tudo bem']);
    expect(typebot.continues().length).toBe(continues + 1);

    // Expiry counts from the customer's previous message: make it 10 minutes old (the integration says 5).
    const [ticket] = await sql<{ id: number }>(`select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = ?`, [c.number]);
    await sql(
      `update conversation_holds set state = jsonb_set(state, '{wait,state,lastInboundAt}', to_jsonb((now() - interval '10 minutes')::text)) where ticket_id = ?`,
      [ticket.id],
    );
    await c.says('voltei');
    expect((await c.replies(1)).map((m) => m.body)).toEqual(['Olá, sou o bot.']);
    expect(typebot.starts().length).toBe(starts + 2);
    expect(typebot.continues().length).toBe(continues + 1);

    await c.says('SAIR');
    await eventually(async () => expect((await sql(`select status from tickets where id = ?`, [ticket.id]))[0].status).toBe('closed'));
    const run = await runOf(c.number, 'done');
    expect((await stepsOf(run.id)).at(-1)).toMatchObject({ outcome: 'done', detail: 'Typebot finish keyword' });
    expect(typebot.continues().length).toBe(continues + 1);
  });
});

describe('an OpenAI node', () => {
  it('answers with its own prompt, model and sealed key until the customer asks for a person, then the flow goes on', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [
        start(),
        node('ai', 'openai', {
          typebotIntegration: { name: 'Vendedor', apiKey: 'sk-flow-node-1234', prompt: 'Você vende camisas da loja Atrium.', model: 'gpt-4.1', maxTokens: 120, temperature: 0.4, maxMessages: 6 },
        }),
        message('after', 'Um atendente vai falar com você.'),
      ],
      connections: [edge('1', 'ai'), edge('ai', 'after')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'quero comprar' });
    ai.state.reply = (req) => {
      const last = [...req.json.messages].reverse().find((m: { role: string }) => m.role === 'user')?.content ?? '';
      return /atendente/i.test(last) ? `${PROMPT_HANDOFF_MARKER}. Claro!` : `Temos camisas, você disse: ${last}`;
    };
    const chatsBefore = ai.chats().length;
    const c = who();
    await c.says('quero comprar');
    expect((await c.replies(1))[0].body).toBe('Temos camisas, você disse: quero comprar');
    await c.says('qual o preço?');
    expect((await c.replies(1))[0].body).toBe('Temos camisas, você disse: qual o preço?');
    await c.says('quero um atendente');
    expect((await c.replies(2)).map((m) => m.body)).toEqual(['Claro!', 'Um atendente vai falar com você.']);
    await runOf(c.number, 'done');

    const chats = ai.chats().slice(chatsBefore);
    expect(chats).toHaveLength(3);
    expect(chats.map(bearer)).toEqual(Array(3).fill('Bearer sk-flow-node-1234'));
    expect(chats[1].json).toMatchObject({ model: 'gpt-4.1', max_tokens: 120, temperature: 0.4 });
    expect(chats[1].json.messages[0]).toMatchObject({ role: 'system' });
    expect(chats[1].json.messages[0].content).toContain('Você vende camisas da loja Atrium.');
    // The history in order, the current message last and once.
    expect(chats[1].json.messages.slice(1)).toEqual([
      { role: 'user', content: 'quero comprar' },
      { role: 'assistant', content: 'Temos camisas, você disse: quero comprar' },
      { role: 'user', content: 'qual o preço?' },
    ]);
  });

  it('with a voice chosen, the answer goes out as a voice note spoken with the node\'s key (as text when it cannot be spoken)', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [
        start(),
        node('ai', 'openai', { typebotIntegration: { name: 'Voz', apiKey: 'sk-voice-node-7', prompt: 'Responda curto.', voice: 'pt-BR-FranciscaNeural' } }),
        message('after', 'nunca'),
      ],
      connections: [edge('1', 'ai'), edge('ai', 'after')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'fala comigo' });
    ai.state.reply = () => 'Oi! Em que posso ajudar?';
    const speechesBefore = ai.speeches().length;
    const c = who();
    await c.says('fala comigo');
    const [voice] = await c.replies(1);
    expect(voice).toMatchObject({ mediaType: 'audio' });
    const spoken = ai.speeches().slice(speechesBefore);
    expect(spoken).toHaveLength(1);
    expect(spoken[0].json).toMatchObject({ model: 'tts-1', voice: 'nova', input: 'Oi! Em que posso ajudar?', response_format: 'opus' });
    expect(bearer(spoken[0])).toBe('Bearer sk-voice-node-7');

    // The provider cannot speak now: the words still reach the customer.
    ai.state.speech = ai.error(500, 'server_error', 'server_error');
    try {
      await c.says('e agora?');
      expect((await c.replies(1))[0]).toMatchObject({ body: 'Oi! Em que posso ajudar?' });
    } finally {
      ai.state.speech = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(70, 7)]);
    }
  });

  it('a refused key hands the conversation to a person', async () => {
    const flowId = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), node('ai', 'openai', { typebotIntegration: { name: 'Chave ruim', apiKey: 'sk-bad-key-000', prompt: 'x' } }), message('after', 'nunca')],
      connections: [edge('1', 'ai'), edge('ai', 'after')],
    });
    await phraseCampaign(t.api, a.admin.token, { flowId, whatsappId: wa, phrase: 'chave ruim' });
    const c = who();
    await c.says('chave ruim');
    const run = await runOf(c.number, 'handed');
    expect((await stepsOf(run.id)).at(-1)).toMatchObject({ outcome: 'handed', detail: 'openai failed: ERR_AI_INVALID_API_KEY' });
    expect((await c.unread()).map((m) => m.body)).toEqual([]);
  });
});

describe('the test panel', () => {
  it('a Typebot node answers in the panel through the same engine path, then the flow goes on', async () => {
    const integration = await t.api.post('/queueIntegration', { type: 'typebot', name: 'Typebot Painel', urlN8N: typebot.url, typebotSlug: 'vendas', typebotDelayMessage: 0 }, a.admin.token);
    typebot.state.flow = (said) =>
      said === undefined
        ? { messages: [text('Oi, aguarde', 'p1'), text('Qual cor?', 'p2')], input: { type: 'text input' }, clientSideActions: [{ type: 'wait', lastBubbleBlockId: 'p1', wait: { secondsToWaitFor: 2 } }] }
        : { messages: [text(`Cor ${said} anotada.`)] };
    const graph = {
      nodes: [start(), node('tb', 'typebot', { typebotIntegration: { id: integration.body.id, name: 'Typebot Painel' } }), message('after', 'Fim do teste.')],
      connections: [edge('1', 'tb'), edge('tb', 'after')],
    };
    const startsBefore = typebot.starts().length;
    const first = await t.api.post('/flowbuilder/test', { graph, event: 'start' }, a.admin.token);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.replies).toEqual([
      { kind: 'handoff', to: 'typebot', nodeId: 'tb' },
      { kind: 'text', body: 'Oi, aguarde', nodeId: 'tb' },
      { kind: 'pause', seconds: 2, nodeId: 'tb' },
      { kind: 'text', body: 'Qual cor?', nodeId: 'tb' },
    ]);
    expect(first.body.status).toBe('waiting');
    expect(typebot.starts().length).toBe(startsBefore + 1);
    const second = await t.api.post('/flowbuilder/test', { graph, event: 'message', body: 'azul', session: first.body.session }, a.admin.token);
    expect(second.body.replies).toEqual([
      { kind: 'text', body: 'Cor azul anotada.', nodeId: 'tb' },
      { kind: 'text', body: 'Fim do teste.', nodeId: 'after' },
    ]);
    expect(second.body).toMatchObject({ status: 'done', session: null });
    expect(second.body.path.map((p: { nodeId: string; outcome: string }) => `${p.nodeId}:${p.outcome}`)).toEqual(['tb:forwarded', 'tb:a', 'after:a', 'after:done']);
  });

  it("an OpenAI node answers with the saved flow's key (never sent back) and the panel's own history", async () => {
    const saved = await savedFlow(t.api, a.admin.token, {
      nodes: [start(), node('ai', 'openai', { typebotIntegration: { name: 'Painel IA', apiKey: 'sk-panel-key-42', prompt: 'Você testa o painel.', model: 'gpt-4.1' } }), message('after', 'Passou para o fluxo.')],
      connections: [edge('1', 'ai'), edge('ai', 'after')],
    });
    // The canvas as the editor has it: the key is not in it, only that one is kept.
    const doc = (await t.api.get(`/flowbuilder/flow/${saved}`, a.admin.token)).body.flow.flow;
    expect(JSON.stringify(doc)).not.toContain('sk-panel-key-42');
    ai.state.reply = (req) => {
      const last = [...req.json.messages].reverse().find((m: { role: string }) => m.role === 'user')?.content ?? '';
      return /tchau/i.test(last) ? `${PROMPT_HANDOFF_MARKER}. Até logo!` : `Eco: ${last}`;
    };
    const chatsBefore = ai.chats().length;
    const first = await t.api.post('/flowbuilder/test', { flowId: saved, graph: doc, event: 'start' }, a.admin.token);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.replies).toEqual([{ kind: 'handoff', to: 'openai', nodeId: 'ai' }]);
    const second = await t.api.post('/flowbuilder/test', { flowId: saved, graph: doc, event: 'message', body: 'olá', session: first.body.session }, a.admin.token);
    expect(second.body.replies).toEqual([{ kind: 'text', body: 'Eco: olá', nodeId: 'ai' }]);
    const third = await t.api.post('/flowbuilder/test', { flowId: saved, graph: doc, event: 'message', body: 'tchau', session: second.body.session }, a.admin.token);
    expect(third.body.replies).toEqual([
      { kind: 'text', body: 'Até logo!', nodeId: 'ai' },
      { kind: 'text', body: 'Passou para o fluxo.', nodeId: 'after' },
    ]);
    expect(third.body.status).toBe('done');
    const chats = ai.chats().slice(chatsBefore);
    expect(chats.map(bearer)).toEqual(Array(chats.length).fill('Bearer sk-panel-key-42'));
    expect(chats.at(-1)!.json.messages.slice(1)).toEqual([
      { role: 'user', content: 'olá' },
      { role: 'assistant', content: 'Eco: olá' },
      { role: 'user', content: 'tchau' },
    ]);
    expect(JSON.stringify([first.body, second.body, third.body])).not.toContain('sk-panel-key-42');
  });

  it('an OpenAI node with a voice answers with the voice note itself, its words beside it (text when it cannot be spoken)', async () => {
    const graph = {
      nodes: [start(), node('ai', 'openai', { typebotIntegration: { name: 'Painel voz', apiKey: 'sk-panel-voice-3', prompt: 'Fale.', voice: 'pt-BR-AntonioNeural' } })],
      connections: [edge('1', 'ai')],
    };
    ai.state.reply = () => 'Olá, sou a voz.';
    const first = await t.api.post('/flowbuilder/test', { graph, event: 'start' }, a.admin.token);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const speechesBefore = ai.speeches().length;
    const second = await t.api.post('/flowbuilder/test', { graph, event: 'message', body: 'oi', session: first.body.session }, a.admin.token);
    expect(second.body.replies).toEqual([
      { kind: 'media', mediaType: 'audio', voiceNote: true, nodeId: 'ai', text: 'Olá, sou a voz.', url: expect.stringMatching(/^data:audio\/ogg;base64,/) },
    ]);
    // The very audio the provider spoke, with the node's key and its voice.
    const spoken = ai.speeches().slice(speechesBefore);
    expect(spoken).toHaveLength(1);
    expect(spoken[0].json).toMatchObject({ voice: 'onyx', input: 'Olá, sou a voz.' });
    expect(bearer(spoken[0])).toBe('Bearer sk-panel-voice-3');
    expect(Buffer.from(second.body.replies[0].url.split(',')[1], 'base64').equals(ai.state.speech as Buffer)).toBe(true);

    ai.state.speech = ai.error(500, 'server_error', 'server_error');
    try {
      const third = await t.api.post('/flowbuilder/test', { graph, event: 'message', body: 'de novo', session: second.body.session }, a.admin.token);
      expect(third.body.replies).toEqual([{ kind: 'text', body: 'Olá, sou a voz.', nodeId: 'ai' }]);
    } finally {
      ai.state.speech = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(70, 7)]);
    }
  });
});

describe('the plan', () => {
  it('without the AI flag an OpenAI node is refused on save; a flag switched off later hands the conversation to a person', async () => {
    const plan = await t.api.post('/plans', { name: `Flows plan ${Date.now()}`, users: 5, connections: 5, queues: 5, value: 0 }, t.superToken);
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const c = await createTenant(t, 'FlowsPlan', plan.body.id);
    const line = (await connectSandbox(t.api, c.admin.token)).id;
    const graph = {
      nodes: [start(), node('ai', 'openai', { typebotIntegration: { name: 'Plano', apiKey: 'sk-plan-node-1', prompt: 'x' } }), message('after', 'depois')],
      connections: [edge('1', 'ai'), edge('ai', 'after')],
    };
    const flowId = await savedFlow(t.api, c.admin.token, graph);
    await phraseCampaign(t.api, c.admin.token, { flowId, whatsappId: line, phrase: 'plano' });
    expect((await t.api.put(`/plans/${plan.body.id}`, { useOpenAi: false }, t.superToken)).status).toBe(200);

    const another = await t.api.post('/flowbuilder', { name: 'Sem IA' }, c.admin.token);
    expectError(await t.api.post('/flowbuilder/flow', { idFlow: another.body.id, ...graph }, c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');

    const chatsBefore = ai.chats().length;
    const someone = customer(t.api, c.admin.token, line, nextNumber());
    await someone.says('plano');
    const run = await runOf(someone.number, 'handed');
    expect((await stepsOf(run.id)).at(-1)).toMatchObject({ outcome: 'handed', detail: 'openai failed: ERR_PLAN_FEATURE_DISABLED' });
    expect(ai.chats().length).toBe(chatsBefore);
  });
});
