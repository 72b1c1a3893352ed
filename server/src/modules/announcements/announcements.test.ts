import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
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
import { expectError, expectInvalid } from '../../../testing/expect.js';
import { User } from '../users/user.entity.js';

const EVENT = 'company-announcement';

let t: TestApp;
let a: Tenant;
let b: Tenant;
/** The seeded super user's company: the author's company of what they post. */
let superCompanyId: number;
/** A second super user, in company B. */
let superB: { token: string };
const sockets: Socket[] = [];

const uid = () => randomBytes(4).toString('hex');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');

const make = async (body: Record<string, unknown> = {}, token = t.superToken) => {
  const res = await t.api.post('/announcements', { title: `Notice ${uid()}`, text: 'Maintenance tonight', ...body }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const read = async (id: number, token = t.superToken) => {
  const res = await t.api.get(`/announcements/${id}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const pageIds = async (token: string, query = '') =>
  ((await t.api.get(`/announcements${query}`, token)).body.records as any[]).map((r) => r.id);
const bellIds = async (token: string) => ((await t.api.get('/announcements/list', token)).body as any[]).map((r) => r.id);

const uploadMedia = async (id: number, token: string, file: { data: Buffer; name: string; type: string }) => {
  const form = new FormData();
  form.append('file', new Blob([file.data], { type: file.type }), file.name);
  const res = await fetch(`${t.app.url}/announcements/${id}/media-upload`, {
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
  a = await createTenant(t, 'AnnA');
  b = await createTenant(t, 'AnnB');
  // Not a second login: one session per user, so that would end t.superToken's.
  superCompanyId = (await t.api.get('/auth/me', t.superToken)).body.companyId;
  // Super users are made by the platform's operators, not through the API.
  await forSystem(t.app.orm.em).nativeUpdate(User, { id: b.admin.id }, { super: true });
  superB = { token: (await t.api.login(b.admin.email, b.admin.password)).token };
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('authentication', () => {
  it.each([
    ['GET', '/announcements'],
    ['GET', '/announcements/list'],
    ['GET', '/announcements/1'],
    ['POST', '/announcements'],
    ['PUT', '/announcements/1'],
    ['DELETE', '/announcements/1'],
    ['POST', '/announcements/1/media-upload'],
    ['DELETE', '/announcements/1/media-upload'],
  ])('%s %s answers 401 without a token', async (method, url) => {
    expectError(await t.api.request(method, url, { body: method === 'GET' ? undefined : {} }), 401, 'ERR_SESSION_EXPIRED');
  });
});

describe('POST /announcements', () => {
  it("creates an active, low-priority announcement by default, owned by the author's company", async () => {
    const res = await t.api.post('/announcements', { title: '  New release ', text: 'Version 8.0.1 is out' }, t.superToken);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      title: 'New release',
      text: 'Version 8.0.1 is out',
      priority: 3,
      status: true,
      mediaPath: null,
      mediaName: null,
      mediaUrl: null,
      companyId: superCompanyId,
    });
    expect(await read(res.body.id, a.agent.token)).toEqual(res.body);
  });

  it('keeps the priority and status sent, numbers and booleans as form strings included', async () => {
    expect(await make({ priority: 1, status: false })).toMatchObject({ priority: 1, status: false });
    expect(await make({ priority: '2', status: 'true' })).toMatchObject({ priority: 2, status: true });
  });

  it('refuses admins and agents with ERR_NO_SUPER and creates nothing', async () => {
    const title = `not-super-${uid()}`;
    for (const token of [a.admin.token, a.agent.token]) {
      expectError(await t.api.post('/announcements', { title, text: 'x' }, token), 403, 'ERR_NO_SUPER');
    }
    expect((await t.api.get(`/announcements?searchParam=${title}`, t.superToken)).body.count).toBe(0);
  });

  it('requires title and text and checks priority 1-3 and status, listing every failing field', async () => {
    expectInvalid(await t.api.post('/announcements', {}, t.superToken), 'title', 'text');
    expectInvalid(await t.api.post('/announcements', { title: '   ', text: '  ' }, t.superToken), 'title', 'text');
    for (const priority of [0, 4, 1.5, 'high', true]) {
      expectInvalid(await t.api.post('/announcements', { title: 'ok', text: 'ok', priority }, t.superToken), 'priority');
    }
    expectInvalid(await t.api.post('/announcements', { title: 'x'.repeat(201), text: 'ok', status: 'maybe' }, t.superToken), 'title', 'status');
  });
});

describe('GET /announcements and /announcements/list', () => {
  it('shows every company the active ones, newest first; only super users see inactive ones', async () => {
    const marker = uid();
    const older = await make({ title: `list ${marker} older` });
    const inactive = await make({ title: `list ${marker} inactive`, status: false });
    const newer = await make({ title: `list ${marker} newer`, priority: 1 });

    for (const token of [a.agent.token, a.admin.token, b.agent.token]) {
      expect(await pageIds(token, `?searchParam=${marker}`)).toEqual([newer.id, older.id]);
      const bell = await bellIds(token);
      expect(bell.indexOf(newer.id)).toBeLessThan(bell.indexOf(older.id));
      expect(bell).toContain(older.id);
      expect(bell).not.toContain(inactive.id);
    }
    expect(await pageIds(t.superToken, `?searchParam=${marker}`)).toEqual([newer.id, inactive.id, older.id]);
    expect(await pageIds(superB.token, `?searchParam=${marker}`)).toEqual([newer.id, inactive.id, older.id]);
    // The bell is for active ones, whoever asks.
    expect(await bellIds(t.superToken)).not.toContain(inactive.id);
  });

  it('pages 20 at a time with count and hasMore, searching title and text', async () => {
    const marker = uid();
    for (let i = 0; i < 22; i++) await make({ title: `page ${marker} ${i}` });
    const first = await t.api.get(`/announcements?searchParam=page ${marker}`, a.agent.token);
    expect(first.body).toMatchObject({ count: 22, hasMore: true });
    expect(first.body.records).toHaveLength(20);
    expect(first.body.records[0].title).toBe(`page ${marker} 21`);
    const second = await t.api.get(`/announcements?searchParam=page ${marker}&pageNumber=2`, a.agent.token);
    expect(second.body).toMatchObject({ count: 22, hasMore: false });
    expect(second.body.records.map((r: any) => r.title)).toEqual([`page ${marker} 1`, `page ${marker} 0`]);
    const byText = await make({ text: `only in the text ${marker}` });
    expect(await pageIds(a.agent.token, `?searchParam=text ${marker}`)).toEqual([byText.id]);
    // % and _ are plain characters.
    expect((await t.api.get(`/announcements?searchParam=${encodeURIComponent('%_%')}`, a.agent.token)).body.count).toBe(0);
    expectInvalid(await t.api.get('/announcements?pageNumber=0', a.agent.token), 'pageNumber');
  });
});

describe('GET /announcements/{id}', () => {
  it('gives anyone an active one; an inactive one only to super users (404 otherwise)', async () => {
    const active = await make();
    const inactive = await make({ status: false });
    expect((await read(active.id, b.agent.token)).id).toBe(active.id);
    expectError(await t.api.get(`/announcements/${inactive.id}`, a.admin.token), 404, 'ERR_NO_ANNOUNCEMENT_FOUND');
    expectError(await t.api.get(`/announcements/${inactive.id}`, b.agent.token), 404, 'ERR_NO_ANNOUNCEMENT_FOUND');
    expect((await read(inactive.id, t.superToken)).status).toBe(false);
    expectError(await t.api.get('/announcements/999999', t.superToken), 404, 'ERR_NO_ANNOUNCEMENT_FOUND');
    expectInvalid(await t.api.get('/announcements/abc', t.superToken), 'id');
  });
});

describe('PUT /announcements/{id}', () => {
  it('changes only the fields sent, and can switch an announcement back on', async () => {
    const r = await make({ priority: 2, status: false });
    const res = await t.api.put(`/announcements/${r.id}`, { status: true }, t.superToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ title: r.title, text: r.text, priority: 2, status: true });
    expect(await read(r.id, a.agent.token)).toMatchObject({ status: true });
    const again = await t.api.put(`/announcements/${r.id}`, { title: 'Renamed', priority: 1 }, t.superToken);
    expect(again.body).toMatchObject({ title: 'Renamed', text: r.text, priority: 1, status: true });
  });

  it("lets a super user of another company edit it; the author's company stays", async () => {
    const r = await make();
    const res = await t.api.put(`/announcements/${r.id}`, { text: 'Edited elsewhere' }, superB.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ text: 'Edited elsewhere', companyId: superCompanyId });
  });

  it('refuses admins and agents and invalid input, changing nothing', async () => {
    const r = await make();
    for (const token of [a.admin.token, a.agent.token]) {
      expectError(await t.api.put(`/announcements/${r.id}`, { title: 'Hijack' }, token), 403, 'ERR_NO_SUPER');
    }
    expectInvalid(await t.api.put(`/announcements/${r.id}`, { title: '', text: '', priority: 9 }, t.superToken), 'title', 'text', 'priority');
    expect(await read(r.id)).toMatchObject({ title: r.title, text: r.text, priority: 3 });
    expectError(await t.api.put('/announcements/999999', { title: 'x' }, t.superToken), 404, 'ERR_NO_ANNOUNCEMENT_FOUND');
  });
});

describe('DELETE /announcements/{id}', () => {
  it('lets a super user delete; admins and agents get ERR_NO_SUPER and nothing changes', async () => {
    const r = await make();
    for (const token of [a.admin.token, a.agent.token]) {
      expectError(await t.api.del(`/announcements/${r.id}`, token), 403, 'ERR_NO_SUPER');
    }
    await read(r.id);
    expect((await t.api.del(`/announcements/${r.id}`, superB.token)).status).toBe(200);
    expectError(await t.api.get(`/announcements/${r.id}`, t.superToken), 404, 'ERR_NO_ANNOUNCEMENT_FOUND');
    expectError(await t.api.del(`/announcements/${r.id}`, t.superToken), 404, 'ERR_NO_ANNOUNCEMENT_FOUND');
  });
});

describe('media', () => {
  it("stores a png under the author's company and answers a signed URL any user can open", async () => {
    const r = await make();
    const res = await uploadMedia(r.id, t.superToken, { data: PNG, name: '../../etc/banner.png', type: 'image/png' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: r.id, mediaName: 'banner.png', companyId: superCompanyId });
    expect(res.body.mediaPath).toMatch(/^[A-Za-z0-9_-]{10,64}\.png$/);
    expect(existsSync(storedFile(superCompanyId, res.body.mediaPath))).toBe(true);
    // An agent of another company reads it with the URL their own answer carries.
    const seen = await read(r.id, b.agent.token);
    expect(seen.mediaUrl).toMatch(new RegExp(`^/media/${superCompanyId}/${res.body.mediaPath}\\?expires=\\d+&signature=`));
    const file = await fetch(t.app.url + seen.mediaUrl);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
    expect((await fetch(`${t.app.url}/media/${superCompanyId}/${res.body.mediaPath}`)).status).toBe(400);
  });

  it('accepts jpg and jpeg, replacing the earlier file; a super user of another company stores it under the author', async () => {
    const r = await make();
    const first = await uploadMedia(r.id, t.superToken, { data: JPEG, name: 'photo.jpg', type: 'image/jpeg' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await uploadMedia(r.id, superB.token, { data: JPEG, name: 'photo.jpeg', type: 'image/jpeg' });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ mediaName: 'photo.jpeg', companyId: superCompanyId });
    expect(existsSync(storedFile(superCompanyId, first.body.mediaPath))).toBe(false);
    expect(existsSync(storedFile(superCompanyId, second.body.mediaPath))).toBe(true);
    expect(existsSync(storedFile(b.companyId, second.body.mediaPath))).toBe(false);
  });

  it('refuses other types, a misnamed or fake image (415), files over 5 MB (413) and a missing file (400), changing nothing', async () => {
    const r = await make();
    const refused = [
      { data: Buffer.from('GIF89a'), name: 'anim.gif', type: 'image/gif' },
      { data: Buffer.from('%PDF-1.4'), name: 'doc.pdf', type: 'application/pdf' },
      { data: PNG, name: 'banner.gif', type: 'image/png' },
      { data: PNG, name: 'banner', type: 'image/png' },
      { data: Buffer.from('<svg onload="alert(1)"/>'), name: 'fake.png', type: 'image/png' },
      { data: PNG, name: 'swapped.jpg', type: 'image/jpeg' },
    ];
    for (const file of refused) expectError(await uploadMedia(r.id, t.superToken, file), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024, 0)]);
    expectError(await uploadMedia(r.id, t.superToken, { data: big, name: 'big.png', type: 'image/png' }), 413, 'ERR_PAYLOAD_TOO_LARGE');
    expectError(await t.api.post(`/announcements/${r.id}/media-upload`, { file: 'x' }, t.superToken), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    const form = new FormData();
    form.append('note', 'no file');
    const noFile = await fetch(`${t.app.url}/announcements/${r.id}/media-upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${t.superToken}` },
    });
    expect(noFile.status).toBe(400);
    expect(((await noFile.json()) as any).fields.map((f: any) => f.path)).toEqual(['file']);
    expect((await read(r.id)).mediaPath).toBeNull();
  });

  it('refuses admins and agents (ERR_NO_SUPER) and a missing announcement (404)', async () => {
    const r = await make();
    for (const token of [a.admin.token, a.agent.token]) {
      expectError(await uploadMedia(r.id, token, { data: PNG, name: 'x.png', type: 'image/png' }), 403, 'ERR_NO_SUPER');
    }
    expectError(await uploadMedia(999999, t.superToken, { data: PNG, name: 'x.png', type: 'image/png' }), 404, 'ERR_NO_ANNOUNCEMENT_FOUND');
    const withMedia = await uploadMedia(r.id, t.superToken, { data: PNG, name: 'x.png', type: 'image/png' });
    expectError(await t.api.del(`/announcements/${r.id}/media-upload`, a.admin.token), 403, 'ERR_NO_SUPER');
    expectError(await t.api.del('/announcements/999999/media-upload', t.superToken), 404, 'ERR_NO_ANNOUNCEMENT_FOUND');
    expect((await read(r.id)).mediaPath).toBe(withMedia.body.mediaPath);
  });

  it('removes the image (DELETE media-upload), and its file with the announcement', async () => {
    const r = await make();
    const one = await uploadMedia(r.id, t.superToken, { data: PNG, name: 'one.png', type: 'image/png' });
    const res = await t.api.del(`/announcements/${r.id}/media-upload`, t.superToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null });
    expect(existsSync(storedFile(superCompanyId, one.body.mediaPath))).toBe(false);
    const two = await uploadMedia(r.id, t.superToken, { data: PNG, name: 'two.png', type: 'image/png' });
    expect(existsSync(storedFile(superCompanyId, two.body.mediaPath))).toBe(true);
    await t.api.del(`/announcements/${r.id}`, t.superToken);
    expect(existsSync(storedFile(superCompanyId, two.body.mediaPath))).toBe(false);
  });
});

describe('realtime', () => {
  it('broadcasts create, update, media and delete as company-announcement to the sockets of every company', async () => {
    const agentB = await socketOf(b.agent.token);
    const adminA = await socketOf(a.admin.token);

    const created = [nextEvent(agentB, EVENT), nextEvent(adminA, EVENT)];
    const r = await make({ title: 'Live one', priority: 1 });
    for (const heard of await Promise.all(created)) {
      expect(heard).toMatchObject({ action: 'create', record: { id: r.id, title: 'Live one', text: r.text, priority: 1, status: true } });
    }

    const updated = nextEvent(agentB, EVENT);
    await t.api.put(`/announcements/${r.id}`, { title: 'Live two' }, t.superToken);
    expect(await updated).toMatchObject({ action: 'update', record: { id: r.id, title: 'Live two' } });

    const media = nextEvent(agentB, EVENT);
    const upload = await uploadMedia(r.id, t.superToken, { data: PNG, name: 'live.png', type: 'image/png' });
    expect(await media).toMatchObject({ action: 'update', record: { id: r.id, mediaPath: upload.body.mediaPath, mediaName: 'live.png' } });

    const deleted = [nextEvent(agentB, EVENT), nextEvent(adminA, EVENT)];
    expect((await t.api.del(`/announcements/${r.id}`, t.superToken)).status).toBe(200);
    for (const heard of await Promise.all(deleted)) expect(heard).toEqual({ action: 'delete', id: r.id });
  });

  it('sends an inactive announcement as its id and status only, and nothing for a refused write', async () => {
    const agentA = await socketOf(a.agent.token);
    const r = await make();
    const switchedOff = nextEvent(agentA, EVENT);
    await t.api.put(`/announcements/${r.id}`, { status: false, title: 'Secret draft' }, t.superToken);
    expect(await switchedOff).toEqual({ action: 'update', record: { id: r.id, status: false } });

    const heard = watch(agentA, EVENT);
    expect((await t.api.put(`/announcements/${r.id}`, { title: 'x' }, a.admin.token)).status).toBe(403);
    expect((await t.api.del(`/announcements/${r.id}`, a.admin.token)).status).toBe(403);
    // The sentinel: a new announcement, sent to every socket by the same listener once the refused writes answered.
    const next = await make();
    expect(await heard.before(EVENT, (p) => p.record?.id === next.id)).toEqual([]);
  });
});
