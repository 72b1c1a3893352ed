/* eslint-disable no-console -- a benchmark reports on the console */
/**
 * Benchmarks (figures, never assertions). Usage:
 *   npm run bench                 both
 *   npm run bench -- tickets      GET /tickets, search and GET /messages on a large company
 *   npm run bench -- inbound      20,000 sandbox messages through the whole pipeline
 * Starts its own embedded PostgreSQL in a temporary folder (or uses BENCH_DATABASE_URL).
 */
import http from 'node:http';
import { io } from 'socket.io-client';
import type { RunningApp } from '../src/app.js';
import { intArray } from '../src/db/sql.js';
import { Api } from '../testing/api.js';
import { cpuSeconds, databaseMs, reportLatency, resetStatementStats, runBench, statementReport, timed, withBenchApp } from './bench-app.js';

const SUPER = { email: 'bench@atrium.local', password: 'Bench-password-1' };

const report = (label: string, samples: number[]) => void reportLatency(label, samples);

/**
 * Times n requests of one kind and splits their cost: the database's time per request (pg_stat_statements)
 * and the CPU per request of Node (server and this client) and of PostgreSQL.
 */
const measured = async (app: RunningApp, label: string, n: number, fn: (i: number) => Promise<unknown>) => {
  await resetStatementStats(app);
  const cpu = cpuSeconds();
  const samples = await timed(n, fn);
  const after = cpuSeconds();
  const db = (await databaseMs(app)) / n;
  const s = [...samples].sort((a, b) => a - b);
  const p50 = s[Math.floor(s.length / 2)];
  report(label, samples);
  console.log(
    `${''.padEnd(44)} database ${db.toFixed(1)} ms/request, so Node and the wire ~${Math.max(0, p50 - db).toFixed(1)} ms of the p50; ` +
      `CPU/request: Node ${(((after.node - cpu.node) * 1000) / n).toFixed(1)} ms, PostgreSQL ${pgCpu(after.database - cpu.database, n)}`,
  );
};

/** A backend that ended meanwhile takes its CPU time out of the sum: no figure rather than a negative one. */
const pgCpu = (seconds: number, n: number) => (seconds < 0 ? 'n/a (a backend ended meanwhile)' : `${((seconds * 1000) / n).toFixed(1)} ms`);

/** BENCH_OTHERS=full: the 10 other companies are as large as the measured one (1.1 M tickets in all). */
const OTHERS_FULL = process.env.BENCH_OTHERS === 'full';

const WORDS = (
  'ola bom dia boa tarde pedido entrega atraso boleto pagamento pix cartao troca devolucao produto nota fiscal ' +
  'endereco cadastro senha acesso suporte tecnico internet lenta sinal modem instalacao visita agendamento ' +
  'cancelamento plano fatura desconto promocao garantia reembolso rastreio transportadora obrigado ajuda'
).split(' ');

/** One large company (100,000 tickets, 1,000,000 messages, 20,000 contacts, 50 agents in 10 queues) and 10 others. */
const seed = async (app: RunningApp) => {
  const conn = app.orm.em.fork().getConnection();
  const run = (sql: string, params: unknown[] = []) => conn.execute(sql, params);
  const started = performance.now();
  const planId = (await run(`insert into plans (name, users, connections, queues, value, created_at, updated_at)
    values ('Bench', 1000, 100, 100, 0, now(), now()) returning id`))[0].id;
  const companies: number[] = [];
  for (let c = 0; c < 11; c++) {
    companies.push(
      (await run(`insert into companies (name, plan_id, status, due_date, recurrence, language, timezone, created_at, updated_at)
        values (?, ?, true, '2099-12-31', 'MENSAL', 'pt', 'America/Sao_Paulo', now(), now()) returning id`, [`Bench ${c}`, planId]))[0].id,
    );
  }
  const big = companies[0];
  await run(`insert into settings (company_id, key, value) select c, k, v from unnest(?::int[]) c,
    (values ('CheckMsgIsGroup','enabled'),('userRating','disabled')) s(k, v)`, [intArray(companies)]);
  const hash = (await run(`select password_hash from users where email = ?`, [SUPER.email]))[0].password_hash;
  // 50 agents (the first is an admin), 10 queues; each agent serves 2 queues.
  await run(`insert into users (name, email, password_hash, profile, super, company_id, all_ticket, online, created_at, updated_at)
    select 'Agent ' || g, 'agent' || g || '@bench.local', ?, case when g = 1 then 'admin' else 'user' end, false, ?, 'desabled', false, now(), now()
    from generate_series(1, 50) g`, [hash, big]);
  await run(`insert into queues (company_id, name, color, greeting_message, out_of_hours_message, order_queue, schedules, created_at, updated_at)
    select ?, 'Queue ' || g, '#' || lpad(to_hex(g * 99999), 6, '0'), '', '', g, '[]', now(), now() from generate_series(1, 10) g`, [big]);
  await run(`insert into user_queues (user_id, queue_id, company_id)
    select u.id, q.id, ? from users u join queues q on q.company_id = u.company_id
    where u.company_id = ? and (q.order_queue = (u.id % 10) + 1 or q.order_queue = ((u.id + 5) % 10) + 1)`, [big, big]);
  for (const company of companies) {
    await run(`insert into whatsapps (company_id, name, status, qrcode, retries, is_default, provider, number, greeting_message,
        complation_message, out_of_hours_message, rating_message, expires_inactive_message, expires_ticket, time_use_bot_queues,
        max_use_bot_queues, time_to_transfer, created_at, updated_at)
      values (?, 'Main', 'CONNECTED', '', 0, true, 'sandbox', '5511900000000', '', '', '', '', '', 0, 0, 3, 0, now(), now())`, [company]);
  }
  const full = (i: number) => i === 0 || OTHERS_FULL;
  const sizes = companies.map((c, i) => ({ company: c, contacts: full(i) ? 20000 : 2000, tickets: full(i) ? 100000 : 5000, perTicket: 10 }));
  const words = `{${WORDS.join(',')}}`;
  for (const s of sizes) {
    await run(`insert into contacts (company_id, name, number, email, profile_pic_url, is_group, uuid, created_at, updated_at)
      select ?, (array['Ana','Bruno','Carla','Diego','Elisa','Fabio','Gabriela','Hugo','Iris','Jorge'])[1 + g % 10] || ' ' ||
        (array['Silva','Souza','Costa','Lima','Pereira','Alves','Rocha','Dias'])[1 + (g / 10) % 8] || ' ' || g,
        (5511900000000 + g * 7 + ? * 1000000)::text, '', '', false, gen_random_uuid(), now(), now()
      from generate_series(1, ?) g`, [s.company, s.company, s.contacts]);
    // Tickets: 85% closed, 10% open, 5% pending; active ones each on a different contact (one active per contact).
    // Ids of rows inserted in one statement are consecutive, so "first id + offset" picks rows cheaply.
    const base = (await run(`select (select min(id) from contacts where company_id = ?) as c, (select min(id) from users where company_id = ?) as u,
        (select count(*) from users where company_id = ?)::int as nu, (select min(id) from queues where company_id = ?) as q,
        (select count(*) from queues where company_id = ?)::int as nq, (select id from whatsapps where company_id = ?) as w`,
      [s.company, s.company, s.company, s.company, s.company, s.company]))[0];
    const active = Math.floor(s.tickets * 0.15);
    await run(`insert into tickets (uuid, company_id, status, contact_id, whatsapp_id, user_id, queue_id, is_group,
        last_message, last_message_at, last_from_me, unread_messages, rating_attempts, created_at, updated_at)
      select gen_random_uuid(), ?, st,
        case when st = 'closed' then ? + (g % ?) else ? + (g % ?) end,
        ?,
        case when st = 'pending' or ? = 0 then null else ? + (g % greatest(?, 1)) end,
        case when g % 7 = 0 or ? = 0 then null else ? + (g % greatest(?, 1)) end,
        false, 'ultima mensagem ' || g, ts, false, case when st = 'closed' then 0 else g % 3 end, 0, ts, ts
      from (select g, case when g > ? then 'closed' when g % 3 = 0 then 'pending' else 'open' end as st,
              now() - (g || ' minutes')::interval as ts from generate_series(1, ?) g) x`,
      [s.company, base.c, s.contacts, base.c, s.contacts, base.w, base.nu, base.u, base.nu, base.nq, base.q, base.nq, active, s.tickets]);
    await run(`insert into messages (company_id, ticket_id, wid, whatsapp_id, contact_id, body, from_me, read, ack, media_type,
        is_deleted, is_edited, is_system, created_at, updated_at)
      select t.company_id, t.id, 'B' || t.id || '-' || n, t.whatsapp_id, case when n % 2 = 0 then t.contact_id else null end,
        (?::text[])[1 + (t.id * 7 + n) % ?] || ' ' || (?::text[])[1 + (t.id * 13 + n * 3) % ?] || ' ' || (?::text[])[1 + (t.id + n * 11) % ?] || ' ' || t.id,
        n % 2 = 1, true, 3, 'chat', false, false, false, t.created_at + (n || ' seconds')::interval, t.created_at
      from tickets t cross join generate_series(1, ?) n where t.company_id = ?`,
      [words, WORDS.length, words, WORDS.length, words, WORDS.length, s.perTicket, s.company]);
  }
  // What autovacuum would do next anyway: measured during it, the first requests would pay for the seeding.
  await run('vacuum analyze');
  const counts = (await run(`select (select count(*) from tickets)::int as tickets, (select count(*) from messages)::int as messages,
    (select count(*) from contacts)::int as contacts`))[0];
  console.log(`seeded ${counts.tickets} tickets, ${counts.messages} messages, ${counts.contacts} contacts in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return { big };
};

const benchTickets = async (app: RunningApp, api: Api) => {
  const { big } = await seed(app);
  const conn = app.orm.em.fork().getConnection();
  const admin = await api.login('agent1@bench.local', SUPER.password);
  const agentRow = (await conn.execute(`select u.email from users u where u.company_id = ? and u.profile = 'user' order by u.id limit 1`, [big]))[0];
  const agent = await api.login(agentRow.email, SUPER.password);
  const ticketIds = (await conn.execute(`select id from tickets where company_id = ? order by random() limit 200`, [big])).map((r: any) => r.id);
  const n = 200;
  const get = async (url: string, token: string) => {
    const res = await api.get(url, token);
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  // Warm-up.
  await get('/tickets?status=open', admin.token);
  const m = (label: string, fn: (i: number) => Promise<unknown>) => measured(app, label, n, fn);
  await m('GET /tickets?status=open (admin)', () => get('/tickets?status=open', admin.token));
  await m('GET /tickets?status=pending (admin)', () => get('/tickets?status=pending', admin.token));
  await m('GET /tickets?status=open&showAll=true (admin)', (i) => get(`/tickets?status=open&showAll=true&pageNumber=${1 + (i % 5)}`, admin.token));
  await m('GET /tickets?status=pending (queue agent)', () => get('/tickets?status=pending', agent.token));
  await m('GET /tickets?status=open (queue agent)', () => get('/tickets?status=open', agent.token));
  await m('GET /tickets?searchParam=<word> (admin)', (i) => get(`/tickets?searchParam=${WORDS[i % WORDS.length]}`, admin.token));
  await m('GET /tickets?searchParam=<name> (admin)', (i) => get(`/tickets?searchParam=${['ana', 'bruno', 'carla', 'costa', 'lima'][i % 5]}`, admin.token));
  await m('GET /tickets?searchParam=<number> (agent)', (i) => get(`/tickets?searchParam=55119000${(i * 37) % 1000}`, agent.token));
  await m('GET /messages/{ticketId} (admin)', (i) => get(`/messages/${ticketIds[i % ticketIds.length]}`, admin.token));
};

/**
 * The customers' phone: a keep-alive node:http client, lighter than fetch, so the figures are the
 * server's and not the load generator's (both share this machine's two cores).
 */
const phoneAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const postJson = (baseUrl: string) => (path: string, body: unknown, token: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(
      `${baseUrl}${path}`,
      {
        method: 'POST',
        agent: phoneAgent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${token}` },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

const benchInbound = async (app: RunningApp, api: Api, superToken: string) => {
  const company = await api.post('/companies', { name: 'Inbound bench', email: 'inbound@bench.local', password: SUPER.password, planId: (await api.get('/plans/all', superToken)).body[0].id }, superToken);
  const admin = await api.login('inbound@bench.local', SUPER.password);
  const conn = await api.post('/whatsapp', { name: 'Bench phone', provider: 'sandbox' }, admin.token);
  await api.post(`/sandbox/${conn.body.id}/scan`, {}, admin.token);
  const total = Number(process.env.BENCH_INBOUND_TOTAL ?? 20000);
  const contacts = 2000;
  const replays = Math.round(total / 100);
  let events = 0;
  const socket = io(app.url, { transports: ['websocket'], query: { token: admin.token } });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.emit('joinNotification');
  socket.on(`company-${company.body.id}-appMessage`, (e: { action: string }) => {
    if (e.action === 'create') events++;
  });
  await new Promise((r) => setTimeout(r, 200));
  const jobs = Array.from({ length: total + replays }, (_, i) => {
    const n = i < total ? i : (i - total) * 97; // the last 200 are replays of earlier ids
    return { from: String(5521900000000 + (n % contacts)), body: `mensagem ${n} ${WORDS[n % WORDS.length]}`, id: `IN-${n}` };
  });
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
  const phone = postJson(app.url);
  let next = 0;
  await resetStatementStats(app);
  const cpuBefore = cpuSeconds();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        const res = await phone(`/sandbox/${conn.body.id}/messages`, job, admin.token);
        if (res.status !== 201) throw new Error(`inbound ${res.status} ${res.body}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuSeconds();
  await new Promise((r) => setTimeout(r, 1000));
  socket.close();
  const db = app.orm.em.fork().getConnection();
  const stored = (await db.execute(`select count(*)::int as n, count(distinct wid)::int as distinct_ids from messages where whatsapp_id = ?`, [conn.body.id]))[0];
  const tickets = (await db.execute(`select count(*)::int as n from tickets where whatsapp_id = ?`, [conn.body.id]))[0].n;
  console.log(
    `inbound: ${total} messages (+${replays} replays) from ${contacts} contacts in ${seconds.toFixed(1)} s = ${(total / seconds).toFixed(0)} messages/s; ` +
      `stored ${stored.n}, duplicates ${stored.n - stored.distinct_ids}, lost ${total - stored.distinct_ids}, tickets ${tickets}, realtime events ${events}`,
  );
  const perMessage = (a: number, b: number) => (((b - a) * 1000) / total).toFixed(2);
  console.log(
    `CPU per message: Node (server and this client) ${perMessage(cpuBefore.node, cpuAfter.node)} ms, ` +
      `PostgreSQL ${perMessage(cpuBefore.database, cpuAfter.database)} ms`,
  );
  await statementReport(app);
};

const main = () => {
  const which = process.argv[2] ?? 'all';
  return withBenchApp(SUPER, async (app) => {
    const api = new Api(app.url);
    const superToken = (await api.login(SUPER.email, SUPER.password)).token;
    if (which === 'all' || which === 'tickets') await benchTickets(app, api);
    if (which === 'all' || which === 'inbound') await benchInbound(app, api, superToken);
  });
};

runBench(main);
