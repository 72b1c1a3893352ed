import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/db/embedded.js';
import { accepts } from './ports.js';

/**
 * The server as its own process, the one way tests and benchmarks start it: the end-to-end tests (the
 * build, as `npm start` runs it), the lifecycle test, the outbox and scale benchmarks (from source).
 */
export { freePort };

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ADMIN_EMAIL = 'admin@atrium.local';

/** Settings of the calling shell that would point the child at something else than its own data. */
const FOREIGN_ENV = [
  'DATABASE_URL',
  'MONGODB_URL',
  'WEB_DIR',
  'JWT_SECRET',
  'JWT_REFRESH_SECRET',
  'CORS_ORIGINS',
  'VITEST',
  'VITEST_POOL_ID',
  'VITEST_WORKER_ID',
];

export interface SpawnOptions {
  /** `dist`: `node server/dist/main.js` (the build); `source`: `server/src/main.ts` through tsx, shared from source too. */
  entry: 'dist' | 'source';
  /** Over the defaults; `undefined` removes a variable. DATABASE_URL here points the server at an external PostgreSQL. */
  env?: Record<string, string | undefined>;
  /** DATA_DIR; a fresh temporary folder (removed by stop()) when absent. */
  dataDir?: string;
  /** Chosen free when absent; a restart passes the former ones. */
  ports?: { port?: number; pgPort?: number };
  /** The super admin's password (ADMIN_PASSWORD); random when absent. */
  adminPassword?: string;
  /** Waits until GET /health answers 200 (default); false answers at once (a start expected to fail). */
  waitHealthy?: boolean;
  startTimeoutMs?: number;
  /** Also copies the server's stderr to this process's (a benchmark's live errors). */
  echoStderr?: boolean;
  /** Where stop() writes everything the server printed (a failed start's too). */
  logFile?: string;
}

export interface ServerProcess {
  /** http://127.0.0.1:{port} */
  url: string;
  port: number;
  /** The embedded PostgreSQL's port (unused with DATABASE_URL). */
  pgPort: number;
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything the server printed so far. */
  output(): string;
  /**
   * SIGTERM, then SIGKILL after `timeoutMs`; then a PostgreSQL the server left running is stopped, and a data
   * folder spawnServer made is removed. Answers how the process ended.
   */
  stop(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** As a power cut: the server and its embedded PostgreSQL killed outright (SIGKILL), the lock file left behind. */
  crash(): Promise<void>;
}

/** The pid in DATA_DIR/postgres/postmaster.pid: the embedded PostgreSQL running (or left) there. */
export const postmasterPid = (dataDir: string): number | undefined => {
  const file = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
};

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls until `check` holds, at most `timeoutMs`; the short pause between polls is not a fixed wait. */
export const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs: number, intervalMs = 100) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
};

/** GET /health's status, 0 when nothing answers. */
export const health = async (url: string) => {
  try {
    return (await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) })).status;
  } catch {
    return 0;
  }
};

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

const exitedWithin = (child: ChildProcess, timeoutMs: number): Promise<boolean> =>
  new Promise((resolve) => {
    if (hasExited(child)) return resolve(true);
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

/**
 * tsx runs main.ts with @atrium/shared from source (no build needed): one tsconfig for this process's
 * children, in a folder of its own removed when this process exits.
 */
let sourceTsconfig: string | undefined;
const tsconfigForSource = () => {
  if (sourceTsconfig) return sourceTsconfig;
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-tsx-'));
  const file = path.join(dir, 'tsconfig.json');
  writeFileSync(
    file,
    JSON.stringify({
      extends: path.join(REPO_ROOT, 'server/tsconfig.json'),
      compilerOptions: { paths: { '@atrium/shared': [path.join(REPO_ROOT, 'shared/src/index.ts')] } },
    }),
  );
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  sourceTsconfig = file;
  return file;
};

const saveLog = (file: string, text: string) => {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch {
    // The log is a convenience.
  }
};

/** Stops the postmaster a killed server left running in `dataDir` (a process this run started) and waits for it. */
const stopLeftoverPostgres = async (dataDir: string) => {
  const pid = postmasterPid(dataDir);
  if (!pid || !isAlive(pid)) return;
  try {
    process.kill(pid, 'SIGQUIT');
  } catch {
    return; // Already gone.
  }
  await until('the leftover PostgreSQL to stop', () => !existsSync(path.join(dataDir, 'postgres', 'postmaster.pid')) || !isAlive(pid), 5_000, 250).catch(
    () => undefined,
  );
};

/**
 * Starts the server in a child process with its own data folder (so its own embedded PostgreSQL, unless
 * `env.DATABASE_URL`), free ports, a known admin and the sandbox channel; resolves once GET /health
 * answers 200 (unless `waitHealthy: false`). A start that fails is stopped and throws with the server's output.
 */
export const spawnServer = async (options: SpawnOptions): Promise<ServerProcess> => {
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'atrium-server-'));
  mkdirSync(dataDir, { recursive: true });
  // The embedded PostgreSQL runs as its own system user when we are root: it must reach its folder.
  chmodSync(dataDir, 0o755);
  const port = options.ports?.port ?? (await freePort());
  let pgPort = options.ports?.pgPort ?? (await freePort());
  while (pgPort === port) pgPort = await freePort();
  const adminPassword = options.adminPassword ?? `admin-${Math.random().toString(36).slice(2, 12)}`;
  const url = `http://127.0.0.1:${port}`;

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of FOREIGN_ENV) delete env[name];
  Object.assign(env, {
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    EMBEDDED_PG_PORT: String(pgPort),
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD: adminPassword,
    CHANNEL_SANDBOX: 'true',
    LOG_LEVEL: 'info',
  });
  if (options.entry === 'source') env.TSX_TSCONFIG_PATH = tsconfigForSource();
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }

  const args = options.entry === 'dist' ? ['server/dist/main.js'] : ['--import', 'tsx', 'server/src/main.ts'];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (options.echoStderr) process.stderr.write(chunk);
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  let stopped: ReturnType<ServerProcess['stop']> | undefined;
  const stop = (timeoutMs = 15_000) =>
    (stopped ??= (async () => {
      if (!hasExited(child)) {
        child.kill('SIGTERM');
        if (!(await exitedWithin(child, timeoutMs))) {
          output += `\n[spawnServer] no exit ${timeoutMs} ms after SIGTERM: SIGKILL\n`;
          child.kill('SIGKILL');
        }
      }
      const result = await exit;
      await stopLeftoverPostgres(dataDir);
      output += `\n[spawnServer] the server exited with ${result.signal ?? `code ${result.code}`}\n`;
      if (options.logFile) saveLog(options.logFile, output);
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
      return result;
    })());

  const crash = async () => {
    const pid = postmasterPid(dataDir);
    child.kill('SIGKILL');
    if (pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await exit;
    // Nobody may reap it (a zombie still answers kill(pid, 0)); its port closes when it dies.
    if (pid) await until('the killed PostgreSQL to close its port', async () => !(await accepts(pgPort)), 10_000);
  };

  const server: ServerProcess = { url, port, pgPort, dataDir, adminEmail: ADMIN_EMAIL, adminPassword, child, exit, output: () => output, stop, crash };
  if (options.waitHealthy === false) return server;
  try {
    await until(
      'GET /health to answer 200',
      async () => {
        if (hasExited(child)) throw new Error(`the server exited during start-up (${child.signalCode ?? `exit ${child.exitCode}`})`);
        return (await health(url)) === 200;
      },
      options.startTimeoutMs ?? 120_000,
    );
  } catch (err) {
    await stop(5_000);
    throw new Error(`${(err as Error).message}\n--- server output ---\n${output.slice(-6000)}`, { cause: err });
  }
  return server;
};

export interface JsonResponse {
  status: number;
  body: any;
}

/**
 * A JSON call on a keep-alive connection (node:http, as agents' apps and phones do): bearer token, JSON
 * body, status and parsed body (the text when not JSON). Rejects when the connection fails or drops.
 */
export const callJson = (agent: http.Agent, url: string, method: string, route: string, token?: string, body?: unknown) =>
  new Promise<JsonResponse>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${url}${route}`,
      {
        method,
        agent,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: unknown = text;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            // Not JSON: the text as it is.
          }
          resolve({ status: res.statusCode ?? 0, body: json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

/** callJson bound to one server and one keep-alive agent. */
export const jsonClient = (url: string, agent = new http.Agent({ keepAlive: true })) => ({
  agent,
  call: (method: string, route: string, token?: string, body?: unknown) => callJson(agent, url, method, route, token, body),
  get: (route: string, token?: string) => callJson(agent, url, 'GET', route, token),
  post: (route: string, body: unknown, token?: string) => callJson(agent, url, 'POST', route, token, body),
  put: (route: string, body: unknown, token?: string) => callJson(agent, url, 'PUT', route, token, body),
  delete: (route: string, token?: string) => callJson(agent, url, 'DELETE', route, token),
  close: () => agent.destroy(),
});
