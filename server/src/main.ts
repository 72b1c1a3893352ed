import path from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { assertDataDirFree } from './db/postmaster-lock.js';

/** Set once the app's modules are loaded: the embedded PostgreSQL that a failed start or a late stop must end. */
let stopDatabasesNow: ((graceMs: number) => Promise<void>) | undefined;

/** What went wrong, in words, whatever was thrown (a library may reject with nothing at all). */
const describe = (err: unknown): string => {
  if (err instanceof Error) return err.message || err.name;
  if (err === undefined || err === null || err === '') return 'an error without a description';
  return typeof err === 'string' ? err : JSON.stringify(err) ?? String(err);
};

/** `npm start`: configuration, the app, and a graceful stop on SIGTERM/SIGINT within 10 s. */
const main = async () => {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  // A second Atrium on the same data is refused before the app's modules are loaded (seconds of work on a
  // busy machine, for a refusal); the embedded database's start checks again.
  if (!config.databaseUrl) assertDataDirFree(path.join(config.dataDir, 'postgres'));
  const { stopEmbeddedDatabasesNow } = await import('./db/embedded.js');
  stopDatabasesNow = stopEmbeddedDatabasesNow;
  const { startApp } = await import('./app.js');
  const app = await startApp(config);
  let stopping = false;
  const shutdown = (signal: string) => {
    // A second signal while stopping must not end the process before the database is stopped.
    if (stopping) return app.logger.info({ signal }, 'already shutting down');
    stopping = true;
    app.logger.info({ signal }, 'shutting down');
    // The stop bounds its own steps; this is the last resort, and it still stops the embedded
    // PostgreSQL (within 1 s) so that no orphaned postmaster keeps the data directory.
    const timer = setTimeout(() => {
      app.logger.error('shutdown took longer than 9 s; stopping the database and exiting');
      void stopEmbeddedDatabasesNow(500).finally(() => process.exit(1));
    }, 9_000);
    timer.unref();
    app
      .stop()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        app.logger.error({ err }, 'shutdown failed');
        void stopEmbeddedDatabasesNow(500).finally(() => process.exit(1));
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
};

main().catch(async (err: unknown) => {
  process.stderr.write(`Atrium failed to start: ${describe(err)}\n`);
  // A start that failed after the embedded PostgreSQL came up must not leave it running.
  await stopDatabasesNow?.(2_000).catch(() => undefined);
  process.exit(1);
});
