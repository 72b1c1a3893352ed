import http from 'node:http';
import pg from 'pg';
import { io as ioClient, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, disconnected, joined, nextEvent } from '../testing/helpers.js';
import { jsonClient, spawnServer, until, type ServerProcess } from '../testing/process.js';

/**
 * Two real server processes (main.ts in child processes, as `npm start` runs it) on one PostgreSQL (the test
 * run's, through DATABASE_URL), as a company would run them behind a load balancer. A runs the sandbox
 * connection (its lease); agents use either. The crash of A has a deployment of its own: the other stories
 * need A alive and running the connection, whatever order they run in.
 */
const ADMIN_PASSWORD = 'Scale-test-password-1';
const LEASE_TTL_MS = 3_000;

const sockets: Socket[] = [];
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const api = (server: ServerProcess) => jsonClient(server.url, agent);

const start = (databaseUrl: string) =>
  spawnServer({
    entry: 'source',
    adminPassword: ADMIN_PASSWORD,
    env: {
      DATABASE_URL: databaseUrl,
      // Replicas of one deployment share their secrets: a token one signed is good at the other.
      JWT_SECRET: 'scale-test-jwt-secret-0123456789abcdef',
      JWT_REFRESH_SECRET: 'scale-test-refresh-secret-0123456789abcdef',
      CONNECTION_LEASE_TTL_MS: String(LEASE_TTL_MS),
      LOGIN_MAX_PER_IP: '100000',
      LOGIN_MAX_PER_EMAIL: '100000',
      LOG_LEVEL: 'warn',
    },
    startTimeoutMs: 120_000,
  });

const socketOn = (server: ServerProcess, token: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = ioClient(server.url, { transports: ['websocket'], query: { token }, reconnection: false });
    sockets.push(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });

afterAll(() => {
  for (const socket of sockets) socket.close();
  agent.destroy();
});

/**
 * A deployment of its own: a database, process A with a company whose sandbox connection A runs, then
 * process B. Started in the calling describe's beforeAll, stopped in its afterAll.
 */
const deployment = () => {
  const d = {} as {
    db: { url: string; drop: () => Promise<void> };
    sql: pg.Client;
    A: ServerProcess;
    B: ServerProcess;
    admin: { email: string; token: string };
    whatsappId: number;
    /** The pid in a lease's owner name (host:pid:suffix): which process runs the connection. */
    runnerPid: () => Promise<number | undefined>;
    /** Deliveries on the simulated phone of the connection: each id with how many times it reached the phone. */
    phoneReceived: () => Promise<{ wid: string; body: string; deliveries: number }[]>;
    /** The customer's ticket, accepted by the admin through `server`. */
    acceptedTicket: (server: ServerProcess, from: string) => Promise<{ id: number }>;
  };
  d.runnerPid = async () => {
    const { rows } = await d.sql.query<{ owner: string }>('select owner from connection_leases where whatsapp_id = $1 and expires_at > now()', [d.whatsappId]);
    return rows[0] ? Number(rows[0].owner.split(':')[1]) : undefined;
  };
  d.phoneReceived = async () =>
    (await d.sql.query<{ wid: string; body: string; deliveries: number }>('select wid, body, deliveries from sandbox_outbox where whatsapp_id = $1', [d.whatsappId])).rows;
  d.acceptedTicket = async (server, from) => {
    let ticket: { id: number } | undefined;
    await until('the customer’s ticket', async () => {
      const list = await api(server).get(`/tickets?showAll=true&searchParam=${from}`, d.admin.token);
      ticket = (list.body.tickets as { id: number; contact: { number: string } }[]).find((t) => t.contact.number === from);
      return ticket !== undefined;
    }, 10_000);
    expect((await api(server).put(`/tickets/${ticket!.id}`, { status: 'open' }, d.admin.token)).status).toBe(200);
    return ticket!;
  };

  beforeAll(async () => {
    d.db = await createTestDatabase();
    d.sql = new pg.Client({ connectionString: d.db.url });
    await d.sql.connect();
    d.A = await start(d.db.url);
    const superToken = (await api(d.A).post('/auth/login', { email: d.A.adminEmail, password: ADMIN_PASSWORD })).body.token as string;
    const planId = (await api(d.A).get('/plans/all', superToken)).body[0].id;
    const email = `admin-${Math.random().toString(36).slice(2, 8)}@scale.test`;
    expect((await api(d.A).post('/companies', { name: 'Scale', email, password: ADMIN_PASSWORD, planId }, superToken)).status).toBe(201);
    d.admin = { email, token: (await api(d.A).post('/auth/login', { email, password: ADMIN_PASSWORD })).body.token };
    const connection = await api(d.A).post('/whatsapp', { name: 'Scale phone', provider: 'sandbox' }, d.admin.token);
    d.whatsappId = connection.body.id;
    expect((await api(d.A).post(`/sandbox/${d.whatsappId}/scan`, {}, d.admin.token)).status).toBe(200);
    d.B = await start(d.db.url);
    expect(await d.runnerPid()).toBe(d.A.child.pid);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([d.A?.stop(), d.B?.stop()]);
    await d.sql?.end();
    await d.db?.drop();
  });
  return d;
};

describe('two server processes on one database', () => {
  const d = deployment();

  it('a socket on B hears a message received through A’s connection', async () => {
    const socket = await socketOn(d.B, d.admin.token);
    await joined(socket, 'joinNotification');
    const heard = nextEvent(socket, `company-${(await api(d.B).get('/auth/me', d.admin.token)).body.companyId}-appMessage`);
    expect((await api(d.A).post(`/sandbox/${d.whatsappId}/messages`, { from: '5511955550001', name: 'Maria', body: 'Olá, servidor A' }, d.admin.token)).status).toBe(201);
    expect(await heard).toMatchObject({ action: 'create', message: { body: 'Olá, servidor A' } });
  });

  it('an agent’s reply made on B goes out through A, once', async () => {
    const from = '5511955550002';
    expect((await api(d.A).post(`/sandbox/${d.whatsappId}/messages`, { from, name: 'João', body: 'Olá' }, d.admin.token)).status).toBe(201);
    const ticket = await d.acceptedTicket(d.B, from);
    const reply = await api(d.B).post(`/messages/${ticket.id}`, { body: 'Resposta feita no B' }, d.admin.token);
    expect(reply.status).toBe(200);
    await until('the reply on the phone', async () => (await d.phoneReceived()).some((m) => m.wid === reply.body.wid), 10_000);
    expect((await d.phoneReceived()).filter((m) => m.wid === reply.body.wid)).toEqual([{ wid: reply.body.wid, body: 'Resposta feita no B', deliveries: 1 }]);
    // A sent it: B never ran the connection.
    expect(await d.runnerPid()).toBe(d.A.child.pid);
  });

  it('a logout on A disconnects the session’s sockets on A and on B within 2 s', async () => {
    const email = `agent-${Math.random().toString(36).slice(2, 8)}@scale.test`;
    expect((await api(d.A).post('/users', { name: 'Agent', email, password: ADMIN_PASSWORD }, d.admin.token)).status).toBe(201);
    const token = (await api(d.B).post('/auth/login', { email, password: ADMIN_PASSWORD })).body.token as string;
    const [onA, onB] = await Promise.all([socketOn(d.A, token), socketOn(d.B, token)]);
    const closed = [disconnected(onA), disconnected(onB)];
    expect((await api(d.A).call('DELETE', '/auth/logout', token)).status).toBe(200);
    expect(await Promise.all(closed)).toEqual(['io server disconnect', 'io server disconnect']);
  });

});

describe('one of two server processes killed', () => {
  const d = deployment();

  it('SIGKILL of A: B takes the connection over and receives and sends, with nothing lost or doubled', async () => {
    // A customer writes through A, and an agent answers through B, while A is killed: what A acknowledged
    // must be stored once, what B accepted must reach the phone once.
    const from = '5511955550001';
    expect((await api(d.A).post(`/sandbox/${d.whatsappId}/messages`, { from, name: 'Maria', body: 'Olá' }, d.admin.token)).status).toBe(201);
    const ticket = await d.acceptedTicket(d.B, from);
    // Sized for a busy 2-core machine: 200 messages and 30 replies, re-sent one by one after the crash, ran
    // past the test's 30 s under load (test:stress) without proving more than these do.
    const messages = Array.from({ length: 80 }, (_, n) => ({ id: `SCALE-${n}`, from: String(5521960000000 + (n % 10)), body: `mensagem ${n}` }));
    const acknowledged = new Set<string>();
    const replies: string[] = [];
    let next = 0;
    let crashed: Promise<void> | undefined;
    const customers = Array.from({ length: 4 }, async () => {
      while (next < messages.length) {
        const message = messages[next++];
        const res = await api(d.A).post(`/sandbox/${d.whatsappId}/messages`, message, d.admin.token).catch(() => undefined);
        if (!res) return; // A is gone.
        if (res.status === 201) acknowledged.add(message.id);
        if (acknowledged.size >= messages.length / 2) crashed ??= d.A.crash();
      }
    });
    const agentReplies = (async () => {
      for (let i = 0; i < 12 && !crashed; i++) {
        const reply = await api(d.B).post(`/messages/${ticket.id}`, { body: `resposta ${i}` }, d.admin.token);
        expect(reply.status).toBe(200);
        replies.push(reply.body.wid);
      }
    })();
    await Promise.all([...customers, agentReplies]);
    await crashed;
    expect(acknowledged.size).toBeGreaterThanOrEqual(messages.length / 2);
    // One more while nobody runs the connection: it waits in the outbox.
    const waiting = await api(d.B).post(`/messages/${ticket.id}`, { body: 'enquanto ninguém envia' }, d.admin.token);
    expect(waiting.status).toBe(200);
    replies.push(waiting.body.wid);

    // Within the lease's expiry (and a keeper round) B runs the connection.
    await until('B to run the connection', async () => (await d.runnerPid()) === d.B.child.pid, LEASE_TTL_MS * 3);

    // The phone delivers again what was not acknowledged, and repeats some that were: through B now.
    await until('B’s session to take messages', async () => (await api(d.B).post(`/sandbox/${d.whatsappId}/ack`, { id: 'PROBE', ack: 3 }, d.admin.token)).status === 200, 15_000);
    for (const message of [...messages.filter((m) => !acknowledged.has(m.id)), ...messages.slice(0, 10)]) {
      expect((await api(d.B).post(`/sandbox/${d.whatsappId}/messages`, message, d.admin.token)).status).toBe(201);
    }
    const stored = (await d.sql.query<{ wid: string; copies: number }>(`select wid, count(*)::int as copies from messages where whatsapp_id = $1 and wid like 'SCALE-%' group by wid`, [d.whatsappId])).rows;
    expect(stored.filter((r) => r.copies !== 1)).toEqual([]);
    expect(stored.map((r) => r.wid).sort()).toEqual(messages.map((m) => m.id).sort());

    // A reply made on B leaves through B's session; every reply accepted before reaches the phone too, none twice.
    const after = await d.acceptedTicket(d.B, messages[0].from);
    const reply = await api(d.B).post(`/messages/${after.id}`, { body: 'Depois da queda' }, d.admin.token);
    expect(reply.status).toBe(200);
    replies.push(reply.body.wid);
    await until('every reply on the phone', async () => {
      const received = new Set((await d.phoneReceived()).map((m) => m.wid));
      return replies.every((wid) => received.has(wid));
    }, 15_000);
    expect((await d.phoneReceived()).filter((m) => m.deliveries !== 1)).toEqual([]);
    // Every outbox row settles: the phone has them, and a row is marked sent just after (a read right after
    // the phone's count once found one still sending).
    const unsettled = async () =>
      (await d.sql.query(`select id from outbound_messages where whatsapp_id = $1 and status in ('pending', 'sending')`, [d.whatsappId])).rows;
    await until('every outbox row settled', async () => (await unsettled()).length === 0, 15_000);
  });
});
