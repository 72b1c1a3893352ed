/* eslint-disable no-console -- a benchmark reports on the console */
/**
 * npm run bench:flows: a 20-node flow without waits, driven by 1,000 sandbox conversations at once
 * (BENCH_FLOWS_CONVERSATIONS, BENCH_FLOWS_CONNECTIONS change the size). Each customer starts it with its
 * phrase, chooses a menu option, answers two questions, and the flow ends; the next message of a customer
 * goes once the server has handled the previous one (the sandbox route answers after the inbound steps).
 *
 * Figures: the server's processing of each customer message by the flows' inbound steps (their share of
 * the batch's candidate read plus their own run: the transaction with the nodes' sends, the session and
 * the log; waits and "typing…" excluded, they are the outbox's), the whole request as the phone sees it,
 * CPU per message, and the checks: every conversation done with exactly its messages, none stuck, none
 * answered twice.
 */
import { Worker } from 'node:worker_threads';
import type { FlowGraphInput } from '@atrium/shared';
import type { RunningApp } from '../src/app.js';
import type { InboundFacts, InboundStep } from '../src/pipeline/steps/step.js';
import { Api } from '../testing/api.js';
import { edge, menu, message, node, question, start } from '../testing/flows.js';
import { cpuSeconds, reportLatency, resetStatementStats, runBench, statementReport, withBenchApp } from './bench-app.js';

const SUPER = { email: 'bench@atrium.local', password: 'Bench-password-1' };
const CONVERSATIONS = Number(process.env.BENCH_FLOWS_CONVERSATIONS ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_FLOWS_CONNECTIONS ?? 1);

/** 20 nodes, no interval: start, greeting, menu of 3, per option a branch of questions, a condition, a randomizer. */
export const benchGraph = (): FlowGraphInput => ({
  nodes: [
    start(),
    message('hello', 'Olá {{firstName}}! Protocolo {{protocol}}.'),
    menu('menu', 'Como podemos ajudar?', ['Comprar', 'Suporte', 'Outro assunto']),
    message('buy', 'Ótimo, vamos à compra.'),
    message('help', 'Vamos resolver.'),
    message('other', 'Conte mais.'),
    question('name', 'Qual é o seu nome?', 'nome'),
    node('hasA', 'condition', { key: 'nome', condition: 'contains', value: 'a' }),
    message('withA', 'Seu nome tem a letra a, {{nome}}.'),
    message('withoutA', 'Seu nome não tem a letra a, {{nome}}.'),
    node('coin', 'randomizer', { percent: 50 }),
    message('heads', 'Cara.'),
    message('tails', 'Coroa.'),
    question('city', 'De qual cidade você fala?', 'cidade'),
    node('isSp', 'condition', { key: 'cidade', condition: 'equals', value: 'São Paulo' }),
    message('sp', 'Temos loja em São Paulo.'),
    message('elsewhere', 'Entregamos em {{cidade}}.'),
    message('summary', 'Resumo: {{nome}} de {{cidade}}.'),
    message('bye', 'Até logo, {{nome}}!'),
    message('never', 'Nunca enviado.'),
  ],
  connections: [
    edge('1', 'hello'),
    edge('hello', 'menu'),
    edge('menu', 'buy', 'a1'),
    edge('menu', 'help', 'a2'),
    edge('menu', 'other', 'a3'),
    edge('buy', 'name'),
    edge('help', 'name'),
    edge('other', 'name'),
    edge('name', 'hasA'),
    edge('hasA', 'withA', 'true'),
    edge('hasA', 'withoutA', 'false'),
    edge('withA', 'coin'),
    edge('withoutA', 'coin'),
    edge('coin', 'heads', 'a'),
    edge('coin', 'tails', 'b'),
    edge('heads', 'city'),
    edge('tails', 'city'),
    edge('city', 'isSp'),
    edge('isSp', 'sp', 'true'),
    edge('isSp', 'elsewhere', 'false'),
    edge('sp', 'summary'),
    edge('elsewhere', 'summary'),
    edge('summary', 'bye'),
  ],
});

/** What a customer says, and how many messages each answer brings back. */
const SCRIPT: { body: (i: number) => string; replies: number }[] = [
  { body: () => 'quero comprar', replies: 2 }, // hello, menu
  { body: (i) => String((i % 3) + 1), replies: 2 }, // branch message, name?
  { body: (i) => (i % 2 ? 'Ana' : 'Bruno'), replies: 3 }, // condition message, coin, city?
  { body: (i) => (i % 4 ? 'Recife' : 'São Paulo'), replies: 3 }, // sp/elsewhere, summary, bye
];
const EXPECTED_REPLIES = SCRIPT.reduce((n, s) => n + s.replies, 0);

/**
 * Times the flows' steps per message: each step's run, plus its share of the batch's candidate read. The
 * pipeline's step objects are wrapped in place (the resumed waits and deferred work find them by name).
 */
const timeFlowSteps = (app: RunningApp) => {
  const perMessage = new Map<InboundFacts, number>();
  const add = (facts: InboundFacts, ms: number) => perMessage.set(facts, (perMessage.get(facts) ?? 0) + ms);
  for (const step of app.pipeline.steps as InboundStep[]) {
    if (!['flow start', 'running flow', 'no-match flow'].includes(step.name)) continue;
    const { candidates, run } = step;
    step.candidates = async (batch) => {
      const t0 = performance.now();
      const wanted = await candidates(batch);
      const share = (performance.now() - t0) / Math.max(1, batch.length);
      for (const facts of batch) add(facts, share);
      return wanted;
    };
    step.run = async (facts) => {
      const t0 = performance.now();
      try {
        return await run(facts);
      } finally {
        add(facts, performance.now() - t0);
      }
    };
  }
  return perMessage;
};

const main = () =>
  withBenchApp(SUPER, async (app) => {
    const api = new Api(app.url);
    const superToken = (await api.login(SUPER.email, SUPER.password)).token;
    const planId = (await api.get('/plans/all', superToken)).body[0].id;
    await api.post('/companies', { name: 'Flows bench', email: 'flows@bench.local', password: SUPER.password, planId }, superToken);
    const admin = await api.login('flows@bench.local', SUPER.password);
    const flow = await api.post('/flowbuilder', { name: 'Bench flow' }, admin.token);
    const saved = await api.post('/flowbuilder/flow', { idFlow: flow.body.id, ...benchGraph() }, admin.token);
    if (saved.status !== 200) throw new Error(`save: ${saved.status} ${JSON.stringify(saved.body)}`);
    const phones: number[] = [];
    for (let c = 0; c < CONNECTIONS; c += 1) {
      const conn = await api.post('/whatsapp', { name: `Bench phone ${c + 1}`, provider: 'sandbox' }, admin.token);
      await api.post(`/sandbox/${conn.body.id}/scan`, {}, admin.token);
      await api.post('/flowcampaign', { name: `Bench ${c + 1}`, flowId: flow.body.id, whatsappId: conn.body.id, phrase: 'quero comprar' }, admin.token);
      phones.push(conn.body.id);
    }
    const perMessage = timeFlowSteps(app);
    const customers = Array.from({ length: CONVERSATIONS }, (_, i) => ({
      from: String(5511900000000 + i),
      name: `Cliente ${i}`,
      phone: phones[i % phones.length],
      bodies: SCRIPT.map((turn) => turn.body(i)),
    }));
    await resetStatementStats(app);
    const cpu = cpuSeconds();
    // The customers on a thread of their own (the server's event loop is the server's alone), started here.
    const client = new Worker(new URL('./flows-client.mjs', import.meta.url), {
      workerData: { url: app.url, email: 'flows@bench.local', password: SUPER.password, token: admin.token, customers },
    });
    const { requestMs, seconds } = await new Promise<{ requestMs: number[]; seconds: number }>((resolve, reject) => {
      client.once('message', resolve);
      client.once('error', reject);
      client.once('exit', (code) => reject(new Error(`the customers' thread stopped (${code}) before it was done`)));
    });
    await client.terminate();
    const after = cpuSeconds();
    const messages = CONVERSATIONS * SCRIPT.length;

    // Every reply leaves through the outbox; wait until the phones have them all (or nothing moves for 30 s).
    const db = app.orm.em.fork().getConnection();
    let last = -1;
    let still = Date.now();
    for (;;) {
      const [{ n }] = await db.execute(`select count(*)::int as n from sandbox_outbox`);
      if (n >= CONVERSATIONS * EXPECTED_REPLIES) break;
      if (n !== last) {
        last = n;
        still = Date.now();
      }
      if (Date.now() - still > 30_000) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const runs = await db.execute<{ status: string; n: number }[]>(`select status, count(*)::int as n from flow_runs group by status order by status`);
    const perCustomer = await db.execute<{ n: number; twice: number }[]>(
      `select count(*)::int as n, count(*) filter (where deliveries > 1)::int as twice from sandbox_outbox group by "to"`,
    );
    const stuck = CONVERSATIONS - (runs.find((r) => r.status === 'done')?.n ?? 0);
    const wrongCount = perCustomer.filter((c) => c.n !== EXPECTED_REPLIES).length + (CONVERSATIONS - perCustomer.length);
    const twice = perCustomer.reduce((s, c) => s + c.twice, 0);

    console.log(`flows: ${CONVERSATIONS} conversations at once over ${CONNECTIONS} connection(s), ${messages} customer messages in ${seconds.toFixed(1)} s (${(messages / seconds).toFixed(0)} messages/s)`);
    reportLatency('flow steps per customer message', [...perMessage.values()]);
    reportLatency('the request (store + steps, queued behind others)', requestMs);
    console.log(
      `CPU per customer message: Node (server and this client) ${(((after.node - cpu.node) * 1000) / messages).toFixed(2)} ms, PostgreSQL ${(((after.database - cpu.database) * 1000) / messages).toFixed(2)} ms`,
    );
    console.log(`runs: ${runs.map((r) => `${r.status} ${r.n}`).join(', ')}; stuck ${stuck}; customers without exactly ${EXPECTED_REPLIES} replies ${wrongCount}; answered twice ${twice}`);
    await statementReport(app, Number(process.env.BENCH_PG_TOP ?? 15));
  });

runBench(main);
