import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ARTIFACTS_DIR, REPO_ROOT } from './paths.js';

export const ADMIN_EMAIL = 'admin@atrium.local';

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

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

const exited = (child: ChildProcess, timeoutMs: number): Promise<boolean> =>
  new Promise((resolve) => {
    if (hasExited(child)) return resolve(true);
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

/**
 * A server killed with SIGKILL leaves its embedded PostgreSQL running: stop that one postmaster (the
 * pid in DATA_DIR/postgres/postmaster.pid, a process this run started) before removing its folder.
 */
const stopLeftoverPostgres = async (dataDir: string) => {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGQUIT');
  } catch {
    return; // Already gone.
  }
  for (let i = 0; i < 20 && existsSync(pidFile); i++) await sleep(250);
};

/**
 * Starts the server the way `npm start` does after its build (`node server/dist/main.js`) in a child
 * process: a fresh data folder (so a fresh embedded PostgreSQL), free ports, a known admin password and
 * the sandbox channel. Resolves once GET /health answers 200.
 */
export const startServer = async (
  options: { startTimeoutMs?: number; logName?: string; env?: Record<string, string> } = {},
): Promise<RunningServer> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-e2e-'));
  // The embedded PostgreSQL runs as its own system user when we are root: it must reach its folder.
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  let pgPort = await freePort();
  while (pgPort === port) pgPort = await freePort();
  const adminPassword = `e2e-${Math.random().toString(36).slice(2, 12)}`;
  const url = `http://127.0.0.1:${port}`;

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    EMBEDDED_PG_PORT: String(pgPort),
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD: adminPassword,
    CHANNEL_SANDBOX: 'true',
    LOG_LEVEL: process.env.E2E_SERVER_LOG_LEVEL ?? 'info',
    ...options.env,
  };
  // Its own embedded database and the built web app, whatever the calling shell has set.
  for (const name of ['DATABASE_URL', 'MONGODB_URL', 'WEB_DIR', 'JWT_SECRET', 'JWT_REFRESH_SECRET', 'CORS_ORIGINS']) delete env[name];

  const child = spawn(process.execPath, ['server/dist/main.js'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const saveLog = () => {
    try {
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      writeFileSync(path.join(ARTIFACTS_DIR, options.logName ?? 'server.log'), output);
    } catch {
      // The log is a convenience.
    }
  };

  let stopped: Promise<void> | undefined;
  const stop = (timeoutMs = 15_000): Promise<void> => {
    stopped ??= (async () => {
      if (!hasExited(child)) {
        child.kill('SIGTERM');
        if (!(await exited(child, timeoutMs))) {
          output += `\n[e2e] no exit ${timeoutMs} ms after SIGTERM: SIGKILL\n`;
          child.kill('SIGKILL');
          await exited(child, 5_000);
        }
      }
      await stopLeftoverPostgres(dataDir);
      output += `\n[e2e] the server exited with ${child.signalCode ?? `code ${child.exitCode}`} after SIGTERM\n`;
      saveLog();
      rmSync(dataDir, { recursive: true, force: true });
    })();
    return stopped;
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
  try {
    for (;;) {
      if (hasExited(child)) throw new Error(`the server exited during start-up (${child.signalCode ?? `exit ${child.exitCode}`})`);
      try {
        const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
        if (res.status === 200) break;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error('the server did not answer GET /health with 200 in time');
      await sleep(200);
    }
  } catch (err) {
    await stop(5_000);
    throw new Error(`${(err as Error).message}\n--- server output ---\n${output.slice(-6000)}`, { cause: err });
  }

  return { url, adminEmail: ADMIN_EMAIL, adminPassword, output: () => output, stop };
};

/** A small JSON client for the test process (bearer token, JSON bodies, status + parsed body). */
export const apiClient = (baseUrl: string) => {
  const call = async (method: string, route: string, token?: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${route}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any = text;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: res.status, body: json };
  };
  return {
    get: (route: string, token?: string) => call('GET', route, token),
    post: (route: string, body: unknown, token?: string) => call('POST', route, token, body),
    put: (route: string, body: unknown, token?: string) => call('PUT', route, token, body),
  };
};
