/* eslint-disable no-console -- a benchmark reports on the console */
/**
 * The mixed run of `npm run bench:outbox` (alone: `npm run bench:outbox -- mixed`): one sandbox connection
 * drains a 10,000-row campaign (queueBulk, no pacing) while agents reply on it over HTTP. Figures, never
 * assertions: the time to write the campaign, the agents' replies from queued to sent (the rows' own
 * created_at and sent_at), and the backlog's sends per second. BENCH_MIXED_ROWS, BENCH_MIXED_AGENTS and
 * BENCH_MIXED_REPLIES change the size. The server runs in this process (bench-app.ts), so the campaign is
 * written through the outbox's own API.
 */
import { forCompany } from '../src/db/tenant.js';
import type { RunningApp } from '../src/app.js';
import { queueBulk } from '../src/modules/outbox/index.js';
import { Api } from '../testing/api.js';
import { cpuSeconds, reportLatency, resetStatementStats, statementReport, withBenchApp } from './bench-app.js';

const ROWS = Number(process.env.BENCH_MIXED_ROWS ?? 10_000);
const AGENTS = Number(process.env.BENCH_MIXED_AGENTS ?? 8);
const REPLIES = Number(process.env.BENCH_MIXED_REPLIES ?? 300);
/** An agent's pause between two replies (load shaping: agents type). */
const AGENT_PAUSE_MS = 200;
const SUPER = { email: 'bench-mixed@atrium.local', password: 'Bench-mixed-1' };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const setUp = async (api: Api) => {
  const superToken = (await api.post('/auth/login', SUPER)).body.token as string;
  const plan = await api.post('/plans', { name: 'Mixed bench', users: 10, connections: 5, queues: 10 }, superToken);
  const company = await api.post('/companies', { name: 'Mixed bench', email: 'owner@mixed.bench', password: 'Owner-pass-1', planId: plan.body.id }, superToken);
  if (company.status !== 201) throw new Error(`company: ${company.status} ${JSON.stringify(company.body)}`);
  const token = (await api.post('/auth/login', { email: 'owner@mixed.bench', password: 'Owner-pass-1' })).body.token as string;
  const wa = await api.post('/whatsapp', { name: 'Campaign phone', provider: 'sandbox' }, token);
  await api.post(`/sandbox/${wa.body.id}/scan`, {}, token);
  const tickets: number[] = [];
  for (let i = 0; i < AGENTS; i++) {
    const customer = `5511${String(910000000 + i)}`;
    await api.post(`/sandbox/${wa.body.id}/messages`, { from: customer, name: `Customer ${i + 1}`, body: 'Oi' }, token);
    const list = await api.get(`/tickets?status=pending&searchParam=${customer}`, token);
    const ticket = (list.body.tickets as { id: number }[])[0];
    await api.put(`/tickets/${ticket.id}`, { status: 'open' }, token);
    tickets.push(ticket.id);
  }
  return { token, companyId: company.body.id as number, whatsappId: wa.body.id as number, tickets };
};

const mixed = async (app: RunningApp) => {
  const api = new Api(app.url);
  const { token, companyId, whatsappId, tickets } = await setUp(api);
  const db = () => app.orm.em.fork().getConnection();
  const pendingCampaign = async () =>
    Number(
      (await db().execute(`select count(*)::int as n from outbound_messages where whatsapp_id = ? and source_kind = 'campaign' and status <> 'sent'`, [whatsappId]))[0]
        .n,
    );
  console.log(`outbox mixed run: a ${ROWS}-row campaign on one connection (no pacing) while ${AGENTS} agents reply on it`);

  const rows = Array.from({ length: ROWS }, (_, i) => ({
    number: `5521${String(900000000 + i)}`,
    name: `Lead ${i + 1}`,
    body: `Oferta da semana ${i + 1}`,
    source: { kind: 'campaign' as const, id: i + 1 },
  }));
  await resetStatementStats(app);
  const written = performance.now();
  const writeCpu = cpuSeconds();
  await queueBulk({ media: app.media, events: app.events }, forCompany(app.orm.em.fork(), companyId), { whatsappId, rows });
  const writeMs = performance.now() - written;
  const writeUsed = cpuSeconds();
  console.log(
    `  campaign written (queueBulk, ${ROWS} rows, contacts created): ${writeMs.toFixed(0)} ms ` +
      `(CPU: Node ${((writeUsed.node - writeCpu.node) * 1000).toFixed(0)} ms, PostgreSQL ${((writeUsed.database - writeCpu.database) * 1000).toFixed(0)} ms)`,
  );

  const cpu = cpuSeconds();
  // Agents reply while the backlog drains; each reply's time from queued to sent is read from its row.
  let sent = 0;
  let repliedWhileDraining = 0;
  const agent = async (ticketId: number) => {
    while (sent < REPLIES) {
      sent += 1;
      const res = await api.post(`/messages/${ticketId}`, { body: `Resposta ${sent}` }, token);
      if (res.status !== 200) throw new Error(`reply: ${res.status} ${JSON.stringify(res.body)}`);
      await pause(AGENT_PAUSE_MS);
    }
  };
  const watcher = (async () => {
    while (sent < REPLIES) {
      if ((await pendingCampaign()) > 0) repliedWhileDraining = sent;
      await pause(200);
    }
  })();
  await Promise.all([...tickets.map(agent), watcher]);
  for (let left = await pendingCampaign(); left > 0; left = await pendingCampaign()) await pause(200);
  const used = cpuSeconds();

  const replies = (await db().execute(
    `select (extract(epoch from sent_at - created_at) * 1000)::float8 as ms from outbound_messages
      where whatsapp_id = ? and source_kind = 'agent' and status = 'sent'`,
    [whatsappId],
  )) as { ms: number }[];
  if (replies.length > 0) reportLatency(`  agent replies, queued → sent (${repliedWhileDraining} of them while the backlog drained)`, replies.map((r) => r.ms), 72);
  const [drain] = (await db().execute(
    `select count(*)::int as n, (extract(epoch from max(sent_at) - min(created_at)))::float8 as seconds
       from outbound_messages where whatsapp_id = ? and source_kind = 'campaign' and status = 'sent'`,
    [whatsappId],
  )) as { n: number; seconds: number }[];
  console.log(`  campaign backlog: ${drain.n} sent in ${drain.seconds.toFixed(1)} s, ${Math.round(drain.n / drain.seconds)} sends/s beside the replies`);
  // What each send cost (the replies' HTTP requests included), whatever else the machine was doing.
  const sends = drain.n + replies.length;
  console.log(
    `  CPU per send: Node ${(((used.node - cpu.node) * 1000) / sends).toFixed(2)} ms, PostgreSQL ${(((used.database - cpu.database) * 1000) / sends).toFixed(2)} ms`,
  );
  await statementReport(app);

  // The next campaign to the same list: its contacts exist (the connection is stopped: nothing is sent).
  await app.channels.stop(whatsappId);
  const again = performance.now();
  const againCpu = cpuSeconds();
  await queueBulk({ media: app.media, events: app.events }, forCompany(app.orm.em.fork(), companyId), {
    whatsappId,
    rows: rows.map((row) => ({ ...row, body: `Nova oferta ${row.source.id}` })),
  });
  const againUsed = cpuSeconds();
  console.log(
    `  a second campaign to the same ${ROWS} contacts written: ${(performance.now() - again).toFixed(0)} ms ` +
      `(CPU: Node ${((againUsed.node - againCpu.node) * 1000).toFixed(0)} ms, PostgreSQL ${((againUsed.database - againCpu.database) * 1000).toFixed(0)} ms)`,
  );
};

export const mixedRun = (): Promise<void> => withBenchApp(SUPER, mixed);
