import jwt from 'jsonwebtoken';
import { io as ioClient, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../db/tenant.js';
import { Session } from '../modules/auth/session.entity.js';
import { User } from '../modules/users/user.entity.js';
import {
  connectSocket,
  connectSocketWith,
  createTenant,
  disconnected,
  stillConnected,
  eventually,
  nextEvent,
  startTestApp,
  watch,
  type Tenant,
  type TestApp,
} from '../../testing/helpers.js';

const ALLOWED = 'https://desk.example.com';
const OTHER_ALLOWED = 'http://localhost:5173';
const DESKTOP = 'app://atrium';

let t: TestApp;
let a: Tenant;
let b: Tenant;
const opened: Socket[] = [];

const track = (socket: Socket) => {
  opened.push(socket);
  return socket;
};
const socketFor = async (token: string) => track(await connectSocket(t.app.url, token));

/**
 * A sentinel: an admin saves a setting (to its default), announced as company-{id}-settings to every socket
 * of the company while the request runs, so after any event an earlier request caused.
 */
const settingSaved = async (tenant: Tenant) => {
  expect((await t.api.put('/settings/userRating', { value: 'disabled' }, tenant.admin.token)).status).toBe(200);
  return `company-${tenant.companyId}-settings`;
};

const refused = async (token?: string): Promise<string> => {
  try {
    track(await connectSocket(t.app.url, token));
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the connection was accepted');
};

const isOnline = async (userId: number, token = a.admin.token): Promise<boolean> => {
  const res = await t.api.get(`/users/${userId}`, token);
  expect(res.status).toBe(200);
  return res.body.online;
};

/** What the database says, bypassing the API. */
const setPresence = (userId: number, online: boolean, lastSeenAt: Date | null) =>
  forSystem(t.app.orm.em).nativeUpdate(User, { id: userId }, { online, lastSeenAt });
const lastSeenOf = async (userId: number) => (await forSystem(t.app.orm.em).findOneOrFail(User, userId)).lastSeenAt;

/** The user's sessions revoked in the database, as an expiry or a manual revocation would: no event says so. */
const endedWithoutEvent = (userId: number) => forSystem(t.app.orm.em.fork()).nativeUpdate(Session, { userId }, { revokedAt: new Date() });

/** A fresh agent of company A with a token of its own (tests that end sessions must not end the shared ones). */
const newAgent = async (label: string) => {
  const email = `${label}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const created = await t.api.post('/users', { name: `Agent ${label}`, email, password: 'Secret-01x' }, a.admin.token);
  expect(created.status).toBe(201);
  const login = await t.api.login(email, 'Secret-01x');
  return { id: created.body.id as number, email, token: login.token };
};

beforeAll(async () => {
  t = await startTestApp({ CORS_ORIGINS: `${ALLOWED}, ${OTHER_ALLOWED}` });
  const plan = await t.api.post('/plans', { name: 'Realtime plan', users: 100 }, t.superToken);
  a = await createTenant(t, 'RtA', plan.body.id);
  b = await createTenant(t, 'RtB');
});
afterAll(async () => {
  for (const socket of opened) socket.close();
  await t?.stop();
});

describe('handshake', () => {
  it('refuses a connection without a token', async () => {
    expect(await refused()).toBe('ERR_SESSION_EXPIRED');
  });

  it('refuses a malformed, forged or expired token', async () => {
    expect(await refused('not.a.jwt')).toBe('ERR_INVALID_TOKEN');
    const claims = jwt.decode(a.agent.token) as Record<string, unknown>;
    const { iat: _iat, exp: _exp, ...rest } = claims;
    expect(await refused(jwt.sign(rest, 'x'.repeat(48), { expiresIn: 600 }))).toBe('ERR_INVALID_TOKEN');
    expect(await refused(jwt.sign({ ...rest, exp: Math.floor(Date.now() / 1000) - 10 }, t.app.config.jwtSecret))).toBe('ERR_INVALID_TOKEN');
  });

  it('refuses the token of a session that has logged out', async () => {
    const agent = await newAgent('loggedout');
    expect((await t.api.del('/auth/logout', agent.token)).status).toBe(200);
    expect(await refused(agent.token)).toBe('ERR_SESSION_EXPIRED');
  });

  it('accepts a good token, in the query or in the auth payload', async () => {
    const socket = await socketFor(a.agent.token);
    expect(socket.connected).toBe(true);
    const viaAuth = track(
      await new Promise<Socket>((resolve, reject) => {
        const s = ioClient(t.app.url, { transports: ['websocket'], auth: { token: a.admin.token }, reconnection: false });
        s.once('connect', () => resolve(s));
        s.once('connect_error', reject);
      }),
    );
    expect(viaAuth.connected).toBe(true);
  });
});

describe('company-{id}-auth', () => {
  it('reaches the user’s existing socket when they log in elsewhere, and no other user’s socket', async () => {
    const agent = await newAgent('twice');
    const mine = await socketFor(agent.token);
    const colleague = await socketFor(a.admin.token);
    const other = await socketFor(b.agent.token);
    const onMine = nextEvent(mine, `company-${a.companyId}-auth`);
    const onColleague = watch(colleague, `company-${a.companyId}-auth`);
    const onOther = watch(other, `company-${a.companyId}-auth`);
    await t.api.login(agent.email, 'Secret-01x');
    expect(await onMine).toEqual({ action: 'update', user: { id: agent.id, email: agent.email, companyId: a.companyId } });
    expect(await onColleague.before(await settingSaved(a))).toEqual([]);
    expect(await onOther.before(await settingSaved(b))).toEqual([]);
  });

  it('then closes the replaced session’s socket, which would otherwise keep receiving company events', async () => {
    const agent = await newAgent('replaced');
    const old = await socketFor(agent.token);
    const auth = nextEvent(old, `company-${a.companyId}-auth`);
    const closed = disconnected(old);
    await t.api.login(agent.email, 'Secret-01x');
    await auth;
    expect(await closed).toBe('io server disconnect');
  });
});

describe('several sessions per user', () => {
  it('a login within the limit tells nobody; one over it closes the least recently used; an ended session’s socket closes', async () => {
    const c = await createTenant(t, 'Sessions');
    expect((await t.api.put('/settings/sessionsPerUser', { value: '2' }, c.admin.token)).status).toBe(200);
    const desktop = await t.api.login(c.agent.email, c.agent.password);
    const onDesktop = await socketFor(desktop.token);
    const heard = watch(onDesktop, `company-${c.companyId}-auth`);
    const phone = await t.api.login(c.agent.email, c.agent.password);
    const onPhone = await socketFor(phone.token);
    // Within the limit: the desktop hears no "logged in elsewhere" and keeps its socket.
    expect(await heard.before(await settingSaved(c))).toEqual([]);
    expect(await stillConnected(onDesktop)).toBe(true);
    // Over the limit: the desktop's session (the least recently used) ends, and its socket with it.
    const desktopClosed = disconnected(onDesktop);
    const laptop = await t.api.login(c.agent.email, c.agent.password);
    expect(await desktopClosed).toBe('io server disconnect');
    expect(await stillConnected(onPhone)).toBe(true);
    // The phone ended from the laptop's list.
    const listed = (await t.api.get('/auth/sessions', laptop.token)).body.sessions as { id: string; current: boolean }[];
    const phoneId = listed.find((s) => !s.current)!.id;
    const phoneClosed = disconnected(onPhone);
    expect((await t.api.del(`/auth/sessions/${phoneId}`, laptop.token)).status).toBe(204);
    expect(await phoneClosed).toBe('io server disconnect');
  });
});

describe('company-{id}-user', () => {
  it('announces create, update and delete to that company’s sockets only', async () => {
    const adminA = await socketFor(a.admin.token);
    const agentA = await socketFor(a.agent.token);
    const adminB = await socketFor(b.admin.token);
    const leaks = watch(adminB, [`company-${a.companyId}-user`, `company-${b.companyId}-user`]);

    const created = nextEvent(adminA, `company-${a.companyId}-user`);
    const createdForAgent = nextEvent(agentA, `company-${a.companyId}-user`);
    const res = await t.api.post('/users', { name: 'Announced', email: `announced-${Date.now()}@example.com`, password: 'Secret-01x' }, a.admin.token);
    expect(res.status).toBe(201);
    expect(await created).toMatchObject({ action: 'create', user: { id: res.body.id, name: 'Announced', companyId: a.companyId } });
    expect(await createdForAgent).toMatchObject({ action: 'create' });
    expect(JSON.stringify(await created)).not.toMatch(/passwordHash|secret1/);

    const updated = nextEvent(adminA, `company-${a.companyId}-user`);
    await t.api.put(`/users/${res.body.id}`, { name: 'Announced Again' }, a.admin.token);
    expect(await updated).toMatchObject({ action: 'update', user: { id: res.body.id, name: 'Announced Again' } });

    const deleted = nextEvent(adminA, `company-${a.companyId}-user`);
    await t.api.del(`/users/${res.body.id}`, a.admin.token);
    expect(await deleted).toEqual({ action: 'delete', userId: res.body.id });

    expect(await leaks.before(await settingSaved(b))).toEqual([]);
  });

  it('a refused change announces nothing', async () => {
    const adminA = await socketFor(a.admin.token);
    const heard = watch(adminA, `company-${a.companyId}-user`);
    expect((await t.api.put(`/users/${a.admin.id}`, { name: 'Hacked' }, a.agent.token)).status).toBe(403);
    expect((await t.api.put(`/users/${a.agent.id}`, { name: 'Hacked' }, b.admin.token)).status).toBe(404);
    expect(await heard.before(await settingSaved(a))).toEqual([]);
  });
});

describe('ending sessions closes their sockets', () => {
  it('a deleted user’s socket is closed and hears nothing more', async () => {
    const agent = await newAgent('deleted');
    const socket = await socketFor(agent.token);
    const closed = disconnected(socket);
    expect((await t.api.del(`/users/${agent.id}`, a.admin.token)).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
  });

  it('a password change closes the sockets of the sessions it revokes', async () => {
    const agent = await newAgent('password');
    const socket = await socketFor(agent.token);
    const closed = disconnected(socket);
    expect((await t.api.put(`/users/${agent.id}`, { password: 'Changed-secret-1' }, a.admin.token)).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
  });

  it('a password change by the user keeps the socket of the session that made it', async () => {
    const agent = await newAgent('ownpassword');
    const socket = await socketFor(agent.token);
    expect((await t.api.put(`/users/${agent.id}`, { password: 'Changed-secret-1' }, agent.token)).status).toBe(200);
    expect(await stillConnected(socket)).toBe(true);
  });

  it('a logged-out session’s socket is closed at once', async () => {
    const agent = await newAgent('logout');
    const socket = await socketFor(agent.token);
    const closed = disconnected(socket);
    expect((await t.api.del('/auth/logout', agent.token)).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
  });

  it('a socket whose session ended without an event is closed at its next heartbeat', async () => {
    const agent = await newAgent('heartbeat');
    const socket = await socketFor(agent.token);
    await endedWithoutEvent(agent.id);
    const closed = disconnected(socket);
    socket.emit('userStatus');
    expect(await closed).toBe('io server disconnect');
    // The heartbeat of a dead session does not bring its user back online: once the server has handled the
    // disconnect (its presence work for the user is done), the user is still offline.
    await eventually(() => !t.app.realtime.io.sockets.sockets.has(socket.id ?? ''));
    await t.app.realtime.presenceSettled(agent.id);
    expect(await isOnline(agent.id)).toBe(false);
  });

  it('the periodic sweep closes sockets whose sessions ended without an event, and only those', async () => {
    const gone = await newAgent('swept');
    const kept = await newAgent('kept');
    const goneSocket = await socketFor(gone.token);
    const keptSocket = await socketFor(kept.token);
    await endedWithoutEvent(gone.id);
    const goneClosed = disconnected(goneSocket);
    await t.app.realtime.recheck();
    expect(await goneClosed).toBe('io server disconnect');
    expect(await stillConnected(keptSocket)).toBe(true);
  });

  it('switching a company off closes its sockets, not another company’s', async () => {
    const c = await createTenant(t, 'RtOff');
    const socket = await socketFor(c.agent.token);
    const unrelated = await socketFor(b.agent.token);
    const closed = disconnected(socket);
    expect((await t.api.put(`/companies/${c.companyId}`, { status: false }, t.superToken)).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect(await stillConnected(unrelated)).toBe(true);
  });
});

describe('presence', () => {
  it('connecting marks the user online', async () => {
    const agent = await newAgent('presence');
    await setPresence(agent.id, false, null);
    expect(await isOnline(agent.id)).toBe(false);
    const socket = await socketFor(agent.token);
    await eventually(async () => expect(await isOnline(agent.id)).toBe(true));
    socket.close();
  });

  it('userStatus refreshes lastSeenAt and brings a user marked offline back online', async () => {
    const agent = await newAgent('heartbeat');
    const socket = await socketFor(agent.token);
    await eventually(async () => expect(await isOnline(agent.id)).toBe(true));
    const old = new Date(Date.now() - 60 * 60_000);
    await setPresence(agent.id, false, old);
    socket.emit('userStatus');
    await eventually(async () => expect(await isOnline(agent.id)).toBe(true));
    expect((await lastSeenOf(agent.id))!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    socket.close();
  });

  it('stays online while a socket remains and goes offline when the last one disconnects', async () => {
    const agent = await newAgent('lastsocket');
    const first = await socketFor(agent.token);
    const second = await socketFor(agent.token);
    await eventually(async () => expect(await isOnline(agent.id)).toBe(true));
    const firstId = first.id ?? '';
    first.close();
    await eventually(() => !t.app.realtime.io.sockets.sockets.has(firstId));
    await t.app.realtime.presenceSettled(agent.id);
    expect(await isOnline(agent.id)).toBe(true);
    second.close();
    await eventually(async () => expect(await isOnline(agent.id)).toBe(false));
  });

  it('a socket that disconnects at once still leaves the user offline', async () => {
    const agent = await newAgent('blink');
    await setPresence(agent.id, false, null);
    for (let i = 0; i < 5; i++) (await connectSocket(t.app.url, agent.token)).close();
    // Once the server has seen every one of them go and written what followed.
    await eventually(() => ![...t.app.realtime.io.sockets.sockets.values()].some((s) => s.data.actor?.userId === agent.id));
    await t.app.realtime.presenceSettled(agent.id);
    expect(await isOnline(agent.id)).toBe(false);
  });

  it('one user’s presence never changes another’s', async () => {
    const agent = await newAgent('alone');
    await setPresence(a.admin.id, false, null);
    const socket = await socketFor(agent.token);
    await eventually(async () => expect(await isOnline(agent.id)).toBe(true));
    expect(await isOnline(a.admin.id)).toBe(false);
    socket.close();
  });
});

describe('CORS', () => {
  it('refuses a socket handshake from an origin not listed in CORS_ORIGINS', async () => {
    await expect(connectSocketWith(t.app.url, { token: a.agent.token, origin: 'https://evil.example.com' })).rejects.toThrow();
    await expect(
      connectSocketWith(t.app.url, { token: a.agent.token, origin: 'https://evil.example.com', transport: 'polling' }),
    ).rejects.toThrow();
    // Same host, another port: another origin.
    await expect(connectSocketWith(t.app.url, { token: a.agent.token, origin: 'http://127.0.0.1:1' })).rejects.toThrow();
    await expect(connectSocketWith(t.app.url, { token: a.agent.token, origin: 'null' })).rejects.toThrow();
  });

  it('accepts a listed origin, the desktop app and the server’s own origin', async () => {
    // The own origin is matched by host: behind a TLS proxy the browser's scheme is https.
    for (const origin of [ALLOWED, OTHER_ALLOWED, DESKTOP, t.app.url, t.app.url.replace('http:', 'https:')]) {
      const socket = track(await connectSocketWith(t.app.url, { token: a.agent.token, origin }));
      expect(socket.connected, origin).toBe(true);
      const polling = track(await connectSocketWith(t.app.url, { token: a.agent.token, origin, transport: 'polling' }));
      expect(polling.connected, origin).toBe(true);
    }
  });

  it('answers the socket.io long-polling handshake with CORS headers for allowed origins only', async () => {
    const handshake = (origin: string) =>
      fetch(`${t.app.url}/socket.io/?EIO=4&transport=polling&token=${a.agent.token}`, { headers: { origin } });
    for (const origin of [ALLOWED, DESKTOP]) {
      const res = await handshake(origin);
      expect(res.status, origin).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), origin).toBe(origin);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    }
    const evil = await handshake('https://evil.example.com');
    expect(evil.status).not.toBe(200);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('echoes a listed origin with credentials on HTTP, and never sends *', async () => {
    for (const origin of [ALLOWED, OTHER_ALLOWED, DESKTOP]) {
      const res = await t.api.request('GET', '/auth/me', { token: a.agent.token, headers: { origin } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('vary')).toMatch(/origin/i);
    }
    const preflight = await fetch(`${t.app.url}/users`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  });

  it('sends no CORS header to an unlisted origin, nor to a request without one', async () => {
    for (const origin of ['https://evil.example.com', 'https://desk.example.com.evil.com', 'null', `${ALLOWED}:444`]) {
      const res = await t.api.request('GET', '/auth/me', { token: a.agent.token, headers: { origin } });
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(res.headers.get('access-control-allow-credentials'), origin).toBeNull();
      const preflight = await fetch(`${t.app.url}/users`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
    const plain = await t.api.get('/health');
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });
});
