import path from 'node:path';
import { ADMIN_EMAIL, jsonClient, spawnServer } from '../../../server/testing/process.js';
import { ARTIFACTS_DIR } from './paths.js';

export { ADMIN_EMAIL };

export interface RunningServer {
  /** http://127.0.0.1:{port} */
  url: string;
  adminEmail: string;
  adminPassword: string;
  /** Everything the server printed so far. */
  output(): string;
  /** SIGTERM, then SIGKILL after `timeoutMs`; saves the log and removes the data folder. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Starts the server the way `npm start` does after its build (`node server/dist/main.js`) in a child
 * process (server/testing/process.ts): a fresh data folder (so a fresh embedded PostgreSQL), free ports,
 * a known admin password and the sandbox channel. Resolves once GET /health answers 200.
 */
export const startServer = async (
  options: { startTimeoutMs?: number; logName?: string; env?: Record<string, string> } = {},
): Promise<RunningServer> => {
  const server = await spawnServer({
    entry: 'dist',
    adminPassword: `e2e-${Math.random().toString(36).slice(2, 12)}`,
    env: { LOG_LEVEL: process.env.E2E_SERVER_LOG_LEVEL ?? 'info', ...options.env },
    startTimeoutMs: options.startTimeoutMs ?? 120_000,
    logFile: path.join(ARTIFACTS_DIR, options.logName ?? 'server.log'),
  });
  return {
    url: server.url,
    adminEmail: server.adminEmail,
    adminPassword: server.adminPassword,
    output: server.output,
    stop: async (timeoutMs) => {
      await server.stop(timeoutMs);
    },
  };
};

/** A small JSON client for the test process (bearer token, JSON bodies, status + parsed body). */
export const apiClient = (baseUrl: string) => {
  const client = jsonClient(baseUrl);
  return { get: client.get, post: client.post, put: client.put };
};
