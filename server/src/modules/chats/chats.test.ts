import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { CHAT_MEDIA_MAX_BYTES, CHATS_PAGE_SIZE } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../../db/tenant.js';
import {
  connectSocket,
  createTenant,
  nextEvent,
  startTestApp,
  watch,
  type ApiResponse,
  type Tenant,
  type TestApp,
} from '../../../testing/helpers.js';
import { expectError, expectInvalidExactly } from '../../../testing/expect.js';

let t: TestApp;
/** Company A: admin, agent and a third user (`carol`); company B: another company. */
let a: Tenant;
let b: Tenant;
let carol: { id: number; token: string; name: string };
const sockets: Socket[] = [];

const uid = () => randomBytes(4).toString('hex');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const sql = (query: string, params: unknown[] = []) => forSystem(t.app.orm.em).execute(query, params);

/** A chat owned by `token`'s user with the listed users. */
const makeChat = async (token: string, userIds: number[], title = `Chat ${uid()}`) => {
  const res = await t.api.post('/chats', { title, users: userIds.map((id) => ({ id })) }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; uuid: string; title: string; ownerId: number; users: { userId: number; unreads: number }[] };
};
const say = async (chatId: number, token: string, message: string) => {
  const res = await t.api.post(`/chats/${chatId}/messages`, { message }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const unreadsOf = async (chatId: number, token: string) => {
  const res = await t.api.get(`/chats/${chatId}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Object.fromEntries((res.body.users as { userId: number; unreads: number }[]).map((u) => [u.userId, u.unreads]));
};
const sendFile = async (chatId: number | string, token: string, file: { data: Buffer; name: string; type: string }, message?: string) => {
  const form = new FormData();
  form.append('medias', new Blob([file.data], { type: file.type }), file.name);
  if (message !== undefined) form.append('message', message);
  const res = await fetch(`${t.app.url}/chats/${chatId}/messages`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json(), headers: res.headers } as ApiResponse;
};
const socketOf = async (token: string) => {
  const socket = await connectSocket(t.app.url, token);
  sockets.push(socket);
  return socket;
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'ChatA');
  b = await createTenant(t, 'ChatB');
  const email = `carol-${uid()}@example.com`;
  const created = await t.api.post('/users', { name: 'Carol Costa', email, password: 'Passw0rd-x', profile: 'user' }, a.admin.token);
  expect(created.status).toBe(201);
  carol = { id: created.body.id, token: (await t.api.login(email, 'Passw0rd-x')).token, name: 'Carol Costa' };
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('authentication and plan', () => {
  it.each([
    ['GET', '/chats'],
    ['GET', '/chats/1'],
    ['POST', '/chats'],
    ['PUT', '/chats/1'],
    ['DELETE', '/chats/1'],
    ['POST', '/chats/1/read'],
    ['GET', '/chats/1/messages'],
    ['POST', '/chats/1/messages'],
  ])('%s %s answers 401 without a token', async (method, url) => {
    expectError(await t.api.request(method, url, { body: method === 'GET' ? undefined : {} }), 401, 'ERR_SESSION_EXPIRED');
  });

  it("is refused (403 ERR_PLAN_FEATURE_DISABLED) when the company's plan has no internal chat", async () => {
    const plan = await t.api.post('/plans', { name: `No chat ${uid()}`, users: 5, connections: 5, queues: 5, useInternalChat: false }, t.superToken);
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const d = await createTenant(t, 'ChatNoPlan', plan.body.id);
    expectError(await t.api.get('/chats', d.agent.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await t.api.post('/chats', { title: 'Hi', users: [{ id: d.admin.id }] }, d.agent.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expect((await sql('select count(*)::int as n from chats where company_id = ?', [d.companyId]))[0].n).toBe(0);
  });
});

describe('POST /chats', () => {
  it('creates a chat owned by the caller, who takes part with the listed users (once each)', async () => {
    const res = await t.api.post('/chats', { title: '  Shift handover  ', users: [{ id: a.admin.id }, { id: a.agent.id }, { id: a.admin.id }] }, a.agent.token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ title: 'Shift handover', ownerId: a.agent.id, lastMessage: '', companyId: a.companyId });
    expect(res.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.users.map((u: { userId: number }) => u.userId).sort()).toEqual([a.admin.id, a.agent.id].sort());
    for (const u of res.body.users) expect(u).toMatchObject({ unreads: 0, user: { id: u.userId, name: expect.any(String) } });
  });

  it('needs a title and at least one other user of the company; creates nothing otherwise', async () => {
    const before = (await sql('select count(*)::int as n from chats'))[0].n;
    expectInvalidExactly(await t.api.post('/chats', {}, a.agent.token), 'title', 'users');
    expectInvalidExactly(await t.api.post('/chats', { title: '   ', users: [{ id: a.admin.id }] }, a.agent.token), 'title');
    expectInvalidExactly(await t.api.post('/chats', { title: 'Alone', users: [] }, a.agent.token), 'users');
    expectInvalidExactly(await t.api.post('/chats', { title: 'Alone', users: [{ id: a.agent.id }] }, a.agent.token), 'users');
    expectInvalidExactly(await t.api.post('/chats', { title: 'Bad', users: [{ id: 'x' }] }, a.agent.token), 'users.0');
    expectInvalidExactly(await t.api.post('/chats', { title: 'Ghost', users: [{ id: 999999 }] }, a.agent.token), 'users');
    // Another company's user is no user of ours.
    expectInvalidExactly(await t.api.post('/chats', { title: 'Cross', users: [{ id: b.agent.id }] }, a.agent.token), 'users');
    expect((await sql('select count(*)::int as n from chats'))[0].n).toBe(before);
  });
});

describe('reading chats', () => {
  it('lists only the chats the caller takes part in, most recently active first, searching the title', async () => {
    const marker = uid();
    const first = await makeChat(a.admin.token, [a.agent.id], `First ${marker}`);
    const second = await makeChat(a.admin.token, [carol.id], `Second ${marker}`);
    await say(first.id, a.agent.token, 'bump');

    const admin = await t.api.get(`/chats?searchParam=${marker}`, a.admin.token);
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ count: 2, hasMore: false });
    expect(admin.body.records.map((c: { id: number }) => c.id)).toEqual([first.id, second.id]);

    // The family's clients call GET /chats/ (with the slash).
    expect((await t.api.get(`/chats/?searchParam=${marker}&pageNumber=1`, a.admin.token)).body.count).toBe(2);
    const agent = await t.api.get(`/chats?searchParam=${marker}`, a.agent.token);
    expect(agent.body.records.map((c: { id: number }) => c.id)).toEqual([first.id]);
    expect((await t.api.get(`/chats?searchParam=Second ${marker}`, carol.token)).body.records.map((c: { id: number }) => c.id)).toEqual([second.id]);
    // Another company sees none of them.
    expect((await t.api.get(`/chats?searchParam=${marker}`, b.admin.token)).body.count).toBe(0);
  });

  it('with unread=true lists only the chats the caller has not read, however far down the list, counting them all', async () => {
    const email = `dora-${uid()}@example.com`;
    const created = await t.api.post('/users', { name: 'Dora Dias', email, password: 'Passw0rd-x', profile: 'user' }, a.admin.token);
    expect(created.status).toBe(201);
    const dora = { id: created.body.id as number, token: (await t.api.login(email, 'Passw0rd-x')).token };
    // An old unread chat, then a full page of newer chats that she has read (no messages in them).
    const old = await makeChat(a.admin.token, [dora.id], 'Old question');
    await say(old.id, a.admin.token, 'did you see this?');
    for (let i = 0; i < CHATS_PAGE_SIZE; i++) await makeChat(a.agent.token, [dora.id]);
    const recent = await makeChat(a.admin.token, [dora.id], 'Recent question');
    await say(recent.id, a.admin.token, 'and this?');

    const firstPage = await t.api.get('/chats', dora.token);
    expect(firstPage.body.records.map((c: { id: number }) => c.id)).not.toContain(old.id);
    const unread = await t.api.get('/chats?unread=true', dora.token);
    expect(unread.status).toBe(200);
    expect(unread.body).toMatchObject({ count: 2, hasMore: false });
    expect(unread.body.records.map((c: { id: number }) => c.id)).toEqual([recent.id, old.id]);
    // Read, it leaves the list; the writer has read their own messages.
    expect((await t.api.post(`/chats/${old.id}/read`, {}, dora.token)).status).toBe(200);
    expect((await t.api.get('/chats?unread=true', dora.token)).body.records.map((c: { id: number }) => c.id)).toEqual([recent.id]);
    expect((await t.api.get('/chats?unread=true', a.admin.token)).body.records.map((c: { id: number }) => c.id)).not.toContain(recent.id);
    expectInvalidExactly(await t.api.get('/chats?unread=maybe', dora.token), 'unread');
  });

  it('shows a chat by id or uuid to its participants; 403 to a colleague outside it, 404 to another company', async () => {
    const chat = await makeChat(a.admin.token, [a.agent.id]);
    expect((await t.api.get(`/chats/${chat.id}`, a.agent.token)).body).toMatchObject({ id: chat.id, uuid: chat.uuid });
    expect((await t.api.get(`/chats/${chat.uuid}`, a.agent.token)).body).toMatchObject({ id: chat.id });
    expectError(await t.api.get(`/chats/${chat.id}`, carol.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.get(`/chats/${chat.uuid}`, carol.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.get(`/chats/${chat.id}`, b.admin.token), 404, 'ERR_NO_CHAT_FOUND');
    expectError(await t.api.get(`/chats/${chat.uuid}`, b.admin.token), 404, 'ERR_NO_CHAT_FOUND');
    expectError(await t.api.get('/chats/99999999', a.admin.token), 404, 'ERR_NO_CHAT_FOUND');
    expectInvalidExactly(await t.api.get('/chats/not-a-chat', a.admin.token), 'id');
  });
});

describe('PUT and DELETE /chats/{id}', () => {
  it("lets only the owner edit: a participant and an outsider get 403, another company 404; nothing changes", async () => {
    const chat = await makeChat(a.admin.token, [a.agent.id], 'Original');
    expectError(await t.api.put(`/chats/${chat.id}`, { title: 'Taken' }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.put(`/chats/${chat.id}`, { title: 'Taken' }, carol.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.put(`/chats/${chat.id}`, { title: 'Taken' }, b.admin.token), 404, 'ERR_NO_CHAT_FOUND');
    expectInvalidExactly(await t.api.put(`/chats/${chat.id}`, { title: '' }, a.admin.token), 'title');
    expect((await t.api.get(`/chats/${chat.id}`, a.admin.token)).body.title).toBe('Original');
  });

  it('renames and changes participants; those who stay keep their unread counters, the owner always stays', async () => {
    const chat = await makeChat(a.admin.token, [a.agent.id]);
    await say(chat.id, a.admin.token, 'one');
    await say(chat.id, a.admin.token, 'two');
    const res = await t.api.put(`/chats/${chat.id}`, { title: 'Renamed', users: [{ id: a.agent.id }, { id: carol.id }] }, a.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.title).toBe('Renamed');
    expect(await unreadsOf(chat.id, a.admin.token)).toEqual({ [a.admin.id]: 0, [a.agent.id]: 2, [carol.id]: 0 });

    const dropped = await t.api.put(`/chats/${chat.id}`, { users: [{ id: carol.id }] }, a.admin.token);
    expect(dropped.body.users.map((u: { userId: number }) => u.userId).sort()).toEqual([a.admin.id, carol.id].sort());
    expectError(await t.api.get(`/chats/${chat.id}/messages`, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectInvalidExactly(await t.api.put(`/chats/${chat.id}`, { users: [{ id: b.agent.id }] }, a.admin.token), 'users');
  });

  it('deletes only for the owner, with its messages and their files', async () => {
    const chat = await makeChat(a.admin.token, [a.agent.id]);
    const sent = await sendFile(chat.id, a.agent.token, { data: PNG, name: 'pic.png', type: 'image/png' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const [{ media_path: stored }] = await sql('select media_path from chat_messages where id = ?', [sent.body.id]);
    const file = path.join(t.app.config.dataDir, 'media', String(a.companyId), stored);
    expect(existsSync(file)).toBe(true);

    expectError(await t.api.del(`/chats/${chat.id}`, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.del(`/chats/${chat.id}`, carol.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.del(`/chats/${chat.id}`, b.admin.token), 404, 'ERR_NO_CHAT_FOUND');
    const res = await t.api.del(`/chats/${chat.id}`, a.admin.token);
    expect(res.status).toBe(200);
    expectError(await t.api.get(`/chats/${chat.id}`, a.admin.token), 404, 'ERR_NO_CHAT_FOUND');
    expect((await sql('select count(*)::int as n from chat_messages where chat_id = ?', [chat.id]))[0].n).toBe(0);
    expect((await sql('select count(*)::int as n from chat_users where chat_id = ?', [chat.id]))[0].n).toBe(0);
    expect(existsSync(file)).toBe(false);
  });
});

describe('messages', () => {
  it('are written by participants only: an outsider gets 403, another company 404, blank text 400; nothing is stored', async () => {
    const chat = await makeChat(a.admin.token, [a.agent.id]);
    expectError(await t.api.post(`/chats/${chat.id}/messages`, { message: 'sneaky' }, carol.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.post(`/chats/${chat.id}/messages`, { message: 'sneaky' }, b.admin.token), 404, 'ERR_NO_CHAT_FOUND');
    expectInvalidExactly(await t.api.post(`/chats/${chat.id}/messages`, { message: '   ' }, a.agent.token), 'message');
    expectInvalidExactly(await t.api.post(`/chats/${chat.id}/messages`, {}, a.agent.token), 'message');
    expectInvalidExactly(await t.api.post(`/chats/${chat.id}/messages`, { message: 42 }, a.agent.token), 'message');
    expect((await sql('select count(*)::int as n from chat_messages where chat_id = ?', [chat.id]))[0].n).toBe(0);
    expectError(await t.api.get(`/chats/${chat.id}/messages`, carol.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.get(`/chats/${chat.id}/messages`, b.admin.token), 404, 'ERR_NO_CHAT_FOUND');
  });

  it("store the sender, set the chat's last message and count unreads for everyone else", async () => {
    const chat = await makeChat(a.admin.token, [a.agent.id, carol.id]);
    const msg = await say(chat.id, a.agent.token, '  Can you take the next customer?  ');
    expect(msg).toMatchObject({ chatId: chat.id, message: 'Can you take the next customer?', senderId: a.agent.id, sender: { id: a.agent.id }, mediaUrl: null });
    const shown = (await t.api.get(`/chats/${chat.id}`, a.admin.token)).body;
    expect(shown.lastMessage).toBe(`${msg.sender.name}: Can you take the next customer?`);
    expect(await unreadsOf(chat.id, a.admin.token)).toEqual({ [a.admin.id]: 1, [a.agent.id]: 0, [carol.id]: 1 });
    await say(chat.id, a.admin.token, 'Sure');
    expect(await unreadsOf(chat.id, a.admin.token)).toEqual({ [a.admin.id]: 0, [a.agent.id]: 1, [carol.id]: 2 });
  });

  it('count unreads exactly under concurrent sends (one UPDATE each, no read-modify-write)', async () => {
    const chat = await makeChat(a.admin.token, [a.agent.id, carol.id]);
    await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => say(chat.id, a.agent.token, `agent ${i}`)),
      ...Array.from({ length: 8 }, (_, i) => say(chat.id, a.admin.token, `admin ${i}`)),
    ]);
    const unreads = await unreadsOf(chat.id, carol.token);
    expect(unreads[carol.id]).toBe(20);
    // Whoever spoke last read everything before; the other has at most what came after their own last message.
    expect(unreads[a.agent.id] + unreads[a.admin.id]).toBeLessThanOrEqual(20);
  });

  it('page newest first: 20 per page, each page oldest first, with count and hasMore', async () => {
    const chat = await makeChat(a.admin.token, [a.agent.id]);
    for (let i = 0; i < 25; i++) await say(chat.id, i % 2 ? a.admin.token : a.agent.token, `m${String(i).padStart(2, '0')}`);
    const first = await t.api.get(`/chats/${chat.id}/messages`, a.agent.token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ count: 25, hasMore: true });
    expect(first.body.records.map((m: { message: string }) => m.message)).toEqual(Array.from({ length: 20 }, (_, i) => `m${String(i + 5).padStart(2, '0')}`));
    const second = await t.api.get(`/chats/${chat.uuid}/messages?pageNumber=2`, a.agent.token);
    expect(second.body).toMatchObject({ count: 25, hasMore: false });
    expect(second.body.records.map((m: { message: string }) => m.message)).toEqual(['m00', 'm01', 'm02', 'm03', 'm04']);
    expectInvalidExactly(await t.api.get(`/chats/${chat.id}/messages?pageNumber=0`, a.agent.token), 'pageNumber');
  });

  it('carry attachments stored like ticket media: random name, signed URL, type checked', async () => {
    const chat = await makeChat(a.admin.token, [a.agent.id]);
    const res = await sendFile(chat.id, a.agent.token, { data: PNG, name: '../../../etc/evil name.png', type: 'image/png' }, 'see this');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ message: 'see this', mediaType: 'image/png', mediaName: 'evil name.png' });
    expect(res.body.mediaUrl).toMatch(new RegExp(`^/media/${a.companyId}/[A-Za-z0-9_-]+\\.png\\?expires=\\d+&signature=`));
    const served = await fetch(t.app.url + res.body.mediaUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    // Only the random name reached the disk.
    expect(readdirSync(path.join(t.app.config.dataDir, 'media', String(a.companyId))).some((f) => f.includes('evil'))).toBe(false);

    // A file alone is a message; its name stands for the text in the chat's last message.
    const alone = await sendFile(chat.uuid, a.admin.token, { data: PNG, name: 'alone.png', type: 'image/png' });
    expect(alone.status, JSON.stringify(alone.body)).toBe(201);
    expect((await t.api.get(`/chats/${chat.id}`, a.admin.token)).body.lastMessage).toMatch(/: alone\.png$/);

    const before = (await sql('select count(*)::int as n from chat_messages where chat_id = ?', [chat.id]))[0].n;
    expectError(await sendFile(chat.id, a.agent.token, { data: Buffer.from('MZ'), name: 'tool.exe', type: 'application/x-msdownload' }), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    // Ticket media's size limit: one byte over is refused before anything is stored.
    expectError(
      await sendFile(chat.id, a.agent.token, { data: Buffer.alloc(CHAT_MEDIA_MAX_BYTES + 1), name: 'huge.png', type: 'image/png' }),
      413,
      'ERR_PAYLOAD_TOO_LARGE',
    );
    expectError(await sendFile(chat.id, carol.token, { data: PNG, name: 'x.png', type: 'image/png' }), 403, 'ERR_NO_PERMISSION');
    expectError(await sendFile(chat.id, b.admin.token, { data: PNG, name: 'x.png', type: 'image/png' }), 404, 'ERR_NO_CHAT_FOUND');
    expect((await sql('select count(*)::int as n from chat_messages where chat_id = ?', [chat.id]))[0].n).toBe(before);
  });
});

describe('POST /chats/{id}/read', () => {
  it("clears the caller's counter only, whatever userId the body names", async () => {
    const chat = await makeChat(a.admin.token, [a.agent.id, carol.id]);
    await say(chat.id, a.admin.token, 'hello');
    await say(chat.id, a.admin.token, 'anyone?');
    const res = await t.api.post(`/chats/${chat.id}/read`, { userId: carol.id }, a.agent.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toBe(chat.id);
    expect(await unreadsOf(chat.id, a.admin.token)).toEqual({ [a.admin.id]: 0, [a.agent.id]: 0, [carol.id]: 2 });
    expectError(await t.api.post(`/chats/${chat.id}/read`, {}, b.admin.token), 404, 'ERR_NO_CHAT_FOUND');
  });

  it('is refused to a non-participant', async () => {
    const chat = await makeChat(a.admin.token, [a.agent.id]);
    expectError(await t.api.post(`/chats/${chat.id}/read`, {}, carol.token), 403, 'ERR_NO_PERMISSION');
  });
});

describe('realtime', () => {
  const chatEvent = (companyId: number) => `company-${companyId}-chat`;

  it("sends a new message to the chat's participants only, not to a colleague of another chat nor another company", async () => {
    const [admin, agent, colleague, outsider] = await Promise.all([socketOf(a.admin.token), socketOf(a.agent.token), socketOf(carol.token), socketOf(b.admin.token)]);
    const chat = await makeChat(a.admin.token, [a.agent.id]);
    // Carol takes part in another chat of the same company: her sentinel.
    const carolsChat = await makeChat(a.admin.token, [carol.id]);
    const event = chatEvent(a.companyId);
    const perChat = `${event}-${chat.id}`;

    const colleagueHears = watch(colleague, [event, perChat]);
    const outsiderHears = watch(outsider, [event, perChat, chatEvent(b.companyId)]);
    const agentHears = nextEvent(agent, event);
    const agentHearsPerChat = nextEvent(agent, perChat);
    const adminHears = nextEvent(admin, event);
    const msg = await say(chat.id, a.admin.token, 'just between us');

    for (const heard of [await agentHears, await adminHears, await agentHearsPerChat]) {
      expect(heard).toMatchObject({ action: 'new-message', newMessage: { id: msg.id, message: 'just between us' }, chat: { id: chat.id } });
    }
    expect((await agentHears).chat.users.find((u: { userId: number }) => u.userId === a.agent.id).unreads).toBe(1);

    await say(carolsChat.id, a.admin.token, 'for carol');
    expect(await colleagueHears.before(event, (p) => p.chat?.id === carolsChat.id)).toEqual([]);
    // B's sentinel: B's own chat.
    const bChat = await makeChat(b.admin.token, [b.agent.id]);
    expect(await outsiderHears.before(chatEvent(b.companyId), (p) => p.chat?.id === bChat.id || p.record?.id === bChat.id)).toEqual([]);
  });

  it('announces create, read, participant changes and delete to the participants only', async () => {
    const [admin, agent, colleague] = await Promise.all([socketOf(a.admin.token), socketOf(a.agent.token), socketOf(carol.token)]);
    const event = chatEvent(a.companyId);

    const colleagueHears = watch(colleague, event);
    const agentCreate = nextEvent(agent, event);
    const agentCreateLegacy = nextEvent(agent, `${event}-user-${a.agent.id}`);
    const chat = await makeChat(a.admin.token, [a.agent.id]);
    expect(await agentCreate).toMatchObject({ action: 'create', record: { id: chat.id } });
    expect(await agentCreateLegacy).toMatchObject({ action: 'create', record: { id: chat.id } });

    await say(chat.id, a.admin.token, 'ping');
    const adminRead = nextEvent(admin, event);
    await t.api.post(`/chats/${chat.id}/read`, {}, a.agent.token);
    const read = await adminRead;
    expect(read).toMatchObject({ action: 'update', chat: { id: chat.id } });
    expect(read.chat.users.find((u: { userId: number }) => u.userId === a.agent.id).unreads).toBe(0);

    // Carol is added: she hears it; then the sentinel shows she heard nothing of the chat before.
    const carolAdded = nextEvent(colleague, event);
    await t.api.put(`/chats/${chat.id}`, { users: [{ id: a.agent.id }, { id: carol.id }] }, a.admin.token);
    const added = await carolAdded;
    expect(added).toMatchObject({ action: 'update', record: { id: chat.id } });
    expect(await colleagueHears.before(event, (p) => p.record?.id === chat.id && p.action === 'update')).toEqual([]);

    // The agent is removed: told to drop the chat, and no longer sent its updates.
    const agentRemoved = nextEvent(agent, event);
    await t.api.put(`/chats/${chat.id}`, { users: [{ id: carol.id }] }, a.admin.token);
    expect(await agentRemoved).toEqual({ action: 'delete', id: chat.id });

    const carolDeleted = nextEvent(colleague, event);
    await t.api.del(`/chats/${chat.id}`, a.admin.token);
    expect(await carolDeleted).toEqual({ action: 'delete', id: chat.id });
  });
});
