import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startApp, type RunningApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { freePort, startEmbeddedPostgres } from '../src/db/embedded.js';
import { createLogger } from '../src/logger.js';

/**
 * Runs a benchmark against the real server on its own embedded PostgreSQL (or `BENCH_DATABASE_URL`, kept
 * between runs), with `admin` as the first-start super user; everything is removed afterwards.
 */
/**
 * BENCH_PG_STATS=1: `statementReport` prints the costliest statements. The database records them in every
 * benchmark (pg_stat_statements), which is how `databaseMs` splits a request's time.
 */
const STATEMENT_STATS = process.env.BENCH_PG_STATS === '1';

export const withBenchApp = async (
  admin: { email: string; password: string },
  bench: (app: RunningApp) => Promise<void>,
): Promise<void> => {
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-'));
  // The embedded server runs as its own user when started as root: it must reach its folder.
  chmodSync(dir, 0o755);
  const logger = createLogger('warn');
  const db = process.env.BENCH_DATABASE_URL
    ? { url: process.env.BENCH_DATABASE_URL, stop: async () => {} }
    : await startEmbeddedPostgres({
        dir: path.join(dir, 'pg'),
        port: await freePort(),
        password: 'bench',
        database: 'atrium',
        logger,
        persistent: false,
        settings: ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track_planning=on'],
      });
  const pidFile = path.join(dir, 'pg', 'postmaster.pid');
  postmasterPid = !process.env.BENCH_DATABASE_URL && existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').split('\n')[0]) : null;
  // A start that fails must not leave the embedded PostgreSQL running behind the finished process.
  const app = await startApp(
    loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: db.url,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      LOGIN_MAX_PER_IP: '1000000',
      LOGIN_MAX_PER_EMAIL: '1000000',
    }),
    { logger, print: () => {} },
  ).catch(async (err: unknown) => {
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  try {
    await bench(app);
  } finally {
    await app.stop();
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

/**
 * Runs a benchmark's main and exits: a job that ran leaves Agenda's lock keep-alive timer (half the lock
 * lifetime, 5 minutes) pending after the scheduler stopped, which would hold the finished process open.
 */
export const runBench = (main: () => Promise<void>): void => {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      // eslint-disable-next-line no-console -- a benchmark reports on the console
      console.error(err);
      process.exit(1);
    },
  );
};

/** The benchmark's own database server (its postmaster), so other PostgreSQL clusters on the machine do not count. */
let postmasterPid: number | null = null;

/**
 * CPU seconds used so far by this process and by the database's processes (Linux, from /proc: the
 * benchmark's postmaster and its backends; every `postgres` process with BENCH_DATABASE_URL).
 */
export const cpuSeconds = (): { node: number; database: number } => {
  const usage = process.cpuUsage();
  let ticks = 0;
  for (const pid of existsSync('/proc') ? readdirSync('/proc') : []) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid … utime stime: fields 14 and 15, counted after the closing parenthesis.
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (postmasterPid !== null && Number(pid) !== postmasterPid && Number(fields[1]) !== postmasterPid) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return { node: (usage.user + usage.system) / 1e6, database: ticks / 100 };
};

/** Forgets the statements recorded so far (start-up, seeding, the previous kind of request). */
export const resetStatementStats = async (app: RunningApp): Promise<void> => {
  const db = app.orm.em.fork().getConnection();
  await db.execute('create extension if not exists pg_stat_statements');
  await db.execute('select pg_stat_statements_reset()');
};

/**
 * The database's time (planning + execution) of the statements run since the last reset, in ms: what a
 * request spends in PostgreSQL, against what it spends in Node (and on the wire). Statements run in
 * parallel each count, so it can exceed the request's time.
 */
export const databaseMs = async (app: RunningApp): Promise<number> => {
  const [row] = await app.orm.em.fork().getConnection().execute(
    `select coalesce(sum(total_plan_time + total_exec_time), 0)::float as ms from pg_stat_statements
      where query not ilike '%pg_stat_statements%'`,
  );
  return Number(row.ms);
};

/** With BENCH_PG_STATS=1: the statements that took the database the most time (planning + execution). */
export const statementReport = async (app: RunningApp, top = 12): Promise<void> => {
  if (!STATEMENT_STATS) return;
  const rows = await app.orm.em.fork().getConnection().execute(
    `select calls, round((total_plan_time + total_exec_time)::numeric, 0) as total_ms,
            round((total_plan_time / greatest(calls, 1))::numeric, 3) as plan_ms,
            round((total_exec_time / greatest(calls, 1))::numeric, 3) as exec_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as query
       from pg_stat_statements order by total_plan_time + total_exec_time desc limit ?`,
    [top],
  );
  for (const r of rows) {
    // eslint-disable-next-line no-console -- a benchmark reports on the console
    console.log(`${String(r.calls).padStart(7)} calls ${String(r.total_ms).padStart(7)} ms  plan ${r.plan_ms} exec ${r.exec_ms}  ${r.query}`);
  }
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Prints p50/p95/p99 of the samples (ms) on one line and answers the p95. */
export const reportLatency = (label: string, samples: number[], labelWidth = 44): number => {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => percentile(s, p).toFixed(1).padStart(6);
  // eslint-disable-next-line no-console -- a benchmark reports on the console
  console.log(`${label.padEnd(labelWidth)} n=${String(s.length).padStart(4)}  p50 ${at(50)} ms  p95 ${at(95)} ms  p99 ${at(99)} ms`);
  return percentile(s, 95);
};

/** Runs `fn` n times one after another and answers each run's duration in ms. */
export const timed = async (n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> => {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  return samples;
};
