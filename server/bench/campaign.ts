/* eslint-disable no-console -- a benchmark reports on the console */
/**
 * `npm run bench:campaign`: the campaign engine's speed and its exactly-once promise (figures, never
 * assertions). The server runs as its own process (`tsx src/main.ts`) with a fresh data folder and embedded
 * PostgreSQL, one company and one sandbox connection:
 *   1. a campaign to 10,000 contacts with pacing off: how long the start takes to make its rows (one
 *      transaction: claim, rows, outbox) and the sends per second to the simulated phone;
 *   2. a second campaign to the same contacts, with the server and its PostgreSQL killed (SIGKILL) twice
 *      while it sends, then started again: messages per contact on the phone (exactly one is the promise),
 *      contacts without one, and whether the campaign ends FINALIZADA;
 *   3. pacing 5 s with the ±30% spread: the measured gaps of 50 sends (mean, min, max).
 * BENCH_CAMPAIGN_TOTAL and BENCH_CAMPAIGN_PACED change the sizes; `npm run bench:campaign -- speed` runs the first
 * part alone.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, spawnServer, until, type ServerProcess } from '../testing/process.js';

const TOTAL = Number(process.env.BENCH_CAMPAIGN_TOTAL ?? 10_000);
const PACED = Number(process.env.BENCH_CAMPAIGN_PACED ?? 50);
const ADMIN = { email: 'bench-campaign@atrium.local', password: 'Bench-campaign-1' };
const OWNER = { email: 'owner@campaign.bench', password: 'Owner-pass-1' };

type Reply = { status: number; body: any };

/** A JSON request; a dropped connection (the server killed) answers status 0. */
const request = async (base: string, method: string, url: string, body?: unknown, token?: string): Promise<Reply> => {
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed };
  } catch {
    return { status: 0, body: undefined };
  }
};

const waitFor = (check: () => Promise<boolean>, timeoutMs: number, label: string, everyMs = 100) => until(label, check, timeoutMs, everyMs);

const startServer = (dataDir: string, port: number, pgPort: number): Promise<ServerProcess> =>
  spawnServer({
    entry: 'source',
    dataDir,
    ports: { port, pgPort },
    adminPassword: ADMIN.password,
    env: { ADMIN_EMAIL: ADMIN.email, LOG_LEVEL: 'error', LOGIN_MAX_PER_IP: '100000', LOGIN_MAX_PER_EMAIL: '100000' },
    echoStderr: true,
  });

/** The server's own database, read (and seeded) directly: the phone's received messages, the campaign's rows. */
const database = (dataDir: string, pgPort: number) => {
  const password = readFileSync(path.join(dataDir, 'secrets', 'postgres-password'), 'utf8').trim();
  const query = async <T>(sql: string, params: unknown[] = []): Promise<T[] | null> => {
    const client = new pg.Client({ host: '127.0.0.1', port: pgPort, user: 'postgres', password, database: 'atrium' });
    try {
      await client.connect();
      return (await client.query(sql, params)).rows as T[];
    } catch {
      return null; // The database is down (killed): the caller polls again.
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  return {
    query,
    /** A list's contacts, already checked on WhatsApp (the check is throttled by design: not what is measured). */
    seedList: async (companyId: number, listId: number, count: number) =>
      query(
        `insert into contact_list_items (company_id, contact_list_id, name, number, email, is_whatsapp_valid, checked_at, created_at, updated_at)
         select $1, $2, 'Contact ' || n, (5511900000000 + n)::text, '', true, now(), now(), now() from generate_series(1, $3::int) n`,
        [companyId, listId, count],
      ),
    rows: async (campaignId: number) =>
      Number((await query<{ n: number }>('select count(*)::int as n from campaign_shipping where campaign_id = $1', [campaignId]))?.[0]?.n ?? -1),
    /** Messages on the phone whose text starts with `marker`, per number. */
    received: async (marker: string) =>
      (await query<{ to: string; n: number; first: Date; last: Date }>(
        `select "to", count(*)::int as n, min(created_at) as first, max(created_at) as last from sandbox_outbox
          where body like '%' || $1 || '%' group by "to"`,
        [marker],
      )) ?? [],
    receivedCount: async (marker: string) =>
      Number((await query<{ n: number }>(`select count(*)::int as n from sandbox_outbox where body like '%' || $1 || '%'`, [marker]))?.[0]?.n ?? -1),
    times: async (marker: string) =>
      ((await query<{ at: Date }>(`select created_at as at from sandbox_outbox where body like '%' || $1 || '%' order by created_at, id`, [marker])) ?? []).map(
        (r) => new Date(r.at).getTime(),
      ),
    status: async (campaignId: number) =>
      (await query<{ status: string; started_at: Date | null }>('select status, started_at from campaigns where id = $1', [campaignId]))?.[0] ?? null,
  };
};

const setUp = async (url: string) => {
  const superToken = (await request(url, 'POST', '/auth/login', ADMIN)).body.token as string;
  const plan = await request(url, 'POST', '/plans', { name: 'Campaign bench', users: 10, connections: 5, queues: 10, useCampaigns: true }, superToken);
  const company = await request(url, 'POST', '/companies', { name: 'Campaign bench', email: OWNER.email, password: OWNER.password, planId: plan.body.id }, superToken);
  if (company.status !== 201) throw new Error(`company: ${company.status} ${JSON.stringify(company.body)}`);
  const token = (await request(url, 'POST', '/auth/login', OWNER)).body.token as string;
  const wa = await request(url, 'POST', '/whatsapp', { name: 'Campaign phone', provider: 'sandbox' }, token);
  await request(url, 'POST', `/sandbox/${wa.body.id}/scan`, {}, token);
  const list = await request(url, 'POST', '/contact-lists', { name: 'Bench contacts' }, token);
  if (list.status !== 201) throw new Error(`list: ${list.status} ${JSON.stringify(list.body)}`);
  return { token, companyId: company.body.id as number, whatsappId: wa.body.id as number, listId: list.body.id as number };
};

const settings = (url: string, token: string, values: Record<string, number>) => request(url, 'POST', '/campaign-settings', { settings: values }, token);

const createCampaign = async (url: string, token: string, whatsappId: number, listId: number, name: string) => {
  const created = await request(
    url,
    'POST',
    '/campaigns',
    { name, whatsappId, contactListId: listId, message1: `${name}: olá {nome}`, scheduledAt: new Date().toISOString() },
    token,
  );
  if (created.status !== 201) throw new Error(`campaign: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id as number;
};

const main = async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-campaign-'));
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  let pgPort = await freePort();
  while (pgPort === port) pgPort = await freePort();
  let server = await startServer(dataDir, port, pgPort);
  try {
    const { token, companyId, whatsappId, listId } = await setUp(server.url);
    const db = database(dataDir, pgPort);
    await db.seedList(companyId, listId, TOTAL);
    await settings(server.url, token, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    console.log(`campaign: ${TOTAL} contacts on one sandbox connection`);

    // 1. Speed, pacing off.
    const first = await createCampaign(server.url, token, whatsappId, listId, 'Bench A');
    await waitFor(async () => (await db.rows(first)) >= TOTAL, 120_000, 'rows made', 20);
    const seen = Date.now();
    const started = (await db.status(first))?.started_at;
    // started_at is the claim's transaction time: the rows became visible when it committed.
    console.log(`  rows made: ${TOTAL} in one transaction, visible ${started ? ((seen - new Date(started).getTime()) / 1000).toFixed(2) : '?'} s after the claim`);
    await waitFor(async () => (await db.receivedCount('Bench A:')) >= TOTAL, 900_000, 'all sent', 250);
    const a = await db.times('Bench A:');
    const seconds = (a[a.length - 1] - a[0]) / 1000;
    console.log(`  sent ${a.length} in ${seconds.toFixed(1)} s (first to last on the phone): ${Math.round((a.length - 1) / seconds)} sends/s`);
    await waitFor(async () => (await db.status(first))?.status === 'FINALIZADA', 120_000, 'A finished', 250);
    console.log(`  campaign A: FINALIZADA`);
    if (process.argv.includes('speed')) return;

    // 2. Exactly once across two hard kills.
    const second = await createCampaign(server.url, token, whatsappId, listId, 'Bench B');
    for (const share of [0.25, 0.6]) {
      await waitFor(async () => (await db.receivedCount('Bench B:')) >= TOTAL * share, 900_000, `B at ${share * 100}%`, 50);
      const before = await db.receivedCount('Bench B:');
      await server.crash();
      console.log(`  killed the server and PostgreSQL (SIGKILL) with ${before} of ${TOTAL} on the phone; starting again`);
      server = await startServer(dataDir, port, pgPort);
    }
    await waitFor(async () => (await db.status(second))?.status === 'FINALIZADA', 900_000, 'B finished', 250);
    const perNumber = await db.received('Bench B:');
    const twice = perNumber.filter((r) => r.n > 1).length;
    const got = perNumber.length;
    const [{ n: duplicateDeliveries } = { n: 0 }] =
      (await db.query<{ n: number }>(`select coalesce(sum(deliveries - 1), 0)::int as n from sandbox_outbox where body like '%Bench B:%'`)) ?? [];
    console.log(
      `  campaign B: FINALIZADA; ${got} of ${TOTAL} contacts got it, ${twice} got two or more messages, ` +
        `${TOTAL - got} got none; the same message id delivered again ${duplicateDeliveries} times`,
    );

    // 3. Pacing 5 s ±30%.
    await db.query(`delete from contact_list_items where contact_list_id = $1 and id not in (select id from contact_list_items where contact_list_id = $1 order by id limit $2)`, [
      listId,
      PACED,
    ]);
    await settings(server.url, token, { messageInterval: 5, longerIntervalAfter: 0, greaterInterval: 0 });
    console.log(`  pacing 5 s ±30%: ${PACED} sends (about ${Math.round((PACED * 5) / 60)} min)`);
    const paced = await createCampaign(server.url, token, whatsappId, listId, 'Bench C');
    await waitFor(async () => (await db.status(paced))?.status === 'FINALIZADA', PACED * 10_000 + 120_000, 'C finished', 500);
    const c = await db.times('Bench C:');
    const gaps = c.slice(1).map((t, i) => (t - c[i]) / 1000);
    const mean = gaps.reduce((s, g) => s + g, 0) / gaps.length;
    console.log(
      `  ${c.length} sends, ${gaps.length} gaps: mean ${mean.toFixed(2)} s (${(((mean - 5) / 5) * 100).toFixed(1)}% off 5 s), ` +
        `min ${Math.min(...gaps).toFixed(2)} s, max ${Math.max(...gaps).toFixed(2)} s`,
    );
    console.log(`  gaps: ${gaps.map((g) => g.toFixed(1)).join(' ')}`);
  } finally {
    await server.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
};

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
