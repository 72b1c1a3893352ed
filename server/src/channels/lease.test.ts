import { EventEmitter } from 'node:events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../db/tenant.js';
import { ChannelAuthKey, Whatsapp } from '../modules/connections/whatsapp.entity.js';
import { connectSandbox, delivered, ticketOf } from '../../testing/conversation.js';
import { createTenant, createTestDatabase, eventually, startTestApp, type Tenant, type TestApp } from '../../testing/helpers.js';
import { createAuthStore } from './auth-store.js';
import { startAllSessions } from './boot.js';
import { ConnectionLeases, LeaseLostError } from './lease.js';
import { createSandboxProvider } from './sandbox/sandbox.provider.js';
import type { ChannelProvider, SessionOptions } from './types.js';

/**
 * One owner per session: two server processes (two real apps) on one database never run the same
 * connection at once. The sandbox phone stands for the socket; a recording wrapper around it tells which
 * app runs which connection, and every start and stop is an event the test waits for.
 */
/**
 * A and B: long enough that a renewal is never late by chance on a busy machine (with 1 s, a stalled round
 * let the lease lapse and the other process take the connection mid-test); a takeover test makes the lease
 * run out itself. C: short, for the test of a process whose renewals do not get through (it closes its socket
 * once its own lease has gone unrenewed that long).
 */
const LEASE = { ttlMs: 30_000, renewMs: 100 };
const SHORT_LEASE = { ttlMs: 3_000, renewMs: 100 };

type Label = 'A' | 'B' | 'C';
const happenings = new EventEmitter();
/** The app running each connection's socket now, and the times two apps ran one at once. */
const running = new Map<number, Label>();
const overlaps: string[] = [];
const sessions: { label: Label; whatsappId: number; options: SessionOptions }[] = [];

const recordingSandbox = (label: Label, em: () => EntityManager): ChannelProvider => {
  const inner = createSandboxProvider(() => em());
  return {
    ...inner,
    createSession(options) {
      const session = inner.createSession(options);
      sessions.push({ label, whatsappId: options.whatsappId, options });
      const { start, stop, logout } = session;
      const ended = () => {
        if (running.get(options.whatsappId) === label) running.delete(options.whatsappId);
        happenings.emit('stop', label, options.whatsappId);
      };
      session.start = async () => {
        const other = running.get(options.whatsappId);
        if (other && other !== label) overlaps.push(`${label} started connection ${options.whatsappId} while ${other} ran it`);
        running.set(options.whatsappId, label);
        await start.call(session);
        happenings.emit('start', label, options.whatsappId);
      };
      session.stop = async () => {
        await stop.call(session);
        ended();
      };
      session.logout = async () => {
        await logout.call(session);
        ended();
      };
      return session;
    },
  };
};

/** Resolves when `label` starts (or stops) the connection's session. */
const next = (kind: 'start' | 'stop', label: Label, whatsappId: number) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not ${kind} connection ${whatsappId} within 10 s`)), 10_000);
    const listener = (l: Label, id: number) => {
      if (l !== label || id !== whatsappId) return;
      clearTimeout(timer);
      happenings.off(kind, listener);
      resolve();
    };
    happenings.on(kind, listener);
  });

let db: { url: string; drop: () => Promise<void> };
const apps: Partial<Record<Label, TestApp>> = {};
const startServer = async (label: Label) => {
  // The provider reaches its app's database once the app exists (its sessions start after that).
  const self: { app?: TestApp } = {};
  const app = await startTestApp(
    // Replicas of one deployment share their secrets: a token one signed is good at the other.
    { JWT_SECRET: 'lease-test-jwt-secret-0123456789abcdef', JWT_REFRESH_SECRET: 'lease-test-refresh-secret-0123456789abcdef' },
    {
      providers: { sandbox: recordingSandbox(label, () => forSystem(self.app!.app.orm.em)) },
      leases: { ...(label === 'C' ? SHORT_LEASE : LEASE), owner: `process-${label}` },
      sharedDatabaseUrl: db.url,
    },
  );
  self.app = app;
  apps[label] = app;
  return app;
};
const em = () => forSystem((apps.C ?? apps.B ?? apps.A)!.app.orm.em.fork());
const leaseRow = async (whatsappId: number) =>
  (await em().execute<{ owner: string }[]>('select owner from connection_leases where whatsapp_id = ?', [whatsappId]))[0]?.owner;

let tenant: Tenant;
let wa: { id: number; number: string };
let ref: { id: number; companyId: number; provider: string };

beforeAll(async () => {
  db = await createTestDatabase();
  await startServer('A');
  tenant = await createTenant(apps.A!, 'Lease');
  wa = await connectSandbox(apps.A!.api, tenant.admin.token);
  ref = { id: wa.id, companyId: tenant.companyId, provider: 'sandbox' };
  // The second process boots on the same database while the first runs the connection.
  await startServer('B');
}, 120_000);

afterAll(async () => {
  for (const app of Object.values(apps)) await app?.stop();
  await db?.drop();
});

// Steps of one story, a rolling deploy: A runs the connection, stops, B takes over, C starts and takes it
// from a frozen B... each step starts from the processes and lease the step before left.
describe('two server processes on one database', { shuffle: false }, () => {
  it('the second process does not run a connection the first one runs', async () => {
    expect(running.get(wa.id)).toBe('A');
    expect(await leaseRow(wa.id)).toBe('process-A');
    // B's boot found the paired connection; a start and a whole keeper round later, it still is A's alone.
    expect(await apps.B!.app.channels.start(ref)).toBeUndefined();
    await apps.B!.app.channels.keepLeases();
    expect(apps.B!.app.channels.runs(wa.id)).toBe(false);
    expect(apps.A!.app.channels.runs(wa.id)).toBe(true);
    // B cannot wipe the keys A's session uses: clearing them is fenced by the lease like writing them.
    const bStore = createAuthStore(() => forSystem(apps.B!.app.orm.em), tenant.companyId, wa.id, (tx) =>
      new ConnectionLeases(() => forSystem(apps.B!.app.orm.em), { owner: 'process-B' }).fence(tx, wa.id),
    );
    await expect(bStore.clear()).rejects.toBeInstanceOf(LeaseLostError);
    expect(await em().count(ChannelAuthKey, { whatsappId: wa.id })).toBeGreaterThan(0);
    expect(running.get(wa.id)).toBe('A');
    expect(overlaps).toEqual([]);
  });

  it('a process that stops hands its connections over: the other one runs them at once, with their keys', async () => {
    const takenOver = next('start', 'B', wa.id);
    await apps.A!.stop();
    delete apps.A;
    await takenOver;
    expect(running.get(wa.id)).toBe('B');
    expect(overlaps).toEqual([]);
    // Paired still (the credentials were read, not a new QR code), and the agent's view says so.
    const connection = await apps.B!.api.get(`/whatsapp/${wa.id}`, tenant.admin.token);
    expect(connection.body).toMatchObject({ status: 'CONNECTED', number: wa.number });
    expect(await leaseRow(wa.id)).toBe('process-B');
  });

  it('a process that stops renewing loses its connections to another, and then stops its socket without writing keys', async () => {
    // A new process (a rolling deploy's next one) waits while B runs the connection.
    await startServer('C');
    expect(apps.C!.app.channels.runs(wa.id)).toBe(false);
    const emC = () => forSystem(apps.C!.app.orm.em.fork());

    // B freezes (a long pause, a cut-off network): no renewal. Its lease expires and C takes over.
    const takenOver = next('start', 'C', wa.id);
    await apps.B!.app.channels.suspendKeeping();
    // The lease's time passes (B renews no more).
    await em().execute(`update connection_leases set expires_at = now() - interval '1 second' where whatsapp_id = ?`, [wa.id]);
    await takenOver;
    expect(await leaseRow(wa.id)).toBe('process-C');

    // Its session has not heard yet; the database refuses its key writes already.
    const keysBefore = await emC().find(ChannelAuthKey, { whatsappId: wa.id }, { orderBy: { key: 'asc' } });
    const bStore = createAuthStore(() => forSystem(apps.B!.app.orm.em), tenant.companyId, wa.id, (tx) =>
      new ConnectionLeases(() => forSystem(apps.B!.app.orm.em), { owner: 'process-B' }).fence(tx, wa.id),
    );
    await expect(bStore.set({ 'sandbox:creds': { number: 'overwritten' } })).rejects.toBeInstanceOf(LeaseLostError);
    // What a session asks after a 440 (connection replaced): B's no longer holds the lease, C's does.
    const sessionOf = (label: Label) => sessions.filter((s) => s.label === label && s.whatsappId === wa.id).at(-1)!;
    expect(await sessionOf('B').options.holdsLease?.()).toBe(false);
    expect(await sessionOf('C').options.holdsLease?.()).toBe(true);

    // B wakes up: its next round finds the lease gone and stops the socket.
    const stopped = next('stop', 'B', wa.id);
    await apps.B!.app.channels.keepLeases();
    await stopped;
    expect(apps.B!.app.channels.runs(wa.id)).toBe(false);
    expect(running.get(wa.id)).toBe('C');

    // What B's stopped session might still try is refused: no key write, no status over C's.
    const bSession = sessions.filter((s) => s.label === 'B' && s.whatsappId === wa.id).at(-1)!;
    await expect(bSession.options.auth.set({ 'sandbox:creds': { number: 'overwritten' } })).rejects.toBeInstanceOf(LeaseLostError);
    await bSession.options.events.status('DISCONNECTED', { reason: 'stopped' });
    expect(await emC().find(ChannelAuthKey, { whatsappId: wa.id }, { orderBy: { key: 'asc' } })).toEqual(keysBefore);
    expect(await emC().findOneOrFail(Whatsapp, wa.id)).toMatchObject({ status: 'CONNECTED', number: wa.number });

    // C runs it for real: a customer's message reaches the conversation through C.
    const inbound = await apps.C!.api.post(`/sandbox/${wa.id}/messages`, { from: '5511988887777', body: 'Oi' }, tenant.admin.token);
    expect(inbound.status).toBe(201);
  });

  it('a reply queued through another process leaves at once through the one that runs the connection', async () => {
    const ticket = await ticketOf(apps.B!.api, tenant.admin.token, '5511988887777');
    expect((await apps.B!.api.put(`/tickets/${ticket.id}`, { status: 'open' }, tenant.admin.token)).status).toBe(200);
    const reply = await apps.B!.api.post(`/messages/${ticket.id}`, { body: 'Olá, já vi o seu pedido' }, tenant.admin.token);
    expect(reply.status).toBe(200);
    // B does not run the connection: C, woken through PostgreSQL, sends it (not at the next sweep).
    expect(await delivered(apps.C!.api, tenant.admin.token, wa.id, reply.body.wid)).toMatchObject({ body: 'Olá, já vi o seu pedido' });
    expect(running.get(wa.id)).toBe('C');
  });

  it('a process booting leaves alone the QR code another process shows', async () => {
    const created = await apps.C!.api.post('/whatsapp', { name: 'Waiting for a scan', provider: 'sandbox' }, tenant.admin.token);
    expect(created.status).toBe(201);
    const status = async () => (await apps.C!.api.get(`/whatsapp/${created.body.id}`, tenant.admin.token)).body.status;
    expect(await status()).toBe('qrcode');
    // B's boot plan: the connection is not paired, but C shows its QR code; B neither starts it nor resets it.
    const { done } = await startAllSessions(() => forSystem(apps.B!.app.orm.em), apps.B!.app.channels, apps.B!.app.logger, { staggerMs: 0 });
    await done;
    expect(await status()).toBe('qrcode');
    expect(running.get(created.body.id)).toBe('C');
  });

  it('a process whose lease renewals do not get through closes its socket before the lease can lapse, and runs it again after', async () => {
    const own = await connectSandbox(apps.C!.api, tenant.admin.token);
    expect(running.get(own.id)).toBe('C');
    // The database stops answering C's renewals (a stuck or unreachable server: here a lock holds the
    // lease table) while the lease runs out. C must not go on holding the number alone on its word.
    const closed = next('stop', 'C', own.id);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const locking = em().transactional(async (tx) => {
      await tx.execute('lock table connection_leases in access exclusive mode');
      await held;
    });
    try {
      await closed;
      expect(apps.C!.app.channels.runs(own.id)).toBe(false);
      expect(running.has(own.id)).toBe(false);
    } finally {
      release();
      await locking;
    }
    // The database answers again: the lease is C's still, and C runs the connection again.
    await next('start', 'C', own.id);
    expect(running.get(own.id)).toBe('C');
    expect(await leaseRow(own.id)).toBe('process-C');
    // The lock held every renewal of C, the first connection's too: it comes back the same way (the next
    // test stops it, and a stop asked while it is still down here would find nothing to stop).
    await eventually(() => apps.C!.app.channels.runs(wa.id) && running.get(wa.id) === 'C');
    expect(overlaps.filter((o) => o.includes(`connection ${own.id} `))).toEqual([]);
  });

  it('a connection stopped on purpose is given up, not taken over', async () => {
    const stopped = next('stop', 'C', wa.id);
    await apps.C!.app.channels.stop(wa.id);
    await stopped;
    expect(await leaseRow(wa.id)).toBeUndefined();
    await apps.B!.app.channels.keepLeases();
    expect(apps.B!.app.channels.runs(wa.id)).toBe(false);
    expect(running.has(wa.id)).toBe(false);
  });
});
