/* eslint-disable no-console -- a benchmark reports on the console */
/**
 * `npm run bench:outbox`: the outbox's throughput and its behaviour across a crash (figures, never
 * assertions). The server runs as its own process (`tsx src/main.ts`, as `npm start` runs the build) with
 * a fresh data folder and embedded PostgreSQL:
 *   1. 10,000 replies queued over 100 sandbox connections (one open ticket each, no pacing) by 32 concurrent
 *      HTTP clients; prints queued/s and sent/s (first request to last delivery on the simulated phones);
 *   2. another 10,000, with the server and its PostgreSQL killed (SIGKILL) once about half have left, then
 *      started again: every reply the server accepted (200) is counted on the phones, lost and duplicated.
 * BENCH_OUTBOX_TOTAL and BENCH_OUTBOX_CONNECTIONS change the size. Then the mixed run (outbox-mixed.ts; alone
 * with `npm run bench:outbox -- mixed`): a campaign's backlog and agents' replies on one connection.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { callJson, freePort, spawnServer, until, type ServerProcess } from '../testing/process.js';
import { mixedRun } from './outbox-mixed.js';

const TOTAL = Number(process.env.BENCH_OUTBOX_TOTAL ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_OUTBOX_CONNECTIONS ?? 100);
const CONCURRENCY = 32;
const ADMIN = { email: 'bench-outbox@atrium.local', password: 'Bench-outbox-1' };

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY + 8 });

/** A keep-alive JSON request; a dropped connection (the server killed) answers status 0. */
const request = (base: string, method: string, url: string, body?: unknown, token?: string) =>
  callJson(agent, base, method, url, token, body).catch(() => ({ status: 0, body: undefined }));

const waitFor = (check: () => Promise<boolean>, timeoutMs: number, label: string) => until(label, check, timeoutMs);

const startServer = (dataDir: string, port: number, pgPort: number): Promise<ServerProcess> =>
  spawnServer({
    entry: 'source',
    dataDir,
    ports: { port, pgPort },
    adminPassword: ADMIN.password,
    env: { ADMIN_EMAIL: ADMIN.email, LOG_LEVEL: 'error', LOGIN_MAX_PER_IP: '100000', LOGIN_MAX_PER_EMAIL: '100000' },
    echoStderr: true,
  });

/** Logs in and builds the company: CONNECTIONS sandbox phones, each with one open ticket. */
const setUp = async (url: string) => {
  const superLogin = await request(url, 'POST', '/auth/login', ADMIN);
  const superToken = superLogin.body.token as string;
  const plan = await request(url, 'POST', '/plans', { name: 'Outbox bench', users: 10, connections: CONNECTIONS + 5, queues: 10 }, superToken);
  const company = await request(
    url,
    'POST',
    '/companies',
    { name: 'Outbox bench', email: 'owner@outbox.bench', password: 'Owner-pass-1', planId: plan.body.id },
    superToken,
  );
  if (company.status !== 201) throw new Error(`company: ${company.status} ${JSON.stringify(company.body)}`);
  const token = (await request(url, 'POST', '/auth/login', { email: 'owner@outbox.bench', password: 'Owner-pass-1' })).body.token as string;
  const tickets: { whatsappId: number; ticketId: number }[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const wa = await request(url, 'POST', '/whatsapp', { name: `Phone ${i + 1}`, provider: 'sandbox' }, token);
    await request(url, 'POST', `/sandbox/${wa.body.id}/scan`, {}, token);
    const customer = `5511${String(900000000 + i)}`;
    await request(url, 'POST', `/sandbox/${wa.body.id}/messages`, { from: customer, name: `Customer ${i + 1}`, body: 'Oi' }, token);
    const list = await request(url, 'GET', `/tickets?status=pending&searchParam=${customer}`, undefined, token);
    const ticket = (list.body.tickets as { id: number; whatsappId: number }[])[0];
    await request(url, 'PUT', `/tickets/${ticket.id}`, { status: 'open' }, token);
    tickets.push({ whatsappId: wa.body.id, ticketId: ticket.id });
  }
  return { token, tickets };
};

/**
 * What the simulated phones received, read from their table (the sandbox_outbox) in the server's database:
 * a count while waiting, every id at the end, and deliveries beyond the first of an id (duplicates).
 */
const phonesDb = (dataDir: string, pgPort: number) => {
  const password = readFileSync(path.join(dataDir, 'secrets', 'postgres-password'), 'utf8').trim();
  const connect = async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: pgPort, user: 'postgres', password, database: 'atrium' });
    await client.connect();
    return client;
  };
  return {
    count: async () => {
      const client = await connect().catch(() => null);
      if (!client) return -1;
      try {
        return Number((await client.query('select count(*)::int as n from sandbox_outbox')).rows[0].n);
      } finally {
        await client.end();
      }
    },
    /** As a campaign materialises its rows: `perTicket` queued replies on each ticket, in one statement. */
    bulkQueue: async (ticketIds: number[], perTicket: number) => {
      const client = await connect();
      try {
        await client.query(
          `with t as (select t.id as ticket_id, t.company_id, t.whatsapp_id, t.contact_id, c.number
                        from tickets t join contacts c on c.id = t.contact_id where t.id = any($1::int[])),
                g as (select t.*, n from t cross join generate_series(1, $2::int) n),
                m as (insert into messages (company_id, ticket_id, wid, whatsapp_id, body, from_me, read, ack, media_type,
                          is_deleted, is_edited, is_system, created_at, updated_at)
                      select company_id, ticket_id, 'BULK' || ticket_id || 'X' || n, whatsapp_id, 'bulk ' || n, true, true, 0, 'chat',
                             false, false, false, now(), now() from g
                      returning id, ticket_id, wid, company_id, whatsapp_id, body)
           insert into outbound_messages (company_id, whatsapp_id, ticket_id, message_id, contact_id, to_number, is_group, chat_key, wid,
               body, voice_note, quoted_from_me, presence_ms, presence_sent, status, attempts, planned_at, created_at, updated_at)
           select m.company_id, m.whatsapp_id, m.ticket_id, m.id, t.contact_id, t.number, false, 'c:' || t.contact_id, m.wid,
                  m.body, false, false, 0, false, 'pending', 0, now(), now(), now()
             from m join t on t.ticket_id = m.ticket_id`,
          [ticketIds, perTicket],
        );
      } finally {
        await client.end();
      }
    },
    /** Rows not settled yet (waiting or being sent). */
    unsettled: async () => {
      const client = await connect().catch(() => null);
      if (!client) return -1;
      try {
        return Number((await client.query(`select count(*)::int as n from outbound_messages where status in ('pending', 'sending')`)).rows[0].n);
      } finally {
        await client.end();
      }
    },
    all: async () => {
      const client = await connect();
      try {
        const rows = (await client.query('select wid, deliveries from sandbox_outbox')).rows as { wid: string; deliveries: number }[];
        return { delivered: new Set(rows.map((r) => r.wid)), duplicates: rows.reduce((n, r) => n + r.deliveries - 1, 0) };
      } finally {
        await client.end();
      }
    },
  };
};

/** Queues `total` replies round-robin over the tickets with CONCURRENCY clients; answers the accepted ids. */
const queueReplies = async (url: string, token: string, tickets: { ticketId: number }[], total: number, label: string, stopWhen?: () => boolean) => {
  const accepted: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total && !stopWhen?.()) {
      const i = next++;
      const { ticketId } = tickets[i % tickets.length];
      const res = await request(url, 'POST', `/messages/${ticketId}`, { body: `${label} ${i}` }, token);
      if (res.status === 200 && res.body?.wid) accepted.push(res.body.wid as string);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return accepted;
};

const main = async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-outbox-'));
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  let pgPort = await freePort();
  while (pgPort === port) pgPort = await freePort();
  let server = await startServer(dataDir, port, pgPort);
  try {
    const { token, tickets } = await setUp(server.url);
    const phones = phonesDb(dataDir, pgPort);
    const before = await phones.count();
    console.log(`outbox: ${TOTAL} replies over ${CONNECTIONS} sandbox connections, ${CONCURRENCY} concurrent clients`);

    // 1. Throughput.
    const started = performance.now();
    const accepted = await queueReplies(server.url, token, tickets, TOTAL, 'run');
    const queuedSeconds = (performance.now() - started) / 1000;
    await waitFor(async () => (await phones.count()) - before >= accepted.length, 600_000, 'all sent');
    const sentSeconds = (performance.now() - started) / 1000;
    const first = await phones.all();
    console.log(
      `  queued ${accepted.length} in ${queuedSeconds.toFixed(1)} s (${Math.round(accepted.length / queuedSeconds)}/s); ` +
        `all on the phones after ${sentSeconds.toFixed(1)} s: ${Math.round(accepted.length / sentSeconds)} sends/s, ` +
        `duplicates ${first.duplicates}, lost ${accepted.filter((w) => !first.delivered.has(w)).length}`,
    );

    // 1b. The senders alone: a backlog written at once (as a campaign would), then each lane woken by one reply.
    const backlog = await phones.count();
    await phones.bulkQueue(
      tickets.map((t) => t.ticketId),
      Math.floor(TOTAL / tickets.length),
    );
    const drainStart = performance.now();
    await Promise.all(tickets.map(({ ticketId }) => request(server.url, 'POST', `/messages/${ticketId}`, { body: 'wake' }, token)));
    const expected = backlog + Math.floor(TOTAL / tickets.length) * tickets.length + tickets.length;
    await waitFor(async () => (await phones.count()) >= expected, 600_000, 'backlog sent');
    const drainSeconds = (performance.now() - drainStart) / 1000;
    console.log(`  a backlog of ${expected - backlog} queued at once: sent in ${drainSeconds.toFixed(1)} s, ${Math.round((expected - backlog) / drainSeconds)} sends/s`);

    // 2. A crash in the middle of sending.
    const baseline = (await phones.all()).delivered.size;
    let killed = false;
    const crashing = queueReplies(server.url, token, tickets, TOTAL, 'crash', () => killed);
    await waitFor(async () => (await phones.count()) - baseline >= TOTAL / 4, 600_000, 'a quarter sent');
    killed = true;
    await server.crash();
    const acceptedBeforeCrash = await crashing;
    console.log(`  killed the server and PostgreSQL (SIGKILL) with ${acceptedBeforeCrash.length} replies accepted; starting again`);
    server = await startServer(dataDir, port, pgPort);
    // Everything accepted either reaches its phone or is settled as failed.
    const restarted = performance.now();
    await waitFor(async () => (await phones.unsettled()) === 0, 600_000, 'every row settled');
    console.log(`  every row settled ${((performance.now() - restarted) / 1000).toFixed(1)} s after the restart`);
    const after = await phones.all();
    const lost = acceptedBeforeCrash.filter((w) => !after.delivered.has(w)).length;
    console.log(
      `  after the restart: ${acceptedBeforeCrash.length - lost} of ${acceptedBeforeCrash.length} accepted replies on the phones; ` +
        `duplicates ${after.duplicates - first.duplicates}, lost ${lost}`,
    );
  } finally {
    await server.stop().catch(() => undefined);
    agent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

(process.argv.includes('mixed') ? mixedRun() : main().then(mixedRun)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
