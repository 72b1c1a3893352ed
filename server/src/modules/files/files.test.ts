import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
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
const sockets: Socket[] = [];

const uid = () => randomBytes(4).toString('hex');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const PDF = Buffer.from('%PDF-1.4 price list');

const make = async (token: string, body: Record<string, unknown> = {}) => {
  const res = await t.api.post('/files', { name: `List ${uid()}`, message: 'Our catalogue', options: [{ name: 'Photo' }, { name: 'Prices' }], ...body }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const read = async (id: number, token = a.admin.token) => {
  const res = await t.api.get(`/files/${id}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

interface Part {
  data: Buffer;
  name: string;
  type: string;
}
/** POST /files/uploadList/{id} as the contract's client sends it: files[], id[], mediaType[], fileId, typeArch. */
const uploadList = async (listId: number, token: string, parts: (Part & { optionId: number })[], extra: Record<string, string> = {}) => {
  const form = new FormData();
  form.append('fileId', String(listId));
  form.append('typeArch', 'fileList');
  for (const [k, v] of Object.entries(extra)) form.set(k, v);
  for (const p of parts) {
    form.append('files', new Blob([p.data], { type: p.type }), p.name);
    form.append('id', String(p.optionId));
    form.append('mediaType', p.type);
  }
  const res = await fetch(`${t.app.url}/files/uploadList/${listId}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json(), headers: res.headers } as ApiResponse;
};
const mediaDir = (companyId: number) => path.join(t.app.config.dataDir, 'media', String(companyId));
const storedFile = (companyId: number, name: string) => path.join(mediaDir(companyId), name);
const filesOnDisk = (companyId: number) => (existsSync(mediaDir(companyId)) ? readdirSync(mediaDir(companyId)).sort() : []);

const socketOf = async (token: string) => {
  const socket = await connectSocket(t.app.url, token);
  sockets.push(socket);
  return socket;
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'FilesA');
  b = await createTenant(t, 'FilesB');
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('authentication and roles', () => {
  it.each([
    ['GET', '/files'],
    ['GET', '/files/1'],
    ['POST', '/files'],
    ['PUT', '/files/1'],
    ['DELETE', '/files/1'],
    ['POST', '/files/uploadList/1'],
  ])('%s %s answers 401 without a token', async (method, url) => {
    expectError(await t.api.request(method, url, { body: method === 'GET' ? undefined : {} }), 401, 'ERR_SESSION_EXPIRED');
  });

  it('lets agents read lists but not create, change, upload to or delete them', async () => {
    const list = await make(a.admin.token);
    expect((await t.api.get(`/files/${list.id}`, a.agent.token)).status).toBe(200);
    expect((await t.api.get('/files', a.agent.token)).status).toBe(200);
    expectError(await t.api.post('/files', { name: 'Agent list', message: 'x' }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.put(`/files/${list.id}`, { name: 'Renamed' }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.del(`/files/${list.id}`, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await uploadList(list.id, a.agent.token, [{ data: PNG, name: 'a.png', type: 'image/png', optionId: list.options[0].id }]), 403, 'ERR_NO_PERMISSION');
    expect(await read(list.id)).toMatchObject({ name: list.name, options: [{ path: null }, { path: null }] });
  });
});

describe('POST /files and GET /files/{id}', () => {
  it('creates a list with its options in order, each without a file yet', async () => {
    const res = await t.api.post('/files', { name: '  Welcome kit ', message: 'Here you go', options: [{ name: 'Menu' }, { name: 'Map', path: '/etc/passwd', mediaType: 'image/png' }] }, a.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Welcome kit',
      message: 'Here you go',
      companyId: a.companyId,
      options: [
        { name: 'Menu', path: null, mediaType: null, mediaUrl: null, fileId: res.body.id },
        { name: 'Map', path: null, mediaType: null, mediaUrl: null, fileId: res.body.id },
      ],
    });
    expect(await read(res.body.id)).toEqual(res.body);
  });

  it('refuses a short or missing name, a missing message and bad options, listing the fields', async () => {
    expectInvalid(await t.api.post('/files', { name: 'ab', message: '' }, a.admin.token), 'name', 'message');
    expectInvalid(await t.api.post('/files', {}, a.admin.token), 'name', 'message');
    expectInvalid(await t.api.post('/files', { name: 'Good name', message: 'x', options: [{ name: '' }] }, a.admin.token), 'options.0.name');
    expectInvalid(await t.api.post('/files', { name: 'Good name', message: 'x', options: Array.from({ length: 51 }, (_, i) => ({ name: `o${i}` })) }, a.admin.token), 'options');
    expectError(await t.api.request('POST', '/files', { rawBody: '{"name":', token: a.admin.token }), 400, 'ERR_INVALID_JSON');
  });

  it('keeps names unique in a company whatever their case, not across companies', async () => {
    const name = `Unique ${uid()}`;
    await make(a.admin.token, { name });
    expectError(await t.api.post('/files', { name: name.toUpperCase(), message: 'x' }, a.admin.token), 409, 'ERR_FILE_LIST_ALREADY_EXISTS');
    expect((await t.api.post('/files', { name, message: 'x' }, b.admin.token)).status).toBe(201);
  });

  it("answers 404 for another company's list and a missing one, 400 for a bad id", async () => {
    const list = await make(a.admin.token);
    expectError(await t.api.get(`/files/${list.id}`, b.admin.token), 404, 'ERR_NO_FILE_LIST_FOUND');
    expectError(await t.api.get('/files/99999999', a.admin.token), 404, 'ERR_NO_FILE_LIST_FOUND');
    expectInvalid(await t.api.get('/files/abc', a.admin.token), 'id');
  });
});

describe('GET /files', () => {
  it("pages 20 by name, searches the name, and shows only the caller's company", async () => {
    const tag = uid();
    for (let i = 0; i < 22; i++) await make(a.admin.token, { name: `Paged ${tag} ${String(i).padStart(2, '0')}`, options: [] });
    await make(b.admin.token, { name: `Paged ${tag} other company` });
    const first = await t.api.get(`/files?searchParam=${encodeURIComponent(`paged ${tag}`)}&pageNumber=1`, a.admin.token);
    expect(first.status).toBe(200);
    expect(first.body.files).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.files[0].name).toBe(`Paged ${tag} 00`);
    const second = await t.api.get(`/files?searchParam=${encodeURIComponent(`paged ${tag}`)}&pageNumber=2`, a.admin.token);
    expect(second.body.files.map((f: any) => f.name)).toEqual([`Paged ${tag} 20`, `Paged ${tag} 21`]);
    expect(second.body.hasMore).toBe(false);
    const all = await t.api.get('/files?pageNumber=1', b.admin.token);
    expect(all.body.files.every((f: any) => f.companyId === b.companyId)).toBe(true);
  });
});

describe('POST /files/uploadList/{id}', () => {
  it('stores each file under a name the server chooses, in the company folder, with the type it read', async () => {
    const list = await make(a.admin.token);
    const [photo, prices] = list.options;
    const res = await uploadList(list.id, a.admin.token, [
      { data: PNG, name: '../../../etc/cron.d/photo 1.png', type: 'image/png', optionId: photo.id },
      { data: PDF, name: 'tabela de preços.pdf', type: 'application/pdf', optionId: prices.id },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [p, q] = res.body.options;
    expect(p).toMatchObject({ id: photo.id, mediaType: 'image/png', mediaName: 'photo 1.png', size: PNG.length });
    expect(q).toMatchObject({ id: prices.id, mediaType: 'application/pdf', mediaName: 'tabela de preços.pdf' });
    for (const o of [p, q]) {
      expect(o.path).toMatch(/^[A-Za-z0-9_-]{10,64}\.(png|pdf)$/);
      expect(existsSync(storedFile(a.companyId, o.path))).toBe(true);
    }
    const file = await fetch(t.app.url + p.mediaUrl);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
    expect(await read(list.id)).toMatchObject({ options: [{ path: p.path }, { path: q.path }] });
  });

  it('replaces a file and removes the earlier one from disk', async () => {
    const list = await make(a.admin.token);
    const option = list.options[0];
    const first = await uploadList(list.id, a.admin.token, [{ data: PNG, name: 'one.png', type: 'image/png', optionId: option.id }]);
    const second = await uploadList(list.id, a.admin.token, [{ data: PDF, name: 'two.pdf', type: 'application/pdf', optionId: option.id }]);
    expect(second.status).toBe(200);
    expect(existsSync(storedFile(a.companyId, first.body.options[0].path))).toBe(false);
    expect(existsSync(storedFile(a.companyId, second.body.options[0].path))).toBe(true);
  });

  it('refuses other types (415), files over 16 MB (413), no file, ids not matching the files, and changes nothing', async () => {
    const list = await make(a.admin.token);
    const optionId = list.options[0].id;
    const before = filesOnDisk(a.companyId);
    expectError(await uploadList(list.id, a.admin.token, [{ data: Buffer.from('MZ'), name: 'tool.exe', type: 'application/x-msdownload', optionId }]), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    expectError(await uploadList(list.id, a.admin.token, [{ data: Buffer.alloc(16 * 1024 * 1024 + 1), name: 'big.mp4', type: 'video/mp4', optionId }]), 413, 'ERR_PAYLOAD_TOO_LARGE');
    expectInvalid(await uploadList(list.id, a.admin.token, [], { id: String(optionId) }), 'files');
    const twoFiles = new FormData();
    twoFiles.append('files', new Blob([PNG], { type: 'image/png' }), 'a.png');
    twoFiles.append('files', new Blob([PNG], { type: 'image/png' }), 'b.png');
    twoFiles.append('id', String(optionId));
    const mismatch = await fetch(`${t.app.url}/files/uploadList/${list.id}`, { method: 'POST', body: twoFiles, headers: { authorization: `Bearer ${a.admin.token}` } });
    expect(mismatch.status).toBe(400);
    expectInvalid(await uploadList(list.id, a.admin.token, [{ data: PNG, name: 'a.png', type: 'image/png', optionId }], { fileId: String(list.id + 1) }), 'fileId');
    expectError(await t.api.post(`/files/uploadList/${list.id}`, { files: 'x' }, a.admin.token), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    expect(filesOnDisk(a.companyId)).toEqual(before);
    expect((await read(list.id)).options[0].path).toBeNull();
  });

  it("refuses an option of another list or company, and another company's list, writing no file", async () => {
    const list = await make(a.admin.token);
    const otherList = await make(a.admin.token);
    const foreign = await make(b.admin.token);
    const before = filesOnDisk(a.companyId);
    const beforeB = filesOnDisk(b.companyId);
    const part = { data: PNG, name: 'a.png', type: 'image/png' };
    expectError(await uploadList(list.id, a.admin.token, [{ ...part, optionId: otherList.options[0].id }]), 404, 'ERR_NO_FILE_OPTION_FOUND');
    expectError(await uploadList(list.id, a.admin.token, [{ ...part, optionId: foreign.options[0].id }]), 404, 'ERR_NO_FILE_OPTION_FOUND');
    expectError(await uploadList(foreign.id, a.admin.token, [{ ...part, optionId: foreign.options[0].id }]), 404, 'ERR_NO_FILE_LIST_FOUND');
    expect(filesOnDisk(a.companyId)).toEqual(before);
    expect(filesOnDisk(b.companyId)).toEqual(beforeB);
    expect((await read(foreign.id, b.admin.token)).options[0].path).toBeNull();
  });
});

describe('PUT /files/{id}', () => {
  it('renames, upserts options in the order sent and deletes the ones left out with their files', async () => {
    const list = await make(a.admin.token, { options: [{ name: 'One' }, { name: 'Two' }, { name: 'Three' }] });
    const [one, two, three] = list.options;
    const up = await uploadList(list.id, a.admin.token, [
      { data: PNG, name: 'one.png', type: 'image/png', optionId: one.id },
      { data: PDF, name: 'two.pdf', type: 'application/pdf', optionId: two.id },
    ]);
    const [onePath, twoPath] = up.body.options.map((o: any) => o.path);
    const res = await t.api.put(
      `/files/${list.id}`,
      { name: `Renamed ${uid()}`, message: 'New text', options: [{ id: three.id, name: 'Third' }, { id: one.id, name: 'First', path: onePath }, { name: 'Fourth', path: '../../x' }] },
      a.admin.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('New text');
    expect(res.body.options.map((o: any) => [o.name, o.path])).toEqual([
      ['Third', null],
      ['First', onePath],
      ['Fourth', null],
    ]);
    expect(res.body.options[1].id).toBe(one.id);
    expect(existsSync(storedFile(a.companyId, onePath))).toBe(true);
    expect(existsSync(storedFile(a.companyId, twoPath))).toBe(false);
  });

  it("drops an option's file when it is sent with an empty path; another path changes nothing", async () => {
    const list = await make(a.admin.token);
    const [photo, prices] = list.options;
    const up = await uploadList(list.id, a.admin.token, [
      { data: PNG, name: 'p.png', type: 'image/png', optionId: photo.id },
      { data: PDF, name: 'q.pdf', type: 'application/pdf', optionId: prices.id },
    ]);
    const [pPath, qPath] = up.body.options.map((o: any) => o.path);
    const res = await t.api.put(`/files/${list.id}`, { options: [{ id: photo.id, name: 'Photo', path: '' }, { id: prices.id, name: 'Prices', path: 'other.pdf', mediaType: 'text/html' }] }, a.admin.token);
    expect(res.body.options).toMatchObject([
      { path: null, mediaType: null, mediaName: null },
      { path: qPath, mediaType: 'application/pdf' },
    ]);
    expect(existsSync(storedFile(a.companyId, pPath))).toBe(false);
    expect(existsSync(storedFile(a.companyId, qPath))).toBe(true);
  });

  it("refuses another list's option, a taken name and bad input, changing nothing; 404 across companies", async () => {
    const list = await make(a.admin.token);
    const otherList = await make(a.admin.token);
    expectError(await t.api.put(`/files/${list.id}`, { options: [{ id: otherList.options[0].id, name: 'Stolen' }] }, a.admin.token), 404, 'ERR_NO_FILE_OPTION_FOUND');
    expectError(await t.api.put(`/files/${list.id}`, { name: otherList.name }, a.admin.token), 409, 'ERR_FILE_LIST_ALREADY_EXISTS');
    expectInvalid(await t.api.put(`/files/${list.id}`, { name: 'x', message: '' }, a.admin.token), 'name', 'message');
    expectError(await t.api.put(`/files/${list.id}`, { name: 'Not yours' }, b.admin.token), 404, 'ERR_NO_FILE_LIST_FOUND');
    expect(await read(list.id)).toMatchObject({ name: list.name, options: list.options.map((o: any) => ({ id: o.id, name: o.name })) });
    expect((await read(otherList.id)).options[0].name).toBe(otherList.options[0].name);
  });
});

describe('DELETE /files/{id}', () => {
  it('removes the list, its options and their files; 404 for another company, which keeps its own', async () => {
    const list = await make(a.admin.token);
    const up = await uploadList(list.id, a.admin.token, [{ data: PNG, name: 'p.png', type: 'image/png', optionId: list.options[0].id }]);
    const foreign = await make(b.admin.token);
    expectError(await t.api.del(`/files/${list.id}`, b.admin.token), 404, 'ERR_NO_FILE_LIST_FOUND');
    const res = await t.api.del(`/files/${list.id}`, a.admin.token);
    expect(res).toMatchObject({ status: 200, body: { message: 'File list deleted' } });
    expect(existsSync(storedFile(a.companyId, up.body.options[0].path))).toBe(false);
    expectError(await t.api.get(`/files/${list.id}`, a.admin.token), 404, 'ERR_NO_FILE_LIST_FOUND');
    expect((await read(foreign.id, b.admin.token)).id).toBe(foreign.id);
  });

  it("has no bulk delete: DELETE /files removes nobody's lists", async () => {
    const mine = await make(a.admin.token);
    const foreign = await make(b.admin.token);
    expect((await t.api.del('/files', a.admin.token)).status).toBe(404);
    expect((await t.api.del('/files', t.superToken)).status).toBe(404);
    expect((await read(mine.id)).id).toBe(mine.id);
    expect((await read(foreign.id, b.admin.token)).id).toBe(foreign.id);
  });
});

describe('realtime', () => {
  it('sends company-{id}-file create, update and delete to that company only', async () => {
    const agent = await socketOf(a.agent.token);
    const outsider = await socketOf(b.admin.token);
    const event = `company-${a.companyId}-file`;
    const outsiderHears = watch(outsider, event);

    const created = nextEvent(agent, event);
    const list = await make(a.admin.token);
    expect(await created).toMatchObject({ action: 'create', record: { id: list.id, name: list.name, options: [{ name: 'Photo' }, { name: 'Prices' }] } });

    const uploaded = nextEvent(agent, event);
    await uploadList(list.id, a.admin.token, [{ data: PNG, name: 'p.png', type: 'image/png', optionId: list.options[0].id }]);
    expect(await uploaded).toMatchObject({ action: 'update', record: { id: list.id, options: [{ mediaType: 'image/png' }, { path: null }] } });

    const deleted = nextEvent(agent, event);
    await t.api.del(`/files/${list.id}`, a.admin.token);
    expect(await deleted).toEqual({ action: 'delete', id: list.id });

    // B's sentinel: B's own list event, sent after all of A's.
    const bEvent = `company-${b.companyId}-file`;
    await make(b.admin.token);
    expect(await outsiderHears.before(bEvent)).toEqual([]);
  });
});
