import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { freePort, startEmbeddedPostgres, stopEmbeddedDatabasesNow } from './embedded.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'atrium-embedded-'));
// The embedded PostgreSQL runs as its own system user when we are root: it must reach its folder.
chmodSync(scratch, 0o755);
const dir = path.join(scratch, 'postgres');
const lockFile = path.join(dir, 'postmaster.pid');
const logger = createLogger('silent');

const start = async (port: number) => startEmbeddedPostgres({ dir, port, password: 'embedded-test', database: 'atrium', logger });

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

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
    const port = await freePort();
    const db = await start(port);
    const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
    await until('the killed postmaster to be reaped', () => !isAlive(pid));
    await db.stop();
    await stopEmbeddedDatabasesNow(2_000);
    expect(await accepts(port)).toBe(false);
  }, 60_000);
});
