import { ConfigError, loadConfig } from './config.js';
import { startApp } from './app.js';

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
  const app = await startApp(config);
  const shutdown = (signal: string) => {
    app.logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.logger.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    app
      .stop()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        app.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
};

main().catch((err: unknown) => {
  process.stderr.write(`Atrium failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
