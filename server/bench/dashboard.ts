/* eslint-disable no-console -- a benchmark reports on the console */
/**
 * Dashboard benchmark (figures, never assertions): `npm run bench:dashboard`.
 * Seeds the conversations benchmark's size (one company with 100,000 tickets, 20,000 contacts and 50 agents,
 * ten others with 5,000 tickets each; see run.ts) plus what the dashboard reads: about 1.2 attendance
 * cycles per ticket over 120 days and ratings for a third of the finished ones. Messages are left out:
 * no dashboard query reads them. Then times GET /dashboard for each period and both charts.
 * Starts its own embedded PostgreSQL in a temporary folder (or uses BENCH_DATABASE_URL).
 */
import type { RunningApp } from '../src/app.js';
import { intArray } from '../src/db/sql.js';
import { Api } from '../testing/api.js';
import { reportLatency, runBench, timed, withBenchApp } from './bench-app.js';

const SUPER = { email: 'bench@atrium.local', password: 'Bench-password-1' };
const TARGET_P95_MS = 200;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
/** Cycles are spread over this many days before now. */
const SPAN_DAYS = 120;

const results: { label: string; p95: number }[] = [];
const report = (label: string, samples: number[]) => results.push({ label, p95: reportLatency(label, samples, 58) });

const seed = async (app: RunningApp) => {
  const conn = app.orm.em.fork().getConnection();
  const run = (sql: string, params: unknown[] = []) => conn.execute(sql, params);
  // A BENCH_DATABASE_URL seeded by an earlier run is used as it is.
  const earlier = (await run(`select id from companies where name = 'Bench 0'`))[0];
  if (earlier) {
    console.log('using the data of an earlier run');
    return { big: earlier.id as number };
  }
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
    (values ('CheckMsgIsGroup','enabled'),('userRating','enabled')) s(k, v)`, [intArray(companies)]);
  const hash = (await run(`select password_hash from users where email = ?`, [SUPER.email]))[0].password_hash;
  for (const company of companies) {
    const agents = company === big ? 50 : 5;
    // The first user of each company is an admin; a third of the agents are online.
    await run(`insert into users (name, email, password_hash, profile, super, company_id, all_ticket, online, created_at, updated_at)
      select 'Agent ' || g, 'agent' || g || '-' || ? || '@bench.local', ?, case when g = 1 then 'admin' else 'user' end, false, ?,
        'desabled', g % 3 = 0, now(), now()
      from generate_series(1, ?) g`, [company, hash, company, agents]);
    await run(`insert into whatsapps (company_id, name, status, qrcode, retries, is_default, provider, number, greeting_message,
        complation_message, out_of_hours_message, rating_message, expires_inactive_message, expires_ticket, time_use_bot_queues,
        max_use_bot_queues, time_to_transfer, created_at, updated_at)
      values (?, 'Main', 'CONNECTED', '', 0, true, 'sandbox', '5511900000000', '', '', '', '', '', 0, 0, 3, 0, now(), now())`, [company]);
  }
  for (const company of companies) {
    const contacts = company === big ? 20000 : 2000;
    const tickets = company === big ? 100000 : 5000;
    await run(`insert into contacts (company_id, name, number, email, profile_pic_url, is_group, uuid, created_at, updated_at)
      select ?, 'Cliente ' || g, (5511900000000 + g * 7 + ? * 1000000)::text, '', '', false, gen_random_uuid(), now(), now()
      from generate_series(1, ?) g`, [company, company, contacts]);
    const base = (await run(`select (select min(id) from contacts where company_id = ?) as c, (select min(id) from users where company_id = ?) as u,
        (select count(*) from users where company_id = ?)::int as nu, (select id from whatsapps where company_id = ?) as w`,
      [company, company, company, company]))[0];
    // As run.ts: 85% closed, 10% open, 5% pending, the active ones each on their own contact; newest first.
    const active = Math.floor(tickets * 0.15);
    const step = Math.floor((SPAN_DAYS * 86400) / tickets);
    await run(`insert into tickets (uuid, company_id, status, contact_id, whatsapp_id, user_id, queue_id, is_group,
        last_message, last_message_at, last_from_me, unread_messages, rating_attempts, created_at, updated_at)
      select gen_random_uuid(), ?, st, case when st = 'closed' then ? + (g % ?) else ? + (g % ?) end, ?,
        case when st = 'pending' then null else ? + (g % ?) end,
        null, false, 'ultima mensagem ' || g, ts, false, 0, 0, ts, ts
      from (select g, case when g > ? then 'closed' when g % 3 = 0 then 'pending' else 'open' end as st,
              now() - (g * ? || ' seconds')::interval as ts from generate_series(1, ?) g) x`,
      [company, base.c, contacts, base.c, contacts, base.w, base.u, base.nu, active, step, tickets]);
    // One cycle per ticket: waited 1-30 min, served 5-64 min (a third up to a rating request), finished if closed.
    await run(`insert into ticket_trackings (company_id, ticket_id, whatsapp_id, user_id, queue_id, queued_at, started_at, finished_at,
        rating_at, rated, created_at)
      select t.company_id, t.id, t.whatsapp_id, t.user_id, null, t.created_at,
        case when t.status = 'pending' then null else t.created_at + ((1 + t.id % 30) || ' minutes')::interval end,
        case when t.status = 'closed' then t.created_at + ((6 + t.id % 30 + t.id % 60) || ' minutes')::interval end,
        case when t.status = 'closed' and t.id % 3 = 0 then t.created_at + ((5 + t.id % 30 + t.id % 60) || ' minutes')::interval end,
        t.status = 'closed' and t.id % 3 = 0, t.created_at
      from tickets t where t.company_id = ?`, [company]);
    // A fifth of the closed tickets were reopened once: an earlier cycle, a day before.
    await run(`insert into ticket_trackings (company_id, ticket_id, whatsapp_id, user_id, queue_id, queued_at, started_at, finished_at,
        rating_at, rated, created_at)
      select t.company_id, t.id, t.whatsapp_id, t.user_id, null, t.created_at - interval '1 day',
        t.created_at - interval '1 day' + interval '3 minutes', t.created_at - interval '1 day' + interval '20 minutes', null, false,
        t.created_at - interval '1 day'
      from tickets t where t.company_id = ? and t.status = 'closed' and t.id % 5 = 0`, [company]);
    await run(`insert into user_ratings (company_id, ticket_id, user_id, rate, created_at)
      select tt.company_id, tt.ticket_id, tt.user_id, 1 + (tt.ticket_id / 3) % 3, tt.finished_at
      from ticket_trackings tt where tt.company_id = ? and tt.rated`, [company]);
  }
  // Settled as autovacuum would leave it after the bulk load.
  await run('vacuum analyze');
  const counts = (await run(`select (select count(*) from tickets)::int as tickets, (select count(*) from ticket_trackings)::int as cycles,
    (select count(*) from user_ratings)::int as ratings, (select count(*) from contacts)::int as contacts`))[0];
  console.log(
    `seeded ${counts.tickets} tickets, ${counts.cycles} attendance cycles, ${counts.ratings} ratings, ${counts.contacts} contacts ` +
      `in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return { big };
};

const localDay = (daysAgo: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() - daysAgo * 86400_000),
  );

const benchDashboard = async (app: RunningApp, api: Api) => {
  const { big } = await seed(app);
  const admin = await api.login(`agent1-${big}@bench.local`, SUPER.password);
  const get = async (url: string) => {
    const res = await api.get(url, admin.token);
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const today = localDay(0);
  const cases: [string, string][] = [
    ['GET /dashboard?days=0 (no period: all cycles)', '/dashboard?days=0'],
    ['GET /dashboard?days=3', '/dashboard?days=3'],
    ['GET /dashboard?days=7', '/dashboard?days=7'],
    ['GET /dashboard?days=30', '/dashboard?days=30'],
    ['GET /dashboard?days=90', '/dashboard?days=90'],
    ['GET /dashboard?date_from&date_to (a month)', `/dashboard?date_from=${localDay(60)}&date_to=${localDay(30)}`],
    ['GET /dashboard/ticketsUsers (30 days)', `/dashboard/ticketsUsers?initialDate=${localDay(30)}&finalDate=${today}`],
    ['GET /dashboard/ticketsUsers (120 days)', `/dashboard/ticketsUsers?initialDate=${localDay(SPAN_DAYS)}&finalDate=${today}`],
    ['GET /dashboard/ticketsDay (30 days)', `/dashboard/ticketsDay?initialDate=${localDay(30)}&finalDate=${today}`],
    ['GET /dashboard/ticketsDay (120 days)', `/dashboard/ticketsDay?initialDate=${localDay(SPAN_DAYS)}&finalDate=${today}`],
    ['GET /dashboard/ticketsDay (today, per hour)', `/dashboard/ticketsDay?initialDate=${today}&finalDate=${today}`],
  ];
  const sample = await get('/dashboard?days=30');
  console.log(`days=30 on the large company: ${JSON.stringify(sample.counters)}, ${sample.attendants.length} attendants`);
  for (const [, url] of cases) await get(url); // warm-up
  for (const [label, url] of cases) report(label, await timed(SAMPLES, () => get(url)));
  const worst = results.reduce((a, b) => (b.p95 > a.p95 ? b : a));
  console.log(
    `worst p95 ${worst.p95.toFixed(1)} ms (${worst.label}); target ${TARGET_P95_MS} ms: ${worst.p95 < TARGET_P95_MS ? 'met' : 'NOT met'}`,
  );
};

const main = () => withBenchApp(SUPER, (app) => benchDashboard(app, new Api(app.url)));

runBench(main);
