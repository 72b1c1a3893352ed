import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../db/tenant.js';
import { Session } from '../modules/auth/session.entity.js';
import { rooms } from '@atrium/shared';
import { connectSandbox, customerSays, ticketOf } from '../../testing/conversation.js';
import {
  connectSocket,
  createTenant,
  createTestDatabase,
  disconnected,
  eventually,
  joined,
  nextEvent,
  serverRooms,
  startTestApp,
  type Tenant,
  type TestApp,
} from '../../testing/helpers.js';

/**
 * Realtime with two server processes (two real apps) on one database: what one process emits reaches
 * the sockets of the other (the PostgreSQL adapter), and ending a session closes its sockets wherever
 * they are connected.
 */
const SECRETS = { JWT_SECRET: 'cluster-test-jwt-secret-0123456789abcdef', JWT_REFRESH_SECRET: 'cluster-test-refresh-secret-0123456789abcdef' };

let db: { url: string; drop: () => Promise<void> };
let A: TestApp;
let B: TestApp;
let tenant: Tenant;
const opened: Socket[] = [];

const socketOn = async (t: TestApp, token: string) => {
  const socket = await connectSocket(t.app.url, token);
  opened.push(socket);
  return socket;
};

/** A fresh agent with a session of its own (tests that end sessions must not end the shared ones). */
const newAgent = async (label: string) => {
  const email = `${label}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const created = await A.api.post('/users', { name: `Agent ${label}`, email, password: 'Secret-01x' }, tenant.admin.token);
  expect(created.status).toBe(201);
  return { id: created.body.id as number, email, token: (await A.api.login(email, 'Secret-01x')).token };
};

const isOnline = async (userId: number) => (await A.api.get(`/users/${userId}`, tenant.admin.token)).body.online as boolean;

beforeAll(async () => {
  db = await createTestDatabase();
  A = await startTestApp(SECRETS, { sharedDatabaseUrl: db.url });
  const plan = await A.api.post('/plans', { name: 'Cluster plan', users: 100, connections: 10 }, A.superToken);
  expect(plan.status).toBe(201);
  tenant = await createTenant(A, 'Cluster', plan.body.id);
  // B's start logs the super admin in: A's super session ends (one session per user), B's is the one to use.
  B = await startTestApp(SECRETS, { sharedDatabaseUrl: db.url });
  // Each process knows the other (its adapter has heard it), so requests to every process are answered by both.
  await eventually(async () => (await A.app.realtime.io.of('/').adapter.serverCount()) === 2 && (await B.app.realtime.io.of('/').adapter.serverCount()) === 2, 15_000);
}, 120_000);

afterAll(async () => {
  for (const socket of opened) socket.close();
  await B?.stop();
  await A?.stop();
  await db?.drop();
});

describe('two server processes on one database', () => {
  it('a socket on one process hears a message received through the other process’s connection', async () => {
    const wa = await connectSandbox(A.api, tenant.admin.token);
    const onB = await socketOn(B, tenant.admin.token);
    await joined(onB, 'joinNotification');
    const heard = nextEvent(onB, `company-${tenant.companyId}-appMessage`);
    await customerSays(A.api, tenant.admin.token, wa.id, { from: '5511977776666', name: 'Maria', body: 'Olá do outro lado' });
    expect(await heard).toMatchObject({ action: 'create', message: { body: 'Olá do outro lado', fromMe: false } });
  });

  it('a logout closes the session’s sockets on the process that handled it and on the other, at once', async () => {
    const agent = await newAgent('logout');
    const onA = await socketOn(A, agent.token);
    const onB = await socketOn(B, agent.token);
    const closedA = disconnected(onA);
    const closedB = disconnected(onB);
    expect((await A.api.del('/auth/logout', agent.token)).status).toBe(200);
    expect(await closedA).toBe('io server disconnect');
    expect(await closedB).toBe('io server disconnect');
  });

  it('a logout leaves other sessions’ sockets alone', async () => {
    const leaving = await newAgent('leaving');
    const staying = await newAgent('staying');
    const leavingSocket = await socketOn(B, leaving.token);
    const stayingSocket = await socketOn(B, staying.token);
    const leavingClosed = disconnected(leavingSocket);
    expect((await A.api.del('/auth/logout', leaving.token)).status).toBe(200);
    expect(await leavingClosed).toBe('io server disconnect');
    // A later event, sent after the logout's on the same connection: the other socket is still there to hear it.
    const sentinel = nextEvent(stayingSocket, `company-${tenant.companyId}-settings`);
    expect((await A.api.put('/settings/userRating', { value: 'disabled' }, tenant.admin.token)).status).toBe(200);
    await sentinel;
    expect(stayingSocket.connected).toBe(true);
  });

  it('a new login elsewhere closes the replaced session’s socket on the other process', async () => {
    const agent = await newAgent('relogin');
    const old = await socketOn(B, agent.token);
    const closed = disconnected(old);
    await A.api.login(agent.email, 'Secret-01x');
    expect(await closed).toBe('io server disconnect');
  });

  it('a password change, a deleted user and a company switched off close their sockets on the other process', async () => {
    const changed = await newAgent('password');
    const deleted = await newAgent('deleted');
    const changedSocket = await socketOn(B, changed.token);
    const deletedSocket = await socketOn(B, deleted.token);
    const changedClosed = disconnected(changedSocket);
    const deletedClosed = disconnected(deletedSocket);
    expect((await A.api.put(`/users/${changed.id}`, { password: 'Changed-secret-1' }, tenant.admin.token)).status).toBe(200);
    expect((await A.api.del(`/users/${deleted.id}`, tenant.admin.token)).status).toBe(200);
    expect(await changedClosed).toBe('io server disconnect');
    expect(await deletedClosed).toBe('io server disconnect');

    const other = await createTenant(B, 'ClusterOff');
    const socket = await socketOn(B, other.agent.token);
    const closed = disconnected(socket);
    expect((await A.api.put(`/companies/${other.companyId}`, { status: false }, B.superToken)).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
  });

  it('a session ended without an event is found by each process’s sweep of its own sockets', async () => {
    const agent = await newAgent('swept');
    const socket = await socketOn(B, agent.token);
    await forSystem(A.app.orm.em.fork()).nativeUpdate(Session, { userId: agent.id }, { revokedAt: new Date() });
    const closed = disconnected(socket);
    await A.app.realtime.recheck();
    expect(await closed).toBe('io server disconnect');
  });

  it('an agent whose conversation is transferred away on one process leaves its room on the other', async () => {
    const wa = await connectSandbox(A.api, tenant.admin.token);
    const from = '5511977770001';
    await customerSays(A.api, tenant.admin.token, wa.id, { from, name: 'Rui', body: 'oi' });
    const ticket = await ticketOf(A.api, tenant.admin.token, from);
    expect((await A.api.put(`/tickets/${ticket.id}`, { userId: tenant.agent.id, status: 'open' }, tenant.admin.token)).status).toBe(200);
    const agentSocket = await socketOn(B, tenant.agent.token);
    await joined(agentSocket, 'joinChatBox', String(ticket.id));
    const room = rooms.ticket(tenant.companyId, ticket.id);
    expect(serverRooms(B.app, agentSocket).has(room)).toBe(true);
    expect((await A.api.put(`/tickets/${ticket.id}`, { userId: tenant.admin.id }, tenant.admin.token)).status).toBe(200);
    await eventually(() => !serverRooms(B.app, agentSocket).has(room));
  });

  it('a user stays online while a socket of theirs is connected to either process', async () => {
    const agent = await newAgent('presence');
    const onA = await socketOn(A, agent.token);
    const onB = await socketOn(B, agent.token);
    await eventually(() => isOnline(agent.id));
    // The client forgets its socket's id when it closes: kept to find the server's side.
    const [idA, idB] = [onA.id!, onB.id!];
    onA.close();
    await eventually(() => !A.app.realtime.io.sockets.sockets.has(idA));
    await A.app.realtime.presenceSettled(agent.id);
    expect(await isOnline(agent.id)).toBe(true);
    onB.close();
    await eventually(() => !B.app.realtime.io.sockets.sockets.has(idB));
    await B.app.realtime.presenceSettled(agent.id);
    expect(await isOnline(agent.id)).toBe(false);
  });
});
