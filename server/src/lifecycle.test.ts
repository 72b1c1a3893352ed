import { existsSync, mkdtempSync, readFileSync, rmSync, chmodSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { io as ioClient, type Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { accepts } from '../testing/ports.js';
import { callJson as call, health, isAlive, postmasterPid, spawnServer, until, type ServerProcess } from '../testing/process.js';

/**
 * The real server as `npm start` runs it (main.ts in a child process through tsx, its own embedded
 * PostgreSQL under a temporary DATA_DIR), stopped with SIGTERM under load and killed with SIGKILL mid-traffic.
 */
const ADMIN_EMAIL = 'admin@atrium.local';
const ADMIN_PASSWORD = 'Lifecycle-test-01';

const scratch = mkdtempSync(path.join(tmpdir(), 'atrium-lifecycle-'));
// The embedded PostgreSQL runs as its own system user when we are root: it must reach its folders.
chmodSync(scratch, 0o755);

const servers: ServerProcess[] = [];
const newDataDir = (label: string) => path.join(scratch, label);

/** main.ts in a child process, as `npm start` runs it after its build (tsx instead of the build). */
const launch = async (dataDir: string, waitHealthy: boolean) => {
  const server = await spawnServer({ entry: 'source', dataDir, adminPassword: ADMIN_PASSWORD, waitHealthy, startTimeoutMs: 90_000 });
  servers.push(server);
  return server;
};
/** A server that answers GET /health with 200. */
const startServer = (dataDir: string) => launch(dataDir, true);

/** A crash: the server and its PostgreSQL both killed outright, the lock file left behind. */
const crash = async (server: ServerProcess) => {
  const pid = postmasterPid(server.dataDir);
  expect(pid).toBeTruthy();
  await server.crash();
  expect(postmasterPid(server.dataDir)).toBe(pid);
};

/** A company with its admin and a connected sandbox phone, as README's curl flow does. */
const companyWithSandbox = async (url: string) => {
  const agent = new http.Agent({ keepAlive: true });
  try {
    const superToken = (await call(agent, url, 'POST', '/auth/login', undefined, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).body.token;
    const planId = (await call(agent, url, 'GET', '/plans/all', superToken)).body[0].id;
    const email = `admin-${Math.random().toString(36).slice(2, 8)}@lifecycle.test`;
    const company = await call(agent, url, 'POST', '/companies', superToken, { name: 'Lifecycle', email, password: ADMIN_PASSWORD, planId });
    expect(company.body.id, JSON.stringify(company.body)).toBeTruthy();
    const token = (await call(agent, url, 'POST', '/auth/login', undefined, { email, password: ADMIN_PASSWORD })).body.token as string;
    const connection = await call(agent, url, 'POST', '/whatsapp', token, { name: 'Lifecycle phone', provider: 'sandbox' });
    expect(connection.body.id, JSON.stringify(connection.body)).toBeTruthy();
    expect((await call(agent, url, 'POST', `/sandbox/${connection.body.id}/scan`, token)).status).toBeLessThan(300);
    return { token, whatsappId: connection.body.id as number, companyId: company.body.id as number };
  } finally {
    agent.destroy();
  }
};

afterAll(async () => {
  for (const { child } of servers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  // Whatever PostgreSQL a failed test left running (this run's own clusters only).
  for (const name of existsSync(scratch) ? ['stop', 'inbound'] : []) {
    const pid = postmasterPid(path.join(scratch, name));
    if (pid && isAlive(pid)) process.kill(pid, 'SIGQUIT');
  }
  rmSync(scratch, { recursive: true, force: true });
});

describe('the server process', () => {
  it('stops within 10 s on SIGTERM while keep-alive clients keep it busy, and stops its PostgreSQL', async () => {
    const server = await startServer(newDataDir('stop'));
    const { token, whatsappId } = await companyWithSandbox(server.url);
    const pgPid = postmasterPid(server.dataDir);
    expect(pgPid && isAlive(pgPid)).toBeTruthy();

    // Two agents' realtime sockets (WebSocket and long-polling), agents polling the ticket list and a
    // phone delivering messages, each on its own kept-alive connection, until the server refuses them
    // or exits (bounded: at most 20 s).
    const sockets = await Promise.all(
      (['websocket', 'polling'] as const).map(
        (transport) =>
          new Promise<Socket>((resolve, reject) => {
            const socket = ioClient(server.url, { transports: [transport], query: { token }, reconnection: false });
            socket.once('connect', () => resolve(socket));
            socket.once('connect_error', reject);
          }),
      ),
    );
    const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
    let exited = false;
    const deadline = Date.now() + 20_000;
    let answered = 0;
    const clients = Array.from({ length: 6 }, async (_, c) => {
      for (let i = 0; !exited && Date.now() < deadline; i++) {
        try {
          if (c % 2 === 0) await call(agent, server.url, 'GET', '/tickets?status=pending', token);
          else await call(agent, server.url, 'POST', `/sandbox/${whatsappId}/messages`, token, { from: `55119${c}${i % 50}`.padEnd(13, '0'), body: 'oi', id: `STOP-${c}-${i}` });
          answered++;
        } catch {
          return; // Refused or cut: this client is done.
        }
      }
    });
    await until('the clients to be busy', () => answered >= 60, 30_000);

    server.child.kill('SIGTERM');
    const result = await server.exit;
    exited = true;
    await Promise.all(clients);
    agent.destroy();
    for (const socket of sockets) socket.close();

    expect(result, server.output().slice(-3000)).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('"msg":"stopped"');
    // The postmaster is gone with its lock file, and its port refuses connections.
    expect(isAlive(pgPid!)).toBe(false);
    expect(existsSync(path.join(server.dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(await accepts(server.pgPort)).toBe(false);
  }, 120_000);

  // One test for the crash (a separate one paid two more server starts, 20-30 s each on a busy runner).
  it('refuses a second server on its data, and across a crash mid-traffic keeps every acknowledged inbound message once, one ticket per contact', async () => {
    const dataDir = newDataDir('inbound');
    const server = await startServer(dataDir);
    const pgPid = postmasterPid(dataDir);

    // A second server on the same DATA_DIR: a clear refusal, and the first one's database untouched.
    const second = await launch(dataDir, false);
    expect(await second.exit).toEqual({ code: 1, signal: null });
    expect(second.output()).toContain(
      `Atrium failed to start: the embedded PostgreSQL data directory ${path.join(dataDir, 'postgres')} is in use by a running PostgreSQL (PID ${pgPid})`,
    );
    expect(second.output()).not.toContain('undefined');
    expect(await health(server.url)).toBe(200);

    const { token, whatsappId, companyId } = await companyWithSandbox(server.url);

    // 1,200 messages from 120 customers, four phones sending at once; the server and its PostgreSQL
    // are killed once half of them are acknowledged, while the rest are in flight. What a crash can lose
    // or double is in flight then (four messages, whatever the total): 3,000 messages only made the test
    // spend over a minute of a busy runner on traffic, and run out of its time.
    const TOTAL = 1_200;
    const CONTACTS = 120;
    const messages = Array.from({ length: TOTAL }, (_, n) => ({ id: `CRASH-${n}`, from: String(5521900000000 + (n % CONTACTS)), name: `Cliente ${n % CONTACTS}`, body: `mensagem ${n}` }));
    const acknowledged = new Set<string>();
    // What the server refused after the crash, with its answer: the message of a failed assertion.
    const refused: string[] = [];
    const send = async (url: string, batch: typeof messages, onAck?: () => void) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < batch.length) {
            const message = batch[next++];
            try {
              const res = await call(agent, url, 'POST', `/sandbox/${whatsappId}/messages`, token, message);
              if (res.status === 201) {
                acknowledged.add(message.id);
                onAck?.();
              } else {
                refused.push(`${message.id}: ${res.status} ${JSON.stringify(res.body)}`);
              }
            } catch (err) {
              refused.push(`${message.id}: ${(err as Error).message}`);
              return; // The server is gone: this phone stops.
            }
          }
        }),
      );
      agent.destroy();
    };
    let crashed: Promise<void> | undefined;
    await send(server.url, messages, () => {
      if (acknowledged.size >= TOTAL / 2) crashed ??= crash(server);
    });
    await crashed;
    refused.length = 0;
    const acknowledgedBeforeCrash = new Set(acknowledged);
    expect(acknowledgedBeforeCrash.size).toBeGreaterThanOrEqual(TOTAL / 2);
    expect(acknowledgedBeforeCrash.size).toBeLessThan(TOTAL);

    // It comes back over the lock file the killed PostgreSQL left.
    const again = await startServer(dataDir);
    expect(again.output()).toContain('removing a stale postmaster.pid');
    const db = new pg.Client({
      host: '127.0.0.1',
      port: again.pgPort,
      user: 'postgres',
      password: readFileSync(path.join(dataDir, 'secrets', 'postgres-password'), 'utf8').trim(),
      database: 'atrium',
    });
    await db.connect();
    try {
      const storedIds = async () =>
        (await db.query<{ wid: string; copies: number }>('select wid, count(*)::int as copies from messages where whatsapp_id = $1 group by wid', [whatsappId])).rows;
      const check = async (mustBeStored: Set<string>) => {
        // What a crash left in the inbound queue is stored by the replay at start-up: wait for it.
        let rows = await storedIds();
        await until('every acknowledged message to be stored', async () => {
          rows = await storedIds();
          const stored = new Set(rows.map((r) => r.wid));
          return [...mustBeStored].every((id) => stored.has(id));
        }, 60_000);
        expect(rows.filter((r) => r.copies !== 1)).toEqual([]);
        const sent = new Set(messages.map((m) => m.id));
        expect(rows.filter((r) => !sent.has(r.wid))).toEqual([]);
        const perContact = await db.query<{ contact_id: number; tickets: number }>(
          'select contact_id, count(*)::int as tickets from tickets where whatsapp_id = $1 group by contact_id',
          [whatsappId],
        );
        expect(perContact.rows.filter((r) => r.tickets !== 1)).toEqual([]);
        const contacts = await db.query<{ n: number; numbers: number }>(
          `select count(*)::int as n, count(distinct number)::int as numbers from contacts where company_id = $1 and number like '55219%'`,
          [companyId],
        );
        const writers = await db.query<{ n: number }>('select count(distinct contact_id)::int as n from messages where whatsapp_id = $1', [whatsappId]);
        expect(contacts.rows[0].n).toBe(contacts.rows[0].numbers);
        expect(perContact.rows.length).toBe(writers.rows[0].n);
        return rows.length;
      };
      const storedAfterCrash = await check(acknowledgedBeforeCrash);
      expect(storedAfterCrash).toBeGreaterThanOrEqual(acknowledgedBeforeCrash.size);

      // WhatsApp delivers only to a connected device: the phone reconnects after the replay, in the
      // background of a server that already answers. A receipt for no message is the probe that changes
      // nothing; until the session is up it is refused like a message would be.
      const probe = new http.Agent({ keepAlive: true });
      await until('the sandbox phone to be connected again', async () => {
        const res = await call(probe, again.url, 'POST', `/sandbox/${whatsappId}/ack`, token, { id: 'PROBE', ack: 3 });
        if (res.status !== 200 && res.body?.error !== 'ERR_WAPP_NOT_INITIALIZED') throw new Error(`unexpected probe answer ${res.status} ${JSON.stringify(res.body)}`);
        return res.status === 200;
      }, 30_000);
      probe.destroy();

      // WhatsApp delivers again what it was not sure of: everything not acknowledged, then a replay of
      // the acknowledged ones. All of it ends stored once, still one ticket per customer.
      await send(again.url, [...messages.filter((m) => !acknowledgedBeforeCrash.has(m.id)), ...messages.slice(0, CONTACTS)]);
      expect(refused, again.output().slice(-3000)).toEqual([]);
      expect(acknowledged.size).toBe(TOTAL);
      expect(await check(acknowledged)).toBe(TOTAL);
      const tickets = await db.query<{ n: number }>('select count(*)::int as n from tickets where whatsapp_id = $1', [whatsappId]);
      expect(tickets.rows[0].n).toBe(CONTACTS);
    } finally {
      await db.end();
    }
    again.child.kill('SIGTERM');
    expect(await again.exit).toEqual({ code: 0, signal: null });
    expect(postmasterPid(dataDir)).toBeUndefined();
  }, 180_000);
});
