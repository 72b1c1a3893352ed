/* eslint-disable no-console -- a benchmark reports on the console */
/**
 * Kanban benchmark (figures, never assertions): `npm run bench:kanban`.
 * One company with BENCH_KANBAN_TICKETS open and pending tickets (10,000 by default) over 6 lanes (5 kanban
 * tags and the lane without one), four times as many closed tickets, 50 agents in 10 queues, and another
 * company of the same size beside it. Times GET /ticket/kanban (first page of every lane, as an admin with
 * showAll and as a queue agent), a lane's later page, and a card move (PUT /ticket/{id}/kanban).
 * Issue 13's targets: board p95 under 50 ms, move p95 under 30 ms.
 * Starts its own embedded PostgreSQL in a temporary folder (or uses BENCH_DATABASE_URL).
 */
import type { RunningApp } from '../src/app.js';
import { Api } from '../testing/api.js';
import { reportLatency, runBench, timed, withBenchApp } from './bench-app.js';

const SUPER = { email: 'bench@atrium.local', password: 'Bench-password-1' };
const ACTIVE = Number(process.env.BENCH_KANBAN_TICKETS ?? 10_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const LANES = 5;
const TARGETS = { board: 50, move: 30 };

const seedCompany = async (app: RunningApp, planId: number, hash: string, name: string) => {
  const conn = app.orm.em.fork().getConnection();
  const run = (sql: string, params: unknown[] = []) => conn.execute(sql, params);
  const company = (await run(`insert into companies (name, plan_id, status, due_date, recurrence, language, timezone, created_at, updated_at)
    values (?, ?, true, '2099-12-31', 'MENSAL', 'pt', 'America/Sao_Paulo', now(), now()) returning id`, [name, planId]))[0].id as number;
  await run(`insert into settings (company_id, key, value) values (?, 'CheckMsgIsGroup', 'enabled'), (?, 'userRating', 'disabled')`, [company, company]);
  // 50 agents (the first is an admin) in 10 queues, each agent in 2.
  await run(`insert into users (name, email, password_hash, profile, super, company_id, all_ticket, online, created_at, updated_at)
    select 'Agent ' || g, 'agent' || g || '-' || ? || '@bench.local', ?, case when g = 1 then 'admin' else 'user' end, false, ?, 'desabled', false, now(), now()
    from generate_series(1, 50) g`, [company, hash, company]);
  await run(`insert into queues (company_id, name, color, greeting_message, out_of_hours_message, order_queue, schedules, created_at, updated_at)
    select ?, 'Queue ' || g, '#' || lpad(to_hex(g * 99999), 6, '0'), '', '', g, '[]', now(), now() from generate_series(1, 10) g`, [company]);
  await run(`insert into user_queues (user_id, queue_id, company_id)
    select u.id, q.id, ? from users u join queues q on q.company_id = u.company_id
    where u.company_id = ? and (q.order_queue = (u.id % 10) + 1 or q.order_queue = ((u.id + 5) % 10) + 1)`, [company, company]);
  await run(`insert into whatsapps (company_id, name, status, qrcode, retries, is_default, provider, number, greeting_message,
      complation_message, out_of_hours_message, rating_message, expires_inactive_message, expires_ticket, time_use_bot_queues,
      max_use_bot_queues, time_to_transfer, created_at, updated_at)
    values (?, 'Main', 'CONNECTED', '', 0, true, 'sandbox', '5511900000000', '', '', '', '', '', 0, 0, 3, 0, now(), now())`, [company]);
  // One contact per active ticket (one active ticket per contact and connection).
  await run(`insert into contacts (company_id, name, number, email, profile_pic_url, is_group, uuid, created_at, updated_at)
    select ?, 'Cliente ' || g, (5511900000000 + g * 7 + ? * 1000000)::text, '', '', false, gen_random_uuid(), now(), now()
    from generate_series(1, ?) g`, [company, company, ACTIVE]);
  const base = (await run(`select (select min(id) from contacts where company_id = ?) as c, (select min(id) from users where company_id = ?) as u,
      (select min(id) from queues where company_id = ?) as q, (select id from whatsapps where company_id = ?) as w`,
    [company, company, company, company]))[0];
  // Closed history first (4 per active ticket), then the active ones: a third pending, the rest open.
  const closed = ACTIVE * 4;
  await run(`insert into tickets (uuid, company_id, status, contact_id, whatsapp_id, user_id, queue_id, is_group,
      last_message, last_message_at, last_from_me, unread_messages, rating_attempts, created_at, updated_at)
    select gen_random_uuid(), ?, 'closed', ? + (g % ?), ?, ? + (g % 50), ? + (g % 10), false, 'fechado ' || g,
      now() - (g || ' minutes')::interval, false, 0, 0, now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
    from generate_series(1, ?) g`, [company, base.c, ACTIVE, base.w, base.u, base.q, closed]);
  await run(`insert into tickets (uuid, company_id, status, contact_id, whatsapp_id, user_id, queue_id, is_group,
      last_message, last_message_at, last_from_me, unread_messages, rating_attempts, created_at, updated_at)
    select gen_random_uuid(), ?, st, ? + g - 1, ?, case when st = 'pending' then null else ? + (g % 50) end,
      case when g % 11 = 0 then null else ? + (g % 10) end, false, 'ultima mensagem ' || g, ts, false, g % 3, 0, ts, ts
    from (select g, case when g % 3 = 0 then 'pending' else 'open' end as st, now() - (g || ' seconds')::interval as ts
          from generate_series(1, ?) g) x`, [company, base.c, base.w, base.u, base.q, ACTIVE]);
  // 5 kanban lanes; each active ticket in one of them or (a sixth) in none.
  await run(`insert into tags (company_id, name, color, kanban, position, created_at, updated_at)
    select ?, 'Etapa ' || g, '#' || lpad(to_hex(g * 1234567), 6, '0'), 1, g, now(), now() from generate_series(1, ?) g`, [company, LANES]);
  await run(`insert into ticket_tags (ticket_id, tag_id, company_id)
    select t.id, l.ids[1 + t.id % ?], ? from tickets t,
      (select array_agg(id order by id) as ids from tags where company_id = ? and kanban = 1) l
    where t.company_id = ? and t.status <> 'closed' and t.id % ? <> ?`, [LANES, company, company, company, LANES + 1, LANES]);
  return company;
};

const benchKanban = async (app: RunningApp, api: Api) => {
  const conn = app.orm.em.fork().getConnection();
  const started = performance.now();
  const planId = (await conn.execute(`insert into plans (name, users, connections, queues, value, created_at, updated_at)
    values ('Bench', 1000, 100, 100, 0, now(), now()) returning id`))[0].id;
  const hash = (await conn.execute(`select password_hash from users where email = ?`, [SUPER.email]))[0].password_hash;
  const big = await seedCompany(app, planId, hash, 'Bench 0');
  await seedCompany(app, planId, hash, 'Bench 1');
  await conn.execute('analyze');
  const counts = (await conn.execute(`select count(*) filter (where status <> 'closed')::int as active, count(*)::int as total from tickets where company_id = ?`, [big]))[0];
  console.log(`seeded ${counts.active} open or pending tickets (${counts.total} in all) per company, ${LANES} kanban lanes, in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  const admin = await api.login(`agent1-${big}@bench.local`, SUPER.password);
  const agentEmail = (await conn.execute(`select email from users where company_id = ? and profile = 'user' order by id limit 1`, [big]))[0].email;
  const agent = await api.login(agentEmail, SUPER.password);
  const lanes = (await conn.execute(`select id from tags where company_id = ? and kanban = 1 order by position`, [big])).map((r: any) => r.id as number);
  const cards = (await conn.execute(`select id from tickets where company_id = ? and status <> 'closed' order by random() limit ?`, [big, SAMPLES])).map(
    (r: any) => r.id as number,
  );
  const call = async (method: string, url: string, token: string, body?: unknown) => {
    const res = await api.request(method, url, { token, body });
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const first = await call('GET', '/ticket/kanban?showAll=true', admin.token);
  console.log(`board: ${first.tickets.length} cards on the first pages; lanes ${first.lanes.map((l: any) => l.count).join(' / ')}`);

  const p95 = {
    board: reportLatency('GET /ticket/kanban?showAll=true (admin)', await timed(SAMPLES, () => call('GET', '/ticket/kanban?showAll=true', admin.token)), 52),
    agent: reportLatency('GET /ticket/kanban (queue agent)', await timed(SAMPLES, () => call('GET', '/ticket/kanban', agent.token)), 52),
    page: reportLatency(
      'GET /ticket/kanban?lane=…&pageNumber=2..6 (admin)',
      await timed(SAMPLES, (i) => call('GET', `/ticket/kanban?showAll=true&lane=${lanes[i % lanes.length]}&pageNumber=${2 + (i % 5)}`, admin.token)),
      52,
    ),
    move: reportLatency(
      'PUT /ticket/{id}/kanban (admin)',
      await timed(SAMPLES, (i) => call('PUT', `/ticket/${cards[i % cards.length]}/kanban`, admin.token, { tagId: i % 6 === 5 ? null : lanes[i % lanes.length] })),
      52,
    ),
  };
  console.log(
    `targets: board p95 ${p95.board.toFixed(1)} ms (under ${TARGETS.board}), move p95 ${p95.move.toFixed(1)} ms (under ${TARGETS.move})`,
  );
};

const main = () => withBenchApp(SUPER, (app) => benchKanban(app, new Api(app.url)));

runBench(main);
