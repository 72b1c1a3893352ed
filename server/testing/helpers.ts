import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { CLIENT_EVENTS } from '@atrium/shared';
import { Job } from 'agenda';
import { io as ioClient, type Socket } from 'socket.io-client';
import { inject } from 'vitest';
import { startApp, type RunningApp } from '../src/app.js';
import type { LeaseOptions } from '../src/channels/lease.js';
import type { ChannelProvider } from '../src/channels/types.js';
import { loadConfig } from '../src/config.js';
import { hashPassword } from '../src/modules/auth/index.js';
import { createLogger, type Logger } from '../src/logger.js';
import { Api } from './api.js';
import { TEMPLATE_DB } from './global-setup.js';

export const SUPER = { email: 'super@atrium.test', password: 'Sup3r-secret-pass' };

/** A database of this test file's own, cloned from the migrated template. */
export const createTestDatabase = async (): Promise<{ url: string; drop: () => Promise<void> }> => {
  const base = inject('pgUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
  await admin.end();
  return {
    url: base.replace(/\/[^/]+$/, `/${name}`),
    drop: async () => {
      const client = new pg.Client({ connectionString: base.replace(/\/[^/]+$/, '/postgres') });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
};

export { Api, type ApiResponse } from './api.js';

export interface TestApp {
  app: RunningApp;
  api: Api;
  superToken: string;
  stop(): Promise<void>;
}

/** The real server on a random port against a fresh database, with a known super admin. */
export const startTestApp = async (
  env: Record<string, string> = {},
  options: {
    providers?: Record<string, ChannelProvider>;
    logger?: Logger;
    leases?: LeaseOptions;
    /** Another app's database (two server processes on one database); it stays when this app stops. */
    sharedDatabaseUrl?: string;
  } = {},
): Promise<TestApp> => {
  const db = options.sharedDatabaseUrl ? { url: options.sharedDatabaseUrl, drop: async () => {} } : await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-test-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    ADMIN_EMAIL: SUPER.email,
    ADMIN_PASSWORD: SUPER.password,
    LOG_LEVEL: 'silent',
    LOGIN_MAX_PER_IP: '100000',
    LOGIN_MAX_PER_EMAIL: '100000',
    SIGNUP_MAX_PER_IP: '100000',
    ...env,
  });
  // TEST_LOG_LEVEL=error shows the server's own account of a failing request.
  const app = await startApp(config, {
    logger: options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    print: () => {},
    providers: options.providers,
    // Not the host:pid name a server takes: two apps of one test process have one pid, and each would take
    // the other's leases for those of a dead earlier life of its own and take its connections over.
    leases: { owner: `test-app:${randomBytes(4).toString('hex')}`, ...options.leases },
  });
  const api = new Api(app.url);
  const { token } = await api.login(SUPER.email, SUPER.password);
  return {
    app,
    api,
    superToken: token,
    stop: async () => {
      await app.stop();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

export interface Tenant {
  companyId: number;
  admin: { id: number; email: string; password: string; token: string };
  agent: { id: number; email: string; password: string; token: string };
}

let tenantSeq = 0;

/** A company with an admin and an agent, created through the super user's endpoints. */
export const createTenant = async (t: TestApp, label = `Co${++tenantSeq}`, planId?: number): Promise<Tenant> => {
  const plan = planId ?? (await t.api.get('/plans/all', t.superToken)).body[0].id;
  const suffix = randomBytes(3).toString('hex');
  const adminEmail = `admin-${label.toLowerCase()}-${suffix}@example.com`;
  const password = 'Passw0rd-' + suffix;
  const company = await t.api.post(
    '/companies',
    { name: `${label} ${suffix}`, email: adminEmail, password, planId: plan },
    t.superToken,
  );
  if (company.status !== 201) throw new Error(`company: ${company.status} ${JSON.stringify(company.body)}`);
  const admin = await t.api.login(adminEmail, password);
  const agentEmail = `agent-${label.toLowerCase()}-${suffix}@example.com`;
  const agentRes = await t.api.post(
    '/users',
    { name: `Agent ${label}`, email: agentEmail, password, profile: 'user' },
    admin.token,
  );
  if (agentRes.status !== 201) throw new Error(`agent: ${agentRes.status} ${JSON.stringify(agentRes.body)}`);
  const agent = await t.api.login(agentEmail, password);
  return {
    companyId: company.body.id,
    admin: { id: admin.user.id, email: adminEmail, password, token: admin.token },
    agent: { id: agent.user.id, email: agentEmail, password, token: agent.token },
  };
};

/**
 * Users of a company written straight to the database in one statement, all with one password hash (of
 * `password`). For tests that need many users to page or search through: created one by one over the API,
 * each paid a password hash, and 41 of them took over 30 s on a busy runner.
 */
export const seedUsers = async (
  t: TestApp,
  companyId: number,
  users: { name: string; email: string }[],
  password = 'Passw0rd-seeded',
): Promise<number[]> => {
  const passwordHash = await hashPassword(password);
  const rows = await t.app.orm.em.fork().execute<{ id: number }[]>(
    `insert into users (name, email, password_hash, company_id, created_at, updated_at)
     select u.name, lower(u.email), ?, ?, now(), now() from json_to_recordset(?::json) as u(name text, email text)
     returning id`,
    [passwordHash, companyId, JSON.stringify(users)],
  );
  return rows.map((r) => r.id);
};

export const connectSocket = (url: string, token?: string): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = ioClient(url, { transports: ['websocket'], query: token ? { token } : {}, reconnection: false });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });

export const nextEvent = <T = any>(socket: Socket, event: string, timeoutMs = 5000): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });

/** Emits a client event (joinChatBox, joinTickets, ...) and waits for the server's acknowledgement that it took effect. */
export const joined = async (socket: Socket, event: string, arg?: unknown): Promise<void> => {
  const result = (await (arg === undefined ? socket.timeout(5000).emitWithAck(event) : socket.timeout(5000).emitWithAck(event, arg))) as {
    ok: boolean;
  };
  if (!result.ok) throw new Error(`${event} failed on the server`);
};

/** The rooms the server has this client socket in (the same socket id on both ends). */
export const serverRooms = (app: RunningApp, socket: Socket): Set<string> => app.realtime.io.sockets.sockets.get(socket.id ?? '')?.rooms ?? new Set();

/**
 * For "must not receive" checks without guessing a delay. Records every event the socket receives from now
 * on; `before(sentinel)` waits for a later event this socket does receive (one the server sends it after
 * any of `ruledOut` that the actions so far could have caused) and answers the `ruledOut` events heard
 * before it, in order: `[]` means the server never sent them.
 */
export const watch = (socket: Socket, ruledOut: string | string[]) => {
  const names = new Set(Array.isArray(ruledOut) ? ruledOut : [ruledOut]);
  const heard: { event: string; payload: unknown }[] = [];
  const record = (event: string, payload: unknown) => heard.push({ event, payload });
  socket.onAny(record);
  return {
    /** `match` picks the sentinel among events of that name (when it shares its name with a ruled-out one). */
    before: (sentinel: string, match: (payload: any) => boolean = () => true, timeoutMs = 5000) =>
      new Promise<{ event: string; payload: unknown }[]>((resolve, reject) => {
        const isSentinel = (e: { event: string; payload: unknown }) => e.event === sentinel && match(e.payload);
        const settle = () => {
          const at = heard.findIndex(isSentinel);
          if (at < 0) return false;
          clearTimeout(timer);
          socket.offAny(check);
          socket.offAny(record);
          resolve(heard.slice(0, at).filter((e) => names.has(e.event)));
          return true;
        };
        // Registered after `record`, so the event it looks for is already in `heard`.
        const check = () => void settle();
        const timer = setTimeout(() => {
          socket.offAny(check);
          socket.offAny(record);
          reject(new Error(`no sentinel ${sentinel} within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!settle()) socket.onAny(check);
      }),
  };
};

/** Like connectSocket, with the handshake's Origin header and transport chosen by the test. */
export const connectSocketWith = (
  url: string,
  options: { token?: string; origin?: string; transport?: 'websocket' | 'polling' } = {},
): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = ioClient(url, {
      transports: [options.transport ?? 'websocket'],
      query: options.token ? { token: options.token } : {},
      reconnection: false,
      extraHeaders: options.origin ? { origin: options.origin } : {},
    });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });

/**
 * Retries `check` (an assertion or a predicate) until it passes or `timeoutMs` runs out. The default is just
 * under the server tests' 30 s timeout: a wait for something that happens, not a deadline on the machine's
 * speed (5 s ran out under load while the awaited send was merely slow); it still fails with the check's
 * own message rather than the test's timeout.
 */
export const eventually = async <T>(check: () => Promise<T> | T, timeoutMs = 25_000, intervalMs = 50): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const result = await check();
      if (result !== false) return result;
      if (Date.now() > deadline) throw new Error('condition still false');
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
};

/**
 * Waits until the connection's outbox has nothing due left to send: what the platform queued before this
 * call (a bot's answers, a greeting) has reached the phone or failed.
 */
export const outboxSettled = (app: RunningApp, whatsappId: number, timeoutMs = 10_000) =>
  eventually(async () => {
    const [row] = await app.orm.em
      .fork()
      .execute<{ waiting: number }[]>(
        `select count(*)::int as waiting from outbound_messages where whatsapp_id = ? and (status = 'sending' or (status = 'pending' and planned_at <= now()))`,
        [whatsappId],
      );
    return row.waiting === 0;
  }, timeoutMs);

/**
 * Resolves with the reason once the socket is disconnected (by the server or otherwise). No deadline of its
 * own: a disconnect that only the periodic session sweep would make (every 5 minutes) outlasts the test's
 * timeout, so a test that passes proves the immediate path.
 */
export const disconnected = (socket: Socket): Promise<string> =>
  new Promise((resolve) => {
    if (!socket.connected) return resolve('already disconnected');
    socket.once('disconnect', (reason: string) => resolve(reason));
  });

/**
 * Whether the socket is still connected after a round trip to its server made now (a heartbeat with its
 * acknowledgement): a disconnect the server sent before handling it arrives first, so "still connected"
 * is judged on an event that was received, not on a quiet moment.
 */
export const stillConnected = (socket: Socket): Promise<boolean> =>
  Promise.race([
    socket.emitWithAck(CLIENT_EVENTS.userStatus).then(() => socket.connected),
    disconnected(socket).then(() => false),
  ]);

/**
 * Makes a stored job due now: saved, it is announced to the job processor, which runs it at once. Tests
 * plan their jobs far ahead and call this when the moment comes, instead of racing a short delay.
 */
export const jobDueNow = async (app: RunningApp, jobId: string): Promise<void> => {
  const { agenda } = app.scheduler;
  const attrs = await agenda.db.getJobById(jobId);
  if (!attrs) throw new Error(`job ${jobId} is not stored`);
  await new Job(agenda, attrs as ConstructorParameters<typeof Job>[1]).schedule(new Date()).save();
};
