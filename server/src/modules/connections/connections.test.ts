import { createHash, randomBytes } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../../db/tenant.js';
import { customerSays, ticketOf } from '../../../testing/conversation.js';
import {
  connectSocket,
  createTenant,
  eventually,
  nextEvent,
  startTestApp,
  watch,
  type Tenant,
  type TestApp,
} from '../../../testing/helpers.js';
import { sessionEvents } from '../../pipeline/channel-events.js';
import { noticeDownConnections } from './connections.down-watch.js';
import { Whatsapp } from './whatsapp.entity.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;
let planId: number;
const sockets: Socket[] = [];

const hex = (bytes = 3) => randomBytes(bytes).toString('hex');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const newConnection = (token: string, body: Record<string, unknown> = {}) =>
  t.api.post('/whatsapp', { name: `Conn ${hex()}`, provider: 'sandbox', ...body }, token);
const connectionsOf = async (token: string, query = '?session=0') => {
  const res = await t.api.get(`/whatsapp/${query}`, token);
  expect(res.status).toBe(200);
  return res.body as any[];
};
const connection = async (id: number, token = a.admin.token) => {
  const res = await t.api.get(`/whatsapp/${id}?session=0`, token);
  expect(res.status).toBe(200);
  return res.body;
};
const newQueue = async (token: string) => {
  // A greeting: a company with more than one queue needs one.
  const res = await t.api.post('/queue', { name: `Queue ${hex()}`, color: `#${hex()}`, greetingMessage: 'Olá!' }, token);
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const socketFor = async (token: string) => {
  const socket = await connectSocket(t.app.url, token);
  sockets.push(socket);
  return socket;
};
/** Everything a socket hears on one event from now on. */
const record = (socket: Socket, event: string) => {
  const heard: any[] = [];
  socket.on(event, (payload: any) => heard.push(payload));
  return heard;
};
/**
 * A sentinel for B's sockets: B's admin saves their agent, unchanged; company-{B}-user goes out while that
 * request runs, so after anything sent before it.
 */
const bUserSaved = async () => {
  expect((await t.api.put(`/users/${b.agent.id}`, {}, b.admin.token)).status).toBe(200);
  return `company-${b.companyId}-user`;
};
const storedRow = (id: number) => forSystem(t.app.orm.em).findOne(Whatsapp, id);
/** A fresh company on the test plan, to watch the default flag from its first connection. */
const freshTenant = (label: string) => createTenant(t, label, planId);
const SECRET_KEYS = ['tokenHash', 'token_hash', 'creds', 'credentials', 'session'];

beforeAll(async () => {
  t = await startTestApp();
  const plan = await t.api.post('/plans', { name: `Conns ${hex()}`, users: 10, connections: 30, queues: 30 }, t.superToken);
  expect(plan.status).toBe(201);
  planId = plan.body.id;
  a = await freshTenant('ConnA');
  b = await freshTenant('ConnB');
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('POST /whatsapp', () => {
  it('creates the connection, answers its API token once and starts its session: OPENING, then a QR code', async () => {
    const c = await freshTenant('ConnFirst');
    const socket = await socketFor(c.admin.token);
    const sessions = record(socket, `company-${c.companyId}-whatsappSession`);
    const changes = record(socket, `company-${c.companyId}-whatsapp`);
    // An agent hears the statuses but never the QR code: scanning it links a phone to the connection.
    const agentSocket = await socketFor(c.agent.token);
    const agentSessions = record(agentSocket, `company-${c.companyId}-whatsappSession`);
    const agentChanges = record(agentSocket, `company-${c.companyId}-whatsapp`);

    const res = await newConnection(c.admin.token, { name: '  Main Line  ', greetingMessage: 'Olá!' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Main Line',
      provider: 'sandbox',
      isDefault: true,
      status: 'qrcode',
      greetingMessage: 'Olá!',
      maxUseBotQueues: 3,
      expiresTicket: 0,
      hasToken: true,
      companyId: c.companyId,
      queues: [],
      queueIds: [],
    });
    expect(res.body.qrcode).toMatch(/^atrium-sandbox:\d+:[\w-]+$/);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.token.length).toBeGreaterThanOrEqual(24);
    for (const key of SECRET_KEYS) expect(res.body).not.toHaveProperty(key);
    // Only the hash is kept.
    expect((await storedRow(res.body.id))!.tokenHash).toBe(sha256(res.body.token));

    const read = await connection(res.body.id, c.admin.token);
    expect(read).toMatchObject({ id: res.body.id, status: 'qrcode', qrcode: res.body.qrcode });
    expect(read).not.toHaveProperty('token');

    await eventually(() => sessions.some((e) => e.session.status === 'qrcode'));
    expect(sessions.map((e) => e.session.status)).toEqual(['OPENING', 'qrcode']);
    expect(sessions[1]).toMatchObject({ action: 'update', session: { id: res.body.id, status: 'qrcode', qrcode: res.body.qrcode } });
    expect(sessions[0].session.qrcode).toBe('');
    await eventually(() => changes.length > 0);
    expect(changes[0]).toMatchObject({ action: 'create', whatsapp: { id: res.body.id, name: 'Main Line', isDefault: true } });
    await eventually(() => agentSessions.some((e) => e.session.status === 'qrcode') && agentChanges.length > 0);
    expect(agentSessions.map((e) => [e.session.status, e.session.qrcode])).toEqual([
      ['OPENING', ''],
      ['qrcode', ''],
    ]);
    expect(agentChanges[0]).toMatchObject({ action: 'create', whatsapp: { id: res.body.id, qrcode: '' } });
    expect(JSON.stringify([...agentSessions, ...agentChanges])).not.toContain(res.body.qrcode);
    expect((await connection(res.body.id, c.agent.token)).qrcode).toBe('');
    expect((await connectionsOf(c.agent.token)).map((w) => w.qrcode)).toEqual(['']);
    const wire = JSON.stringify([...sessions, ...changes]);
    expect(wire).not.toContain(res.body.token);
    expect(wire).not.toContain(sha256(res.body.token));
  });

  it('makes only the first connection the default unless a later one asks; asking moves the flag', async () => {
    const c = await freshTenant('ConnDefault');
    const first = await newConnection(c.admin.token, { isDefault: false });
    expect(first.body.isDefault).toBe(true);
    const second = await newConnection(c.admin.token);
    expect(second.body.isDefault).toBe(false);
    const third = await newConnection(c.admin.token, { isDefault: true });
    expect(third.body.isDefault).toBe(true);
    const list = await connectionsOf(c.admin.token);
    expect(list.filter((w) => w.isDefault).map((w) => w.id)).toEqual([third.body.id]);
  });

  it('validates the name (2-50) and knows only enabled providers', async () => {
    const before = (await connectionsOf(a.admin.token)).length;
    for (const [body, field] of [
      [{ name: 'A' }, 'name'],
      [{ name: 'x'.repeat(51) }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: undefined }, 'name'],
      [{ maxUseBotQueues: -1 }, 'maxUseBotQueues'],
      [{ queueIds: ['abc'] }, 'queueIds.0'],
    ] as [Record<string, unknown>, string][]) {
      const res = await newConnection(a.admin.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields.map((f: any) => f.path)).toContain(field);
    }
    expect(await newConnection(a.admin.token, { provider: 'telegram' })).toMatchObject({
      status: 400,
      body: { error: 'ERR_WAPP_PROVIDER_DISABLED', provider: 'telegram' },
    });
    expect(await connectionsOf(a.admin.token)).toHaveLength(before);
    expect((await newConnection(a.admin.token, { name: 'Ab' })).status).toBe(201);
    expect((await newConnection(a.admin.token, { name: 'z'.repeat(50) })).status).toBe(201);
  });

  it('refuses a name the company already uses, whatever its case; another company may use it', async () => {
    const name = `Unique ${hex()}`;
    expect((await newConnection(a.admin.token, { name })).status).toBe(201);
    expect(await newConnection(a.admin.token, { name: name.toUpperCase() })).toMatchObject({
      status: 409,
      body: { error: 'ERR_WAPP_NAME_ALREADY_EXISTS' },
    });
    expect((await connectionsOf(a.admin.token)).filter((w) => w.name.toLowerCase() === name.toLowerCase())).toHaveLength(1);
    expect((await newConnection(b.admin.token, { name })).status).toBe(201);
  });

  it('lets exactly one of several simultaneous creations with the same name through, with the right code', async () => {
    const name = `Twin ${hex()}`;
    const results = await Promise.all(Array.from({ length: 4 }, () => newConnection(a.admin.token, { name })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === 'ERR_WAPP_NAME_ALREADY_EXISTS')).toBe(true);
  });

  it('refuses an agent with 403 and creates nothing', async () => {
    const name = `Agent ${hex()}`;
    expect(await newConnection(a.agent.token, { name })).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await connectionsOf(a.admin.token)).some((w) => w.name === name)).toBe(false);
    expect((await t.api.post('/whatsapp', { name, provider: 'sandbox' })).status).toBe(401);
  });

  it('links queues of the company only, and wants a greeting with more than one queue', async () => {
    const q1 = await newQueue(a.admin.token);
    const q2 = await newQueue(a.admin.token);
    const theirs = await newQueue(b.admin.token);
    const before = (await connectionsOf(a.admin.token)).length;
    for (const greetingMessage of [undefined, '', '   ']) {
      expect(await newConnection(a.admin.token, { queueIds: [q1, q2], greetingMessage })).toMatchObject({
        status: 400,
        body: { error: 'ERR_WAPP_GREETING_REQUIRED' },
      });
    }
    expect(await newConnection(a.admin.token, { queueIds: [q1, theirs], greetingMessage: 'Oi' })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_FOUND' },
    });
    expect(await newConnection(a.admin.token, { transferQueueId: theirs })).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUEUE_FOUND' } });
    expect(await connectionsOf(a.admin.token)).toHaveLength(before);
    // One queue needs no greeting; several do.
    const single = await newConnection(a.admin.token, { queueIds: [q1] });
    expect(single.status).toBe(201);
    expect(single.body.queueIds).toEqual([q1]);
    const menu = await newConnection(a.admin.token, { queueIds: [q2, q1, q1], greetingMessage: 'Escolha um setor', transferQueueId: q2 });
    expect(menu.status).toBe(201);
    expect(menu.body.queueIds.sort()).toEqual([q1, q2].sort());
    expect(menu.body.queues.map((q: any) => q.id).sort()).toEqual([q1, q2].sort());
    expect(menu.body.transferQueueId).toBe(q2);
  });
});

describe('plan limits', () => {
  it('refuses the connection beyond the plan’s allowance with 409 ERR_CONNECTION_LIMIT_REACHED', async () => {
    const plan = await t.api.post('/plans', { name: `Two conns ${hex()}`, users: 5, connections: 2, queues: 5 }, t.superToken);
    const c = await createTenant(t, 'ConnLimit', plan.body.id);
    expect((await newConnection(c.admin.token)).status).toBe(201);
    const second = await newConnection(c.admin.token);
    expect(second.status).toBe(201);
    expect(await newConnection(c.admin.token)).toMatchObject({ status: 409, body: { error: 'ERR_CONNECTION_LIMIT_REACHED' } });
    expect(await connectionsOf(c.admin.token)).toHaveLength(2);
    expect((await t.api.del(`/whatsapp/${second.body.id}`, c.admin.token)).status).toBe(200);
    expect((await newConnection(c.admin.token)).status).toBe(201);
  });

  it('holds under concurrent creations, with exactly one default', async () => {
    const plan = await t.api.post('/plans', { name: `Race conns ${hex()}`, users: 5, connections: 2, queues: 5 }, t.superToken);
    const c = await createTenant(t, 'ConnRace', plan.body.id);
    const results = await Promise.all(Array.from({ length: 5 }, () => newConnection(c.admin.token)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === 'ERR_CONNECTION_LIMIT_REACHED')).toBe(true);
    const list = await connectionsOf(c.admin.token);
    expect(list).toHaveLength(2);
    expect(list.filter((w) => w.isDefault)).toHaveLength(1);
  });
});

describe('who hears QR codes', () => {
  it('a user made admin hears them on the socket already open; made agent again, no longer', async () => {
    const c = await freshTenant('ConnPromote');
    const conn = await newConnection(c.admin.token);
    const socket = await socketFor(c.agent.token);
    const sessions = record(socket, `company-${c.companyId}-whatsappSession`);
    const restart = async () => {
      sessions.length = 0;
      expect((await t.api.put(`/whatsappsession/${conn.body.id}`, {}, c.admin.token)).status).toBe(200);
      await eventually(() => sessions.some((e) => e.session.status === 'qrcode'));
      return sessions.find((e) => e.session.status === 'qrcode').session.qrcode as string;
    };
    expect(await restart()).toBe('');
    expect((await t.api.put(`/users/${c.agent.id}`, { profile: 'admin' }, c.admin.token)).status).toBe(200);
    expect(await restart()).toMatch(/^atrium-sandbox:/);
    expect((await t.api.put(`/users/${c.agent.id}`, { profile: 'user' }, c.admin.token)).status).toBe(200);
    expect(await restart()).toBe('');
  });
});

describe('GET /whatsapp/', () => {
  it('lists the company’s connections with their queues, for agents too, never with credentials', async () => {
    const c = await freshTenant('ConnList');
    const q = await newQueue(c.admin.token);
    const beta = await newConnection(c.admin.token, { name: 'Beta line', queueIds: [q] });
    const alpha = await newConnection(c.admin.token, { name: 'Alpha line' });
    for (const query of ['?session=0', '', `?session=0&companyId=${c.companyId}`]) {
      const list = await connectionsOf(c.agent.token, query);
      expect(list.map((w) => w.name)).toEqual(['Alpha line', 'Beta line']);
      expect(list[1]).toMatchObject({ id: beta.body.id, queueIds: [q], queues: [{ id: q }], status: 'qrcode', isDefault: true });
      expect(list[0]).toMatchObject({ id: alpha.body.id, queueIds: [], isDefault: false });
      for (const w of list) {
        for (const key of [...SECRET_KEYS, 'token']) expect(w).not.toHaveProperty(key);
      }
      const wire = JSON.stringify(list);
      expect(wire).not.toContain(beta.body.token);
      expect(wire).not.toContain(sha256(beta.body.token));
    }
    expect((await t.api.get(`/whatsapp/${alpha.body.id}`, c.agent.token)).body).toMatchObject({ id: alpha.body.id, name: 'Alpha line' });
  });

  it('names another company only for a super user', async () => {
    const theirs = await connectionsOf(b.admin.token);
    expect(await t.api.get(`/whatsapp/?session=0&companyId=${b.companyId}`, a.admin.token)).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_SUPER' },
    });
    expect((await t.api.get(`/whatsapp/?companyId=${b.companyId}`, a.agent.token)).status).toBe(403);
    const bySuper = await connectionsOf(t.superToken, `?session=0&companyId=${b.companyId}`);
    expect(bySuper.map((w) => w.id).sort()).toEqual(theirs.map((w) => w.id).sort());
    expect((await t.api.get('/whatsapp/?session=0')).status).toBe(401);
  });

  it('answers 404 for an unknown id and another company’s connection', async () => {
    const theirs = await newConnection(b.admin.token);
    expect(await t.api.get(`/whatsapp/${theirs.body.id}`, a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
    expect(await t.api.get('/whatsapp/999999', a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
    expect(await t.api.get('/whatsapp/abc', a.admin.token)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });
});

describe('PUT /whatsapp/{id}', () => {
  it('changes only what is sent and announces it', async () => {
    const created = await newConnection(a.admin.token, { greetingMessage: 'Oi', complationMessage: 'Tchau' });
    const socket = await socketFor(a.agent.token);
    const heard = nextEvent<any>(socket, `company-${a.companyId}-whatsapp`);
    const res = await t.api.put(
      `/whatsapp/${created.body.id}`,
      { name: `Renamed ${hex()}`, ratingMessage: 'Avalie', expiresTicket: 30, maxUseBotQueues: 5 },
      a.admin.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      greetingMessage: 'Oi',
      complationMessage: 'Tchau',
      ratingMessage: 'Avalie',
      expiresTicket: 30,
      maxUseBotQueues: 5,
      provider: 'sandbox',
    });
    expect(res.body).not.toHaveProperty('token');
    expect(await heard).toMatchObject({ action: 'update', whatsapp: { id: created.body.id, name: res.body.name, ratingMessage: 'Avalie' } });
    expect(await connection(created.body.id)).toMatchObject({ name: res.body.name, complationMessage: 'Tchau', expiresTicket: 30 });
  });

  it('keeps one default: clearing the flag is refused, setting it elsewhere moves it', async () => {
    const c = await freshTenant('ConnFlag');
    const first = await newConnection(c.admin.token);
    const second = await newConnection(c.admin.token);
    expect(await t.api.put(`/whatsapp/${first.body.id}`, { isDefault: false }, c.admin.token)).toMatchObject({
      status: 409,
      body: { error: 'ERR_NO_OTHER_WHATSAPP' },
    });
    expect((await connection(first.body.id, c.admin.token)).isDefault).toBe(true);
    // Clearing a flag that is not set is no change.
    expect((await t.api.put(`/whatsapp/${second.body.id}`, { isDefault: false }, c.admin.token)).status).toBe(200);
    const moved = await t.api.put(`/whatsapp/${second.body.id}`, { isDefault: true }, c.admin.token);
    expect(moved.body.isDefault).toBe(true);
    const list = await connectionsOf(c.admin.token);
    expect(list.filter((w) => w.isDefault).map((w) => w.id)).toEqual([second.body.id]);
  });

  it('replaces the queues, with the greeting rule and the company’s queues only', async () => {
    const q1 = await newQueue(a.admin.token);
    const q2 = await newQueue(a.admin.token);
    const theirs = await newQueue(b.admin.token);
    const created = await newConnection(a.admin.token, { queueIds: [q1] });
    const id = created.body.id;
    expect((await t.api.put(`/whatsapp/${id}`, { queueIds: [q2] }, a.admin.token)).body.queueIds).toEqual([q2]);
    expect(await t.api.put(`/whatsapp/${id}`, { queueIds: [q1, q2] }, a.admin.token)).toMatchObject({
      status: 400,
      body: { error: 'ERR_WAPP_GREETING_REQUIRED' },
    });
    expect(await t.api.put(`/whatsapp/${id}`, { queueIds: [q2, theirs] }, a.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_FOUND' },
    });
    expect(await t.api.put(`/whatsapp/${id}`, { transferQueueId: theirs }, a.admin.token)).toMatchObject({ status: 404 });
    expect((await connection(id)).queueIds).toEqual([q2]);
    const both = await t.api.put(`/whatsapp/${id}`, { queueIds: [q1, q2], greetingMessage: 'Escolha' }, a.admin.token);
    expect(both.status).toBe(200);
    expect(both.body.queueIds.sort()).toEqual([q1, q2].sort());
    // The greeting cannot be dropped while several queues remain.
    expect(await t.api.put(`/whatsapp/${id}`, { greetingMessage: '' }, a.admin.token)).toMatchObject({
      status: 400,
      body: { error: 'ERR_WAPP_GREETING_REQUIRED' },
    });
    expect((await connection(id)).greetingMessage).toBe('Escolha');
    // Queues not sent stay.
    expect((await t.api.put(`/whatsapp/${id}`, { name: `Kept ${hex()}` }, a.admin.token)).body.queueIds.sort()).toEqual([q1, q2].sort());
    const cleared = await t.api.put(`/whatsapp/${id}`, { queueIds: [], greetingMessage: '' }, a.admin.token);
    expect(cleared.body).toMatchObject({ queueIds: [], queues: [], greetingMessage: '' });
  });

  it('issues a new API token on request, answered once', async () => {
    const created = await newConnection(a.admin.token);
    const res = await t.api.put(`/whatsapp/${created.body.id}`, { regenerateToken: true }, a.admin.token);
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.token).not.toBe(created.body.token);
    expect((await storedRow(created.body.id))!.tokenHash).toBe(sha256(res.body.token));
    expect(await connection(created.body.id)).not.toHaveProperty('token');
    expect((await t.api.put(`/whatsapp/${created.body.id}`, { regenerateToken: false }, a.admin.token)).body).not.toHaveProperty('token');
    expect((await storedRow(created.body.id))!.tokenHash).toBe(sha256(res.body.token));
  });

  it('refuses another connection’s name, bad fields, an unknown id and agents', async () => {
    const one = await newConnection(a.admin.token);
    const two = await newConnection(a.admin.token);
    expect(await t.api.put(`/whatsapp/${one.body.id}`, { name: two.body.name.toUpperCase() }, a.admin.token)).toMatchObject({
      status: 409,
      body: { error: 'ERR_WAPP_NAME_ALREADY_EXISTS' },
    });
    expect((await t.api.put(`/whatsapp/${one.body.id}`, { name: one.body.name.toUpperCase() }, a.admin.token)).status).toBe(200);
    expect(await t.api.put(`/whatsapp/${one.body.id}`, { name: 'X' }, a.admin.token)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    expect(await t.api.put('/whatsapp/999999', { name: 'Ghost line' }, a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
    expect(await t.api.put(`/whatsapp/${two.body.id}`, { name: 'Agent line', isDefault: true }, a.agent.token)).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });
    expect(await connection(two.body.id)).toMatchObject({ name: two.body.name, isDefault: false });
  });
});

describe('sessions and the sandbox phone', () => {
  it('a scan connects the phone: CONNECTED with a number, no QR code, heard on the socket', async () => {
    const created = await newConnection(a.admin.token);
    const socket = await socketFor(a.admin.token);
    const heard = nextEvent<any>(socket, `company-${a.companyId}-whatsappSession`);
    const scan = await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token);
    expect(scan.status).toBe(200);
    expect(scan.body.number).toMatch(/^\d{10,15}$/);
    expect(await heard).toMatchObject({ action: 'update', session: { id: created.body.id, status: 'CONNECTED', number: scan.body.number, qrcode: '' } });
    expect(await connection(created.body.id)).toMatchObject({ status: 'CONNECTED', number: scan.body.number, qrcode: '' });
    // A second scan has nothing to scan.
    expect(await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token)).toMatchObject({ status: 409, body: { error: 'ERR_CONFLICT' } });
    // Starting again keeps the credentials: connected at once.
    expect((await t.api.post(`/whatsappsession/${created.body.id}`, {}, a.admin.token)).status).toBe(200);
    expect(await connection(created.body.id)).toMatchObject({ status: 'CONNECTED', number: scan.body.number });
  });

  it('the sandbox phone checks numbers only once scanned, like a real one', async () => {
    const created = await newConnection(a.admin.token);
    const session = t.app.channels.get(created.body.id);
    await expect(session.checkNumber('+55 11 91234-5678')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token);
    expect(await session.checkNumber('+55 11 91234-5678')).toBe('5511912345678');
    expect(await session.checkNumber('12')).toBeNull();
  });

  it('PUT /whatsappsession forgets the credentials and shows a new QR code', async () => {
    const created = await newConnection(a.admin.token);
    const firstQr = created.body.qrcode;
    const res = await t.api.put(`/whatsappsession/${created.body.id}`, {}, a.admin.token);
    expect(res.status).toBe(200);
    const after = await connection(created.body.id);
    expect(after.status).toBe('qrcode');
    expect(after.qrcode).toMatch(/^atrium-sandbox:/);
    expect(after.qrcode).not.toBe(firstQr);
    // retries counts the QR codes since the admin restarted the session, not since the connection was made.
    expect(after.retries).toBe(1);
    // Once connected, a fresh start means scanning again.
    await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token);
    expect((await connection(created.body.id)).status).toBe('CONNECTED');
    await t.api.put(`/whatsappsession/${created.body.id}`, {}, a.admin.token);
    expect(await connection(created.body.id)).toMatchObject({ status: 'qrcode' });
    expect((await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token)).status).toBe(200);
  });

  it('DELETE /whatsappsession logs the phone out: DISCONNECTED, and the next start asks for a QR code', async () => {
    const created = await newConnection(a.admin.token);
    await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token);
    const socket = await socketFor(a.agent.token);
    const sessions = record(socket, `company-${a.companyId}-whatsappSession`);
    const res = await t.api.del(`/whatsappsession/${created.body.id}`, a.admin.token);
    expect(res.status).toBe(200);
    // No phone is linked any more: its number goes too.
    expect(await connection(created.body.id)).toMatchObject({ status: 'DISCONNECTED', qrcode: '', number: '' });
    await eventually(() => sessions.some((e) => e.session.id === created.body.id && e.session.status === 'DISCONNECTED'));
    // No live session: the phone cannot be played.
    expect(await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token)).toMatchObject({
      status: 409,
      body: { error: 'ERR_WAPP_NOT_INITIALIZED' },
    });
    expect(
      await t.api.post(`/sandbox/${created.body.id}/messages`, { from: '5511912345678', body: 'Oi' }, a.admin.token),
    ).toMatchObject({ status: 409, body: { error: 'ERR_WAPP_NOT_INITIALIZED' } });
    // The credentials are gone: starting again shows a QR code, not a connected phone.
    expect(await t.api.post(`/whatsappsession/${created.body.id}`, {}, a.admin.token)).toMatchObject({ status: 200 });
    const restarted = await connection(created.body.id);
    expect(restarted.status).toBe('qrcode');
    expect(restarted.qrcode).toMatch(/^atrium-sandbox:/);
    await eventually(() => sessions.some((e) => e.session.id === created.body.id && e.session.status === 'qrcode'));
    expect((await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token)).status).toBe(200);
  });

  it('refuses agents on the session endpoints and the sandbox controls, changing nothing', async () => {
    const created = await newConnection(a.admin.token);
    const id = created.body.id;
    for (const [method, path] of [
      ['POST', `/whatsappsession/${id}`],
      ['PUT', `/whatsappsession/${id}`],
      ['DELETE', `/whatsappsession/${id}`],
      ['POST', `/sandbox/${id}/scan`],
      ['POST', `/sandbox/${id}/messages`],
      ['POST', `/sandbox/${id}/ack`],
      ['GET', `/sandbox/${id}/outbox`],
    ]) {
      const body = method === 'GET' ? undefined : { from: '5511912345678', body: 'x', id: 'X1', ack: 3 };
      const res = await t.api.request(method, path, { token: a.agent.token, body });
      expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    }
    expect(await connection(id)).toMatchObject({ status: 'qrcode', qrcode: created.body.qrcode });
  });

  it('answers 404 for an unknown sandbox connection and 400 for a bad id', async () => {
    expect(await t.api.post('/sandbox/999999/scan', {}, a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
    expect(await t.api.get('/sandbox/99999999999/outbox', a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
    expect(await t.api.post('/sandbox/abc/scan', {}, a.admin.token)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });

  it('refuses the sandbox controls on a connection of another provider', async () => {
    const row = await storedRow((await newConnection(a.admin.token)).body.id);
    // Not creatable here (Baileys would go online): the provider is switched in the database, and the
    // sandbox session stopped (a beta connection runs no sandbox session).
    await forSystem(t.app.orm.em).nativeUpdate(Whatsapp, { id: row!.id }, { provider: 'beta' });
    await t.app.channels.stop(row!.id);
    expect(await t.api.post(`/sandbox/${row!.id}/scan`, {}, a.admin.token)).toMatchObject({
      status: 400,
      body: { error: 'ERR_WAPP_PROVIDER_DISABLED', provider: 'beta' },
    });
    await forSystem(t.app.orm.em).nativeUpdate(Whatsapp, { id: row!.id }, { provider: 'sandbox' });
  });
});

describe('POST /whatsappsession/{id}/pairing-code', () => {
  it('gives an admin a code to type on the phone while the QR code is shown, and refuses otherwise', async () => {
    const created = await newConnection(a.admin.token);
    const id = created.body.id;
    expect((await t.api.get(`/whatsapp/${id}`, a.admin.token)).body.status).toBe('qrcode');
    const res = await t.api.post(`/whatsappsession/${id}/pairing-code`, { number: '+55 (11) 98888-7777' }, a.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.code).toMatch(/^[A-Z0-9]{8}$/);
    expect(await t.api.post(`/whatsappsession/${id}/pairing-code`, { number: '5511988887777' }, a.agent.token)).toMatchObject({ status: 403 });
    expect(await t.api.post(`/whatsappsession/${id}/pairing-code`, { number: '12' }, a.admin.token)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    await t.api.post(`/sandbox/${id}/scan`, {}, a.admin.token);
    expect(await t.api.post(`/whatsappsession/${id}/pairing-code`, { number: '5511988887777' }, a.admin.token)).toMatchObject({
      status: 409,
      body: { error: 'ERR_WAPP_NOT_INITIALIZED' },
    });
  });
});

describe('what a session reports', () => {
  const eventsOf = (id: number, companyId: number) =>
    sessionEvents(
      {
        systemEm: () => forSystem(t.app.orm.em),
        logger: t.app.logger,
        media: t.app.media,
        events: t.app.events,
        channels: t.app.channels,
        steps: [],
      },
      { id, companyId, provider: 'sandbox' },
    );

  it('keeps the linked number when the connection stops, and forgets it only when the phone is unlinked', async () => {
    const created = await newConnection(a.admin.token);
    const events = eventsOf(created.body.id, a.companyId);
    await events.status('CONNECTED', { number: '5511987650000' });
    expect(await connection(created.body.id)).toMatchObject({ status: 'CONNECTED', number: '5511987650000' });
    // Replaced by another session (440), or stopped: the phone is still linked.
    await events.status('DISCONNECTED', { reason: 'connectionReplaced:440' });
    expect(await connection(created.body.id)).toMatchObject({ status: 'DISCONNECTED', number: '5511987650000' });
    await events.status('DISCONNECTED', { reason: 'loggedOut:401', unlinked: true });
    expect(await connection(created.body.id)).toMatchObject({ status: 'DISCONNECTED', number: '' });
  });

  it('tells the admins once when a linked number stays down longer than the limit, and starts over when it is back', async () => {
    const c = await freshTenant('ConnDown');
    const created = await newConnection(c.admin.token);
    const id = created.body.id as number;
    const events = eventsOf(id, c.companyId);
    await events.status('CONNECTED', { number: '5511987651111' });
    expect((await storedRow(id))?.downSince).toBeNull();
    const adminHeard = record(await socketFor(c.admin.token), `company-${c.companyId}-whatsappSession`);
    const agentSocket = await socketFor(c.agent.token);
    const agentHeard = record(agentSocket, `company-${c.companyId}-whatsappSession`);

    await events.status('OPENING', { reason: 'connectionClosed:408' });
    const since = (await storedRow(id))!.downSince!;
    expect(since).toBeInstanceOf(Date);
    // Retrying again does not move the start of the outage.
    await events.status('OPENING', { reason: 'connectionClosed:428' });
    expect((await storedRow(id))!.downSince).toEqual(since);

    const mails: { to: string; subject: string; text: string }[] = [];
    const deps = {
      systemEm: () => forSystem(t.app.orm.em),
      events: t.app.events,
      logger: t.app.logger,
      mailer: { enabled: true, send: async (m: { to: string; subject: string; text: string }) => void mails.push(m), close: () => {} },
    };
    const at = (ms: number) => new Date(since.getTime() + ms);
    expect(await noticeDownConnections(deps, { minutes: 15, now: at(15 * 60_000 - 1) })).not.toContain(id);
    expect(await noticeDownConnections(deps, { minutes: 15, now: at(15 * 60_000) })).toContain(id);
    expect(await connection(id, c.admin.token)).toMatchObject({ status: 'OPENING', disconnectReason: 'downTooLong:15', number: '5511987651111' });
    await eventually(() => expect(adminHeard.some((p) => p.action === 'down' && p.whatsappId === id && p.minutes === 15)).toBe(true));
    expect(mails.filter((m) => m.to === c.admin.email)).toHaveLength(1);
    expect(mails.find((m) => m.to === c.admin.email)?.subject).toContain(created.body.name);
    expect(mails.some((m) => m.to === c.agent.email)).toBe(false);
    // Told once per outage.
    expect(await noticeDownConnections(deps, { minutes: 15, now: at(60 * 60_000) })).not.toContain(id);
    // Only admins hear it: a sentinel the agent hears comes after it.
    const sentinel = nextEvent(agentSocket, `company-${c.companyId}-user`);
    expect((await t.api.put(`/users/${c.agent.id}`, {}, c.admin.token)).status).toBe(200);
    await sentinel;
    expect(agentHeard.some((p) => p.action === 'down')).toBe(false);

    // Back: the next outage is told again.
    await events.status('CONNECTED', { number: '5511987651111' });
    expect(await storedRow(id)).toMatchObject({ downSince: null, downNotified: false, disconnectReason: '' });
    await events.status('DISCONNECTED', { reason: 'connectionReplaced:440' });
    const again = (await storedRow(id))!.downSince!;
    expect(await noticeDownConnections(deps, { minutes: 15, now: new Date(again.getTime() + 15 * 60_000) })).toContain(id);
    // A stopped connection keeps the reason that says what to do.
    expect(await connection(id, c.admin.token)).toMatchObject({ status: 'DISCONNECTED', disconnectReason: 'connectionReplaced:440' });
    // An unlinked phone is not a number down.
    await events.status('DISCONNECTED', { reason: 'loggedOut:401', unlinked: true });
    expect((await storedRow(id))?.downSince).toBeNull();
  });

  it('records a missed call in the conversation, at the company’s local time, once', async () => {
    const c = await freshTenant('ConnCall');
    expect((await t.api.put(`/companies/${c.companyId}`, { timezone: 'Asia/Kolkata' }, t.superToken)).status).toBe(200);
    const created = await newConnection(c.admin.token);
    await t.api.post(`/sandbox/${created.body.id}/scan`, {}, c.admin.token);
    const events = eventsOf(created.body.id, c.companyId);
    const caller = `55116${Date.now().toString().slice(-8)}`;
    const at = new Date('2026-03-10T15:07:00Z');
    // Ringing is not a missed call.
    await events.call!({ from: { number: caller, lid: null }, status: 'offer', at });
    expect(await ticketOf(t.api, c.admin.token, caller)).toBeUndefined();
    await events.call!({ from: { number: caller, lid: null }, status: 'timeout', at });
    await events.call!({ from: { number: caller, lid: null }, status: 'timeout', at });
    const ticket = await ticketOf(t.api, c.admin.token, caller);
    expect(ticket).toMatchObject({ status: 'pending', whatsappId: created.body.id });
    const messages = (await t.api.get(`/messages/${ticket.id}`, c.admin.token)).body.messages;
    expect(messages).toHaveLength(1);
    // 15:07 UTC is 20:37 in India.
    expect(messages[0]).toMatchObject({ mediaType: 'call_log', body: '20:37', fromMe: false });
  });

  it('saves a phone number ↔ LID pair on the contact known by either, and merges the two contacts it links', async () => {
    const created = await newConnection(a.admin.token);
    await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token);
    const events = eventsOf(created.body.id, a.companyId);
    const stamp = Date.now().toString().slice(-8);
    const number = `55118${stamp}`;
    const lid = `20394${stamp}77`;
    // The same customer, written to once by phone number, once by LID only.
    await customerSays(t.api, a.admin.token, created.body.id, { from: number, body: 'Oi' });
    await events.message({ id: `LIDMSG${stamp}`, fromMe: false, chat: { number: null, lid }, body: 'Sou eu', mediaType: 'chat', timestamp: new Date() });
    const conn = t.app.orm.em.fork().getConnection();
    const contactsOf = () => conn.execute<{ id: number; number: string | null; lid: string | null }[]>(
      'select id, number, lid from contacts where company_id = ? and (number = ? or lid = ?) order by id', [a.companyId, number, lid]);
    expect(await contactsOf()).toHaveLength(2);

    await events.contactUpdate({ number, lid });
    const merged = await contactsOf();
    expect(merged).toEqual([expect.objectContaining({ number, lid })]);
    const ticket = await ticketOf(t.api, a.admin.token, number);
    const bodies = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages.map((m: { body: string }) => m.body);
    expect(bodies.sort()).toEqual(['Oi', 'Sou eu']);

    // A pair for a customer nobody knows imports nothing.
    await events.contactUpdate({ number: `55119${stamp}`, lid: `30394${stamp}77` });
    expect(await conn.execute('select id from contacts where company_id = ? and number = ?', [a.companyId, `55119${stamp}`])).toEqual([]);
  });

  it('keeps why the session closed on the connection row until it connects again', async () => {
    const created = await newConnection(a.admin.token);
    await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token);
    const events = eventsOf(created.body.id, a.companyId);
    const reason = 'connectionReplaced:440';
    await events.status('DISCONNECTED', { reason });
    expect((await t.api.get(`/whatsapp/${created.body.id}`, a.admin.token)).body).toMatchObject({ status: 'DISCONNECTED', disconnectReason: reason });
    const listed = (await t.api.get('/whatsapp/?session=0', a.admin.token)).body.find((w: { id: number }) => w.id === created.body.id);
    expect(listed.disconnectReason).toBe(reason);
    // Retrying keeps it; a plain OPENING without a reason does not wipe it.
    await events.status('OPENING');
    expect((await t.api.get(`/whatsapp/${created.body.id}`, a.admin.token)).body.disconnectReason).toBe(reason);
    await events.status('CONNECTED', { number: '5511900002222' });
    expect((await t.api.get(`/whatsapp/${created.body.id}`, a.admin.token)).body).toMatchObject({ status: 'CONNECTED', disconnectReason: '' });
  });

  it('gives back the stored copy of a message this connection sent (for a phone asking it again), nothing else', async () => {
    const created = await newConnection(a.admin.token);
    await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token);
    const events = eventsOf(created.body.id, a.companyId);
    const customer = `55117${Date.now().toString().slice(-8)}`;
    const inboundId = await customerSays(t.api, a.admin.token, created.body.id, { from: customer, body: 'Oi' });
    const ticket = await ticketOf(t.api, a.admin.token, customer);
    const sent = await t.api.post(`/messages/${ticket.id}`, { body: 'Bom dia' }, a.admin.token);
    expect(sent.status).toBeLessThan(300);
    const conn = t.app.orm.em.fork().getConnection();
    const [row] = await conn.execute<{ wid: string }[]>('select wid from messages where ticket_id = ? and from_me = true', [ticket.id]);
    const raw = { key: { remoteJid: `${customer}@s.whatsapp.net`, fromMe: true, id: row!.wid }, message: { conversation: 'Bom dia' } };
    await conn.execute('update messages set raw = ? where wid = ?', [JSON.stringify(raw), row!.wid]);
    expect(await events.sentMessage!(row!.wid)).toEqual(raw);
    // A customer's message is not ours to send again; another connection's ids are not this one's.
    expect(await events.sentMessage!(inboundId)).toBeNull();
    expect(await eventsOf(created.body.id + 100000, a.companyId).sentMessage!(row!.wid)).toBeNull();
  });

  it('refreshes a known contact’s picture, and a name that was only the number; unknown numbers are not imported', async () => {
    const created = await newConnection(a.admin.token);
    await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token);
    const events = eventsOf(created.body.id, a.companyId);
    const customer = `55115${Date.now().toString().slice(-8)}`;
    await customerSays(t.api, a.admin.token, created.body.id, { from: customer, body: 'Oi' });
    const ticket = await ticketOf(t.api, a.admin.token, customer);
    expect(ticket.contact.name).toBe(customer);
    await events.contactUpdate({ number: customer, lid: null, name: 'Joana Lima', profilePicUrl: 'https://pics.example/joana.jpg' });
    const read = await t.api.get(`/tickets/${ticket.id}`, a.admin.token);
    expect(read.body.contact).toMatchObject({ name: 'Joana Lima', profilePicUrl: 'https://pics.example/joana.jpg' });
    // A name the team has given is kept.
    await events.contactUpdate({ number: customer, lid: null, name: 'Someone Else' });
    expect((await t.api.get(`/tickets/${ticket.id}`, a.admin.token)).body.contact.name).toBe('Joana Lima');
    const stranger = `55114${Date.now().toString().slice(-8)}`;
    await events.contactUpdate({ number: stranger, lid: null, name: 'Stranger' });
    expect(await ticketOf(t.api, a.admin.token, stranger)).toBeUndefined();
  });

  it('ignores reports for a connection that no longer exists', async () => {
    const created = await newConnection(a.admin.token);
    const events = eventsOf(created.body.id, a.companyId);
    expect((await t.api.del(`/whatsapp/${created.body.id}`, a.admin.token)).status).toBe(200);
    await events.status('CONNECTED', { number: '5511900000000' });
    await events.qr('late-code');
    expect((await t.api.get(`/whatsapp/${created.body.id}`, a.admin.token)).status).toBe(404);
  });
});

describe('DELETE /whatsapp/{id}', () => {
  it('is refused while the connection has pending or open tickets, and allowed once they are closed', async () => {
    const created = await newConnection(a.admin.token);
    const id = created.body.id;
    await t.api.post(`/sandbox/${id}/scan`, {}, a.admin.token);
    const customer = `55117${Date.now().toString().slice(-8)}`;
    await customerSays(t.api, a.admin.token, id, { from: customer, body: 'Olá' });
    const ticket = await ticketOf(t.api, a.admin.token, customer);
    expect(ticket.status).toBe('pending');
    expect(await t.api.del(`/whatsapp/${id}`, a.admin.token)).toMatchObject({ status: 409, body: { error: 'ERR_WAPP_HAS_OPEN_TICKETS', tickets: 1 } });
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'open' }, a.admin.token)).body.status).toBe('open');
    expect(await t.api.del(`/whatsapp/${id}`, a.admin.token)).toMatchObject({ status: 409, body: { error: 'ERR_WAPP_HAS_OPEN_TICKETS' } });
    expect(await connection(id)).toMatchObject({ id, status: 'CONNECTED' });

    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, a.admin.token)).body.status).toBe('closed');
    const socket = await socketFor(a.agent.token);
    const changes = record(socket, `company-${a.companyId}-whatsapp`);
    expect(await t.api.del(`/whatsapp/${id}`, a.admin.token)).toMatchObject({ status: 200 });
    expect(await t.api.get(`/whatsapp/${id}`, a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
    await eventually(() => changes.some((e) => e.action === 'delete' && e.whatsappId === id));
    // The conversation's history survives without its connection.
    expect((await t.api.get(`/tickets/${ticket.id}`, a.admin.token)).body).toMatchObject({ id: ticket.id, status: 'closed', whatsappId: null });
    // The phone is logged out: nothing answers for it any more.
    expect((await t.api.post(`/sandbox/${id}/scan`, {}, a.admin.token)).status).toBe(404);
    expect(await t.api.del(`/whatsapp/${id}`, a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
  });

  it('counts a ticket being opened on the connection at that very moment: refused, nothing orphaned', async () => {
    const created = await newConnection(a.admin.token);
    const id = created.body.id;
    await t.api.post(`/sandbox/${id}/scan`, {}, a.admin.token);
    const contact = await t.api.post('/contacts', { name: 'Corrida', number: `55118${Date.now().toString().slice(-8)}` }, a.admin.token);
    // Another transaction opens a ticket on the connection and has not committed yet.
    const knex = t.app.orm.em.getConnection().getKnex();
    const opening = await knex.transaction();
    await opening.raw(
      `insert into tickets (uuid, company_id, status, contact_id, whatsapp_id, is_group, last_message, unread_messages,
         rating_attempts, created_at, updated_at)
       values (gen_random_uuid(), ?, 'pending', ?, ?, false, '', 0, 0, now(), now())`,
      [a.companyId, contact.body.id, id],
    );
    const deleting = t.api.del(`/whatsapp/${id}`, a.admin.token);
    // The delete has reached the database and waits for the opening transaction's lock.
    await eventually(async () => {
      const waiting = await knex.raw(`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`);
      return waiting.rows[0].n > 0;
    });
    await opening.commit();
    expect(await deleting).toMatchObject({ status: 409, body: { error: 'ERR_WAPP_HAS_OPEN_TICKETS', tickets: 1 } });
    expect(await connection(id)).toMatchObject({ id, status: 'CONNECTED' });
    expect(t.app.channels.find(id)).toBeDefined();
  });

  it('moves the default to another connection, announced, and clears users’ default connection', async () => {
    const c = await freshTenant('ConnDelete');
    const first = await newConnection(c.admin.token);
    const second = await newConnection(c.admin.token);
    const third = await newConnection(c.admin.token);
    expect(first.body.isDefault).toBe(true);
    expect((await t.api.put(`/users/${c.agent.id}`, { whatsappId: first.body.id }, c.admin.token)).body.whatsappId).toBe(first.body.id);
    const socket = await socketFor(c.agent.token);
    const changes = record(socket, `company-${c.companyId}-whatsapp`);

    expect((await t.api.del(`/whatsapp/${first.body.id}`, c.admin.token)).status).toBe(200);
    const list = await connectionsOf(c.admin.token);
    expect(list.map((w) => w.id).sort()).toEqual([second.body.id, third.body.id].sort());
    expect(list.filter((w) => w.isDefault).map((w) => w.id)).toEqual([second.body.id]);
    await eventually(() => changes.length >= 2);
    expect(changes).toEqual([
      { action: 'delete', whatsappId: first.body.id },
      expect.objectContaining({ action: 'update', whatsapp: expect.objectContaining({ id: second.body.id, isDefault: true }) }),
    ]);
    expect((await t.api.get(`/users/${c.agent.id}`, c.admin.token)).body.whatsappId).toBeNull();

    // A non-default goes without moving anything.
    expect((await t.api.del(`/whatsapp/${third.body.id}`, c.admin.token)).status).toBe(200);
    expect((await connectionsOf(c.admin.token)).map((w) => [w.id, w.isDefault])).toEqual([[second.body.id, true]]);
    // The last one may go too.
    expect((await t.api.del(`/whatsapp/${second.body.id}`, c.admin.token)).status).toBe(200);
    expect(await connectionsOf(c.admin.token)).toEqual([]);
    // And the next one is the default again.
    expect((await newConnection(c.admin.token)).body.isDefault).toBe(true);
  });

  it('refuses an agent with 403 and keeps the connection', async () => {
    const created = await newConnection(a.admin.token);
    expect(await t.api.del(`/whatsapp/${created.body.id}`, a.agent.token)).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await t.api.get(`/whatsapp/${created.body.id}`, a.admin.token)).status).toBe(200);
  });
});

describe('tenant isolation', () => {
  it('company A can neither read nor change company B’s connection through any endpoint', async () => {
    const theirs = await newConnection(b.admin.token, { name: `Theirs ${hex()}`, greetingMessage: 'B greeting' });
    const id = theirs.body.id;
    const before = await connection(id, b.admin.token);
    const bSocket = await socketFor(b.admin.token);
    const bHears = watch(bSocket, [`company-${b.companyId}-whatsappSession`, `company-${b.companyId}-whatsapp`]);

    for (const token of [a.admin.token, a.agent.token]) {
      const attempts: [string, string, unknown][] = [
        ['GET', `/whatsapp/${id}`, undefined],
        ['GET', `/whatsapp/${id}?session=0`, undefined],
        ['PUT', `/whatsapp/${id}`, { name: 'Pwned line', isDefault: true, regenerateToken: true, greetingMessage: 'x' }],
        ['DELETE', `/whatsapp/${id}`, undefined],
        ['POST', `/whatsappsession/${id}`, {}],
        ['PUT', `/whatsappsession/${id}`, {}],
        ['DELETE', `/whatsappsession/${id}`, undefined],
        ['POST', `/sandbox/${id}/scan`, {}],
        ['POST', `/sandbox/${id}/messages`, { from: '5511912345678', body: 'spoofed' }],
        ['POST', `/sandbox/${id}/ack`, { id: 'X1', ack: 3 }],
        ['GET', `/sandbox/${id}/outbox`, undefined],
      ];
      for (const [method, path, body] of attempts) {
        const res = await t.api.request(method, path, { token, body });
        const expected = token === a.admin.token || method === 'GET' && path.startsWith('/whatsapp') ? 404 : 403;
        expect(res.status, `${method} ${path}`).toBe(expected);
        if (expected === 404) expect(res.body.error, `${method} ${path}`).toBe('ERR_NO_WAPP_FOUND');
      }
    }
    // Not listed for A, unchanged for B: same QR code, same name, same token, no session restarted.
    expect((await connectionsOf(a.admin.token)).some((w) => w.id === id)).toBe(false);
    const after = await connection(id, b.admin.token);
    expect(after).toEqual(before);
    expect((await storedRow(id))!.tokenHash).toBe(sha256(theirs.body.token));
    // Sessions start and stop within their requests (the channel manager awaits them), so a change or a
    // restart of B's connection would have been announced before this sentinel.
    expect(await bHears.before(await bUserSaved())).toEqual([]);
    expect((await t.api.get(`/sandbox/${id}/outbox`, b.admin.token)).body.messages).toEqual([]);
  });

  it('company A’s connection events never reach company B', async () => {
    const bSocket = await socketFor(b.admin.token);
    const leaked = watch(bSocket, [`company-${a.companyId}-whatsappSession`, `company-${a.companyId}-whatsapp`]);
    const created = await newConnection(a.admin.token);
    expect((await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token)).status).toBe(200);
    // The creation, the session's start and the scan announce within their requests, before the sentinel.
    expect(await leaked.before(await bUserSaved())).toEqual([]);
  });
});
