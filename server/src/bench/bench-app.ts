import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startApp, type RunningApp } from '../app.js';
import { loadConfig } from '../config.js';
import { freePort, startEmbeddedPostgres } from '../db/embedded.js';
import { createLogger } from '../logger.js';

/**
 * Runs a benchmark against the real server on its own embedded PostgreSQL (or `BENCH_DATABASE_URL`, kept
 * between runs), with `admin` as the first-start super user; everything is removed afterwards.
 */
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
    : await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), port: await freePort(), password: 'bench', database: 'atrium', logger, persistent: false });
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
  );
  try {
    await bench(app);
  } finally {
    await app.stop();
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};
