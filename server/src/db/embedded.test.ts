import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { accepts } from '../../testing/ports.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startEmbeddedPostgres, stopEmbeddedDatabasesNow } from './embedded.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'atrium-embedded-'));
// The embedded PostgreSQL runs as its own system user when we are root: it must reach its folder.
chmodSync(scratch, 0o755);
let logged = '';
const logger = pino({ level: 'info' }, { write: (line: string) => (logged += line) });

/** A data directory of the test's own: each test makes the state it starts from, in any order. */
let clusters = 0;
const cluster = () => {
  const dir = path.join(scratch, `postgres-${++clusters}`);
  return {
    dir,
    lockFile: path.join(dir, 'postmaster.pid'),
    start: (port: number) => startEmbeddedPostgres({ dir, port, password: 'embedded-test', database: 'atrium', logger }),
  };
};

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls until `check` holds (at most 10 s); the short pause between polls is not a fixed wait. */
const until = async (what: string, check: () => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

afterAll(async () => {
  await stopEmbeddedDatabasesNow(2_000);
  rmSync(scratch, { recursive: true, force: true });
});

describe('the embedded PostgreSQL', () => {
  it('is stopped by the shutdown fallback, so an exit never leaves its postmaster running', async () => {
    const { start, lockFile } = cluster();
    const port = await freePort();
    await start(port);
    const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0]);
    expect(await accepts(port)).toBe(true);

    await stopEmbeddedDatabasesNow(2_000);

    expect(isAlive(pid)).toBe(false);
    expect(existsSync(lockFile)).toBe(false);
    expect(await accepts(port)).toBe(false);
  }, 60_000);

  it('stops (and the fallback returns) even when its postmaster is already gone', async () => {
    const { start, lockFile } = cluster();
    const port = await freePort();
    const db = await start(port);
    const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
    await until('the killed postmaster to be reaped', () => !isAlive(pid));
    await db.stop();
    await stopEmbeddedDatabasesNow(2_000);
    expect(await accepts(port)).toBe(false);
  }, 60_000);

  it('removes a stale postmaster.pid whose PID now belongs to another process, and says so', async () => {
    // The lock file a crash leaves behind (a postmaster killed), naming a live process that is not
    // PostgreSQL, as a PID reused after a restart does: PostgreSQL alone refuses it.
    const { start, lockFile } = cluster();
    const crashed = await start(await freePort());
    const dead = Number(readFileSync(lockFile, 'utf8').split('\n')[0]);
    process.kill(dead, 'SIGKILL');
    await until('the killed postmaster to be reaped', () => !isAlive(dead));
    await crashed.stop();
    expect(existsSync(lockFile)).toBe(true);
    const stranger = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const lines = readFileSync(lockFile, 'utf8').split('\n');
      writeFileSync(lockFile, [String(stranger.pid), ...lines.slice(1)].join('\n'));
      logged = '';
      const port = await freePort();
      const db = await start(port);
      expect(await accepts(port)).toBe(true);
      expect(logged).toContain('removing a stale postmaster.pid');
      expect(isAlive(stranger.pid!)).toBe(true);
      await db.stop();
    } finally {
      stranger.kill('SIGKILL');
    }
  }, 60_000);

  it('refuses a data directory a running PostgreSQL holds, naming it and the way out', async () => {
    const { start, lockFile, dir } = cluster();
    await start(await freePort());
    const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0]);
    const error = await start(await freePort()).then(
      () => new Error('started'),
      (err: unknown) => err as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(`data directory ${dir} is in use by a running PostgreSQL (PID ${pid})`);
    expect(error.message).toContain(`kill ${pid}`);
    expect(isAlive(pid)).toBe(true);
    await stopEmbeddedDatabasesNow(2_000);
    expect(isAlive(pid)).toBe(false);
  }, 60_000);

  it('says why PostgreSQL did not start instead of rejecting with nothing', async () => {
    const { start, dir } = cluster();
    // Its port taken by another listener.
    const blocker = (await import('node:net')).createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await start(port).then(
        () => new Error('started'),
        (err: unknown) => err as Error,
      );
      expect(error.message).toMatch(new RegExp(`the embedded PostgreSQL in ${dir} \\(port ${port}\\) did not start: .*FATAL: could not create any TCP/IP sockets`));
    } finally {
      blocker.close();
    }
  }, 60_000);
});
