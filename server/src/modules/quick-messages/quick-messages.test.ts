import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { expectError, expectInvalid } from '../../../testing/expect.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;
/** A second agent of company A. */
let other: { id: number; token: string };
const sockets: Socket[] = [];

const uid = () => randomBytes(4).toString('hex');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const make = async (token: string, body: Record<string, unknown> = {}) => {
  const res = await t.api.post('/quick-messages', { shortcode: `qm-${uid()}`, message: 'Hello there', ...body }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
/** The stored record, read as company A's admin. */
const read = async (id: number, token = a.admin.token) => {
  const res = await t.api.get(`/quick-messages/${id}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const listIds = async (token: string) => ((await t.api.get('/quick-messages/list', token)).body as any[]).map((q) => q.id);

const uploadMedia = async (id: number, token: string, file: { data: Buffer; name: string; type: string }, typeArch?: string) => {
  const form = new FormData();
  if (typeArch) form.append('typeArch', typeArch);
  form.append('file', new Blob([file.data], { type: file.type }), file.name);
  const res = await fetch(`${t.app.url}/quick-messages/${id}/media-upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: await res.json(), headers: res.headers } as ApiResponse;
};
const storedFile = (companyId: number, name: string) => path.join(t.app.config.dataDir, 'media', String(companyId), name);

const socketOf = async (token: string) => {
  const socket = await connectSocket(t.app.url, token);
  sockets.push(socket);
  return socket;
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'QuickA');
  b = await createTenant(t, 'QuickB');
  const email = `other-${uid()}@example.com`;
  const created = await t.api.post('/users', { name: 'Other Agent', email, password: 'Passw0rd-x', profile: 'user' }, a.admin.token);
  expect(created.status).toBe(201);
  other = { id: created.body.id, token: (await t.api.login(email, 'Passw0rd-x')).token };
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('authentication', () => {
  it.each([
    ['GET', '/quick-messages'],
    ['GET', '/quick-messages/list'],
    ['GET', '/quick-messages/1'],
    ['POST', '/quick-messages'],
    ['PUT', '/quick-messages/1'],
    ['DELETE', '/quick-messages/1'],
    ['POST', '/quick-messages/1/media-upload'],
    ['DELETE', '/quick-messages/1/media-upload'],
  ])('%s %s answers 401 without a token', async (method, url) => {
    expectError(await t.api.request(method, url, { body: method === 'GET' ? undefined : {} }), 401, 'ERR_SESSION_EXPIRED');
  });
});

describe('POST /quick-messages', () => {
  it("creates the caller's own, active, private quick message", async () => {
    const res = await t.api.post('/quick-messages', { shortcode: ' greet ', message: 'Olá, {{name}}!' }, a.agent.token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      shortcode: 'greet',
      message: 'Olá, {{name}}!',
      geral: false,
      status: true,
      isMedia: false,
      mediaPath: null,
      mediaName: null,
      mediaUrl: null,
      userId: a.agent.id,
      companyId: a.companyId,
    });
    expect(await read(res.body.id, a.agent.token)).toEqual(res.body);
  });

  it('lets admins share one with the whole company (geral)', async () => {
    const res = await make(a.admin.token, { geral: true });
    expect(res).toMatchObject({ geral: true, userId: a.admin.id });
  });

  it('refuses geral from an agent and creates nothing', async () => {
    const shortcode = `agent-geral-${uid()}`;
    expectError(await t.api.post('/quick-messages', { shortcode, message: 'x', geral: true }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    const all = (await t.api.get(`/quick-messages?searchParam=${shortcode}`, a.agent.token)).body;
    expect(all.count).toBe(0);
  });

  it('lists every failing field', async () => {
    expectInvalid(await t.api.post('/quick-messages', {}, a.agent.token), 'shortcode', 'message');
    expectInvalid(await t.api.post('/quick-messages', { shortcode: '   ', message: '' }, a.agent.token), 'shortcode', 'message');
    expectInvalid(await t.api.post('/quick-messages', { shortcode: 'x'.repeat(101), message: 'ok', geral: 'maybe' }, a.agent.token), 'shortcode', 'geral');
  });
});

describe('GET /quick-messages and /quick-messages/list', () => {
  it("shows the caller's own plus the company's shared active ones, never others' private ones", async () => {
    // A company of its own: its first page must hold all it asserts on, and other tests add quick messages.
    const own = await createTenant(t, 'QuickList');
    const email = `other-${uid()}@example.com`;
    expect((await t.api.post('/users', { name: 'Other Agent', email, password: 'Passw0rd-x', profile: 'user' }, own.admin.token)).status).toBe(201);
    const ownOther = { token: (await t.api.login(email, 'Passw0rd-x')).token };
    const mine = await make(own.agent.token);
    const othersPrivate = await make(ownOther.token);
    const shared = await make(own.admin.token, { geral: true });
    const sharedInactive = await make(own.admin.token, { geral: true, status: false });
    const myInactive = await make(own.agent.token, { status: false });
    const adminPrivate = await make(own.admin.token);
    const pageIds = async (token: string) =>
      ((await t.api.get('/quick-messages?pageNumber=1', token)).body.records as any[]).map((q) => q.id);

    // The page: the agent's own (switched off too) and the shared active ones.
    const agentPage = await pageIds(own.agent.token);
    expect(agentPage).toEqual(expect.arrayContaining([mine.id, shared.id, myInactive.id]));
    for (const hidden of [othersPrivate.id, sharedInactive.id, adminPrivate.id]) expect(agentPage).not.toContain(hidden);
    // The suggestions: active ones only.
    const agentIds = await listIds(own.agent.token);
    expect(agentIds.sort()).toEqual(agentPage.filter((id) => id !== myInactive.id).sort());

    // Admins manage the shared ones, switched off or not, by whoever made them; never an agent's private ones.
    const secondAdmin = await t.api.post('/users', { name: 'Second Admin', email: `admin2-${uid()}@example.com`, password: 'Passw0rd-x', profile: 'admin' }, own.admin.token);
    const admin2 = (await t.api.login(secondAdmin.body.email, 'Passw0rd-x')).token;
    const admin2Page = await pageIds(admin2);
    expect(admin2Page).toEqual(expect.arrayContaining([shared.id, sharedInactive.id]));
    for (const hidden of [mine.id, myInactive.id, adminPrivate.id]) expect(admin2Page).not.toContain(hidden);
    const admin2List = await listIds(admin2);
    expect(admin2List).toContain(shared.id);
    expect(admin2List).not.toContain(sharedInactive.id);

    // Switched on again, it is offered to everyone.
    await t.api.put(`/quick-messages/${sharedInactive.id}`, { status: true }, admin2);
    expect(await listIds(own.agent.token)).toContain(sharedInactive.id);

    // Another company sees none of them.
    const bIds = await listIds(b.admin.token);
    for (const id of [mine.id, shared.id, adminPrivate.id]) expect(bIds).not.toContain(id);
  });

  it('pages 20 by shortcode and searches shortcode and text', async () => {
    const marker = uid();
    for (let i = 0; i < 22; i++) await make(other.token, { shortcode: `p${marker}-${String(i).padStart(2, '0')}` });
    const first = await t.api.get(`/quick-messages?searchParam=p${marker}`, other.token);
    expect(first.body).toMatchObject({ count: 22, hasMore: true });
    expect(first.body.records).toHaveLength(20);
    expect(first.body.records[0].shortcode).toBe(`p${marker}-00`);
    const second = await t.api.get(`/quick-messages?searchParam=p${marker}&pageNumber=2`, other.token);
    expect(second.body).toMatchObject({ count: 22, hasMore: false });
    expect(second.body.records.map((q: any) => q.shortcode)).toEqual([`p${marker}-20`, `p${marker}-21`]);
    const byText = await make(other.token, { message: `find me ${marker}` });
    expect((await t.api.get(`/quick-messages?searchParam=me ${marker}`, other.token)).body.records.map((q: any) => q.id)).toEqual([byText.id]);
    // Searching does not widen what one sees.
    expect((await t.api.get(`/quick-messages?searchParam=p${marker}`, a.agent.token)).body.count).toBe(0);
    expectInvalid(await t.api.get('/quick-messages?pageNumber=0', other.token), 'pageNumber');
  });
});

describe('GET /quick-messages/{id}', () => {
  it('is readable by its owner, an admin, or anyone when shared; 403 otherwise, 404 across companies', async () => {
    const priv = await make(a.agent.token);
    const shared = await make(a.admin.token, { geral: true });
    expect((await t.api.get(`/quick-messages/${priv.id}`, a.agent.token)).status).toBe(200);
    expect((await t.api.get(`/quick-messages/${priv.id}`, a.admin.token)).status).toBe(200);
    expectError(await t.api.get(`/quick-messages/${priv.id}`, other.token), 403, 'ERR_NO_PERMISSION');
    expect((await t.api.get(`/quick-messages/${shared.id}`, other.token)).status).toBe(200);
    expectError(await t.api.get(`/quick-messages/${shared.id}`, b.admin.token), 404, 'ERR_NO_QUICK_MESSAGE_FOUND');
    expectError(await t.api.get('/quick-messages/999999', a.admin.token), 404, 'ERR_NO_QUICK_MESSAGE_FOUND');
  });
});

describe('PUT /quick-messages/{id}', () => {
  it('lets the owner change what is sent', async () => {
    const q = await make(a.agent.token);
    const res = await t.api.put(`/quick-messages/${q.id}`, { message: 'Changed', status: false }, a.agent.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ shortcode: q.shortcode, message: 'Changed', status: false, userId: a.agent.id });
    expect(await read(q.id)).toEqual(res.body);
  });

  it('lets an admin edit without taking it over, and share it', async () => {
    const q = await make(a.agent.token);
    const res = await t.api.put(`/quick-messages/${q.id}`, { shortcode: 'by-admin', geral: true }, a.admin.token);
    expect(res.body).toMatchObject({ shortcode: 'by-admin', geral: true, userId: a.agent.id });
    expect(await listIds(other.token)).toContain(q.id);
  });

  it("refuses another agent's edit and an agent sharing their own, changing nothing", async () => {
    const q = await make(a.agent.token);
    expectError(await t.api.put(`/quick-messages/${q.id}`, { message: 'Hijack' }, other.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.put(`/quick-messages/${q.id}`, { message: 'Share', geral: true }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expect(await read(q.id)).toMatchObject({ message: q.message, geral: false });
    // Even a shared one is only the owner's (or an admin's) to change.
    const shared = await make(a.admin.token, { geral: true });
    expectError(await t.api.put(`/quick-messages/${shared.id}`, { message: 'Mine now' }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expect((await read(shared.id)).message).toBe(shared.message);
  });

  it('lists invalid fields and changes nothing', async () => {
    const q = await make(a.agent.token);
    expectInvalid(await t.api.put(`/quick-messages/${q.id}`, { shortcode: '', message: '' }, a.agent.token), 'shortcode', 'message');
    expect(await read(q.id)).toMatchObject({ shortcode: q.shortcode, message: q.message });
  });

  it("cannot reach another company's quick message", async () => {
    const q = await make(a.admin.token, { geral: true });
    expectError(await t.api.put(`/quick-messages/${q.id}`, { message: 'cross' }, b.admin.token), 404, 'ERR_NO_QUICK_MESSAGE_FOUND');
    expect((await read(q.id)).message).toBe(q.message);
  });
});

describe('DELETE /quick-messages/{id}', () => {
  it('lets the owner or an admin delete; others get 403 and nothing changes', async () => {
    const q1 = await make(a.agent.token);
    expectError(await t.api.del(`/quick-messages/${q1.id}`, other.token), 403, 'ERR_NO_PERMISSION');
    await read(q1.id);
    expect((await t.api.del(`/quick-messages/${q1.id}`, a.agent.token)).status).toBe(200);
    expectError(await t.api.get(`/quick-messages/${q1.id}`, a.admin.token), 404, 'ERR_NO_QUICK_MESSAGE_FOUND');
    const q2 = await make(a.agent.token);
    expect((await t.api.del(`/quick-messages/${q2.id}`, a.admin.token)).status).toBe(200);
    expectError(await t.api.get(`/quick-messages/${q2.id}`, a.admin.token), 404, 'ERR_NO_QUICK_MESSAGE_FOUND');
  });

  it("cannot delete another company's quick message", async () => {
    const q = await make(a.admin.token, { geral: true });
    expectError(await t.api.del(`/quick-messages/${q.id}`, b.admin.token), 404, 'ERR_NO_QUICK_MESSAGE_FOUND');
    await read(q.id);
  });
});

describe('media', () => {
  it('stores an attachment under a random name and answers a signed URL', async () => {
    const q = await make(a.agent.token);
    const res = await uploadMedia(q.id, a.agent.token, { data: PNG, name: '../../etc/logo.png', type: 'image/png' }, 'image');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: q.id, isMedia: true, mediaName: 'logo.png' });
    expect(res.body.mediaPath).toMatch(/^[A-Za-z0-9_-]{10,64}\.png$/);
    expect(res.body.mediaUrl).toMatch(new RegExp(`^/media/${a.companyId}/${res.body.mediaPath}\\?expires=\\d+&signature=`));
    const file = await fetch(t.app.url + res.body.mediaUrl);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
    // Without the signature there is nothing to see.
    expect((await fetch(`${t.app.url}/media/${a.companyId}/${res.body.mediaPath}`)).status).toBe(400);
    expect((await read(q.id)).mediaPath).toBe(res.body.mediaPath);
  });

  it('replaces an earlier attachment and removes its file; accepts documents, audio and video', async () => {
    const q = await make(a.agent.token);
    const first = await uploadMedia(q.id, a.agent.token, { data: PNG, name: 'one.png', type: 'image/png' });
    const second = await uploadMedia(q.id, a.agent.token, { data: Buffer.from('%PDF-1.4 test'), name: 'price list.pdf', type: 'application/pdf' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ mediaName: 'price list.pdf' });
    expect(second.body.mediaPath).not.toBe(first.body.mediaPath);
    expect(existsSync(storedFile(a.companyId, first.body.mediaPath))).toBe(false);
    expect(existsSync(storedFile(a.companyId, second.body.mediaPath))).toBe(true);
    for (const [name, type] of [
      ['voice.ogg', 'audio/ogg'],
      ['clip.mp4', 'video/mp4'],
      ['terms.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ]) {
      expect((await uploadMedia(q.id, a.agent.token, { data: Buffer.from('x'), name, type })).status).toBe(200);
    }
  });

  it('refuses other types (415), files over 16 MB (413) and a missing file (400), changing nothing', async () => {
    const q = await make(a.agent.token);
    expectError(await uploadMedia(q.id, a.agent.token, { data: Buffer.from('MZ'), name: 'tool.exe', type: 'application/x-msdownload' }), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    const big = Buffer.alloc(16 * 1024 * 1024 + 1, 0);
    expectError(await uploadMedia(q.id, a.agent.token, { data: big, name: 'big.mp4', type: 'video/mp4' }), 413, 'ERR_PAYLOAD_TOO_LARGE');
    const form = new FormData();
    form.append('typeArch', 'image');
    const none = await fetch(`${t.app.url}/quick-messages/${q.id}/media-upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${a.agent.token}` } });
    expect(none.status).toBe(400);
    expect(((await none.json()) as any).fields.map((f: any) => f.path)).toEqual(['file']);
    expectError(await t.api.post(`/quick-messages/${q.id}/media-upload`, { file: 'x' }, a.agent.token), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    expect((await read(q.id)).isMedia).toBe(false);
  });

  it("refuses another agent (403) and another company (404), changing nothing", async () => {
    const q = await make(a.agent.token, { geral: false });
    expectError(await uploadMedia(q.id, other.token, { data: PNG, name: 'x.png', type: 'image/png' }), 403, 'ERR_NO_PERMISSION');
    expectError(await uploadMedia(q.id, b.admin.token, { data: PNG, name: 'x.png', type: 'image/png' }), 404, 'ERR_NO_QUICK_MESSAGE_FOUND');
    expect((await read(q.id)).isMedia).toBe(false);
    const withMedia = await uploadMedia(q.id, a.agent.token, { data: PNG, name: 'x.png', type: 'image/png' });
    expectError(await t.api.del(`/quick-messages/${q.id}/media-upload`, other.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.del(`/quick-messages/${q.id}/media-upload`, b.admin.token), 404, 'ERR_NO_QUICK_MESSAGE_FOUND');
    expect((await read(q.id)).mediaPath).toBe(withMedia.body.mediaPath);
  });

  it('removes the attachment (DELETE media-upload) and the file with the quick message', async () => {
    const q = await make(a.agent.token);
    const one = await uploadMedia(q.id, a.agent.token, { data: PNG, name: 'one.png', type: 'image/png' });
    const res = await t.api.del(`/quick-messages/${q.id}/media-upload`, a.agent.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isMedia: false, mediaPath: null, mediaName: null, mediaUrl: null });
    expect(existsSync(storedFile(a.companyId, one.body.mediaPath))).toBe(false);
    const two = await uploadMedia(q.id, a.agent.token, { data: PNG, name: 'two.png', type: 'image/png' });
    expect(existsSync(storedFile(a.companyId, two.body.mediaPath))).toBe(true);
    await t.api.del(`/quick-messages/${q.id}`, a.agent.token);
    expect(existsSync(storedFile(a.companyId, two.body.mediaPath))).toBe(false);
  });
});

describe('realtime', () => {
  it('sends a private quick message to its owner only and a shared one to the company', async () => {
    const owner = await socketOf(a.agent.token);
    const colleague = await socketOf(other.token);
    const outsider = await socketOf(b.admin.token);
    const event = `company-${a.companyId}-quickmessage`;

    const ownerHears = nextEvent(owner, event);
    const colleagueHears = watch(colleague, event);
    const priv = await make(a.agent.token);
    expect(await ownerHears).toMatchObject({ action: 'create', record: { id: priv.id, userId: a.agent.id } });

    const both = [nextEvent(owner, event), nextEvent(colleague, event)];
    const outsiderHears = watch(outsider, event);
    const shared = await make(a.admin.token, { geral: true });
    for (const heard of await Promise.all(both)) expect(heard).toMatchObject({ action: 'create', record: { id: shared.id, geral: true } });
    // The shared one goes out through the same listener after the private one: the colleague's sentinel.
    expect(await colleagueHears.before(event, (p) => p.record?.id === shared.id)).toEqual([]);
    // B's sentinel: B's admin saves their agent, unchanged; company-{B}-user is sent while that request runs.
    expect((await t.api.put(`/users/${b.agent.id}`, {}, b.admin.token)).status).toBe(200);
    expect(await outsiderHears.before(`company-${b.companyId}-user`)).toEqual([]);

    // Unsharing tells the company to drop it.
    const dropped = nextEvent(colleague, event);
    await t.api.put(`/quick-messages/${shared.id}`, { geral: false }, a.admin.token);
    expect(await dropped).toEqual({ action: 'delete', id: shared.id });

    const deleted = nextEvent(owner, event);
    await t.api.del(`/quick-messages/${priv.id}`, a.agent.token);
    expect(await deleted).toEqual({ action: 'delete', id: priv.id });
  });
});
