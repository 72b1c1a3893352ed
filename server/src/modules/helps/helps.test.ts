import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { expectBareError, expectInvalid } from '../../../testing/expect.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;

const uid = () => randomBytes(4).toString('hex');

/** An error answer that carries the code and nothing else. */

/** The stored truth, read as super. */
const readHelp = async (id: number) => {
  const res = await t.api.get(`/helps/${id}`, t.superToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const allHelps = async () => (await t.api.get('/helps/list', t.superToken)).body as { id: number; title: string }[];
const makeHelp = async (body: Record<string, unknown> = {}) => {
  const res = await t.api.post('/helps', { title: `Help ${uid()}`, description: 'How to', video: 'dQw4w9WgXcQ', ...body }, t.superToken);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'HelpA');
  b = await createTenant(t, 'HelpB');
});
afterAll(() => t?.stop());

describe('authentication', () => {
  const endpoints: [string, string][] = [
    ['GET', '/helps'],
    ['GET', '/helps/list'],
    ['GET', '/helps/1'],
    ['POST', '/helps'],
    ['PUT', '/helps/1'],
    ['DELETE', '/helps/1'],
  ];
  it.each(endpoints)('%s %s answers 401 without a token and 403 with a forged one', async (method, url) => {
    const body = method === 'GET' ? undefined : { title: 'x' };
    expectBareError(await t.api.request(method, url, { body }), 401, 'ERR_SESSION_EXPIRED');
    expectBareError(await t.api.request(method, url, { body, token: 'not.a.jwt' }), 403, 'ERR_INVALID_TOKEN');
  });
});

describe('POST /helps', () => {
  it('creates a help video for every company', async () => {
    const res = await t.api.post('/helps', { title: '  Connecting WhatsApp  ', description: 'Scan the QR code', video: ' abc123 ' }, t.superToken);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Connecting WhatsApp', description: 'Scan the QR code', video: 'abc123' });
    expect(await readHelp(res.body.id)).toEqual(res.body);
    // Helps are platform-wide: both companies see it.
    for (const token of [a.agent.token, b.admin.token]) {
      expect((await t.api.get(`/helps/${res.body.id}`, token)).body).toEqual(res.body);
    }
  });

  it('defaults description and video to empty', async () => {
    const res = await t.api.post('/helps', { title: `Bare ${uid()}` }, t.superToken);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ description: '', video: '' });
  });

  it('refuses admins and agents with ERR_NO_SUPER and creates nothing', async () => {
    const before = await allHelps();
    for (const token of [a.admin.token, a.agent.token]) {
      expectBareError(await t.api.post('/helps', { title: `Mine ${uid()}` }, token), 403, 'ERR_NO_SUPER');
    }
    expect(await allHelps()).toEqual(before);
  });

  it('refuses invalid input with the failing fields and creates nothing', async () => {
    const before = await allHelps();
    expectInvalid(await t.api.post('/helps', {}, t.superToken), 'title');
    expectInvalid(await t.api.post('/helps', { title: '   ' }, t.superToken), 'title');
    expectInvalid(await t.api.post('/helps', { title: 't'.repeat(201) }, t.superToken), 'title');
    expectInvalid(await t.api.post('/helps', { title: 42, description: 7, video: false }, t.superToken), 'title', 'description', 'video');
    expectInvalid(await t.api.post('/helps', { title: 'ok', description: 'd'.repeat(5001) }, t.superToken), 'description');
    expectInvalid(await t.api.post('/helps', { title: 'ok', video: 'v'.repeat(301) }, t.superToken), 'video');
    expectBareError(await t.api.request('POST', '/helps', { rawBody: '{', token: t.superToken }), 400, 'ERR_INVALID_JSON');
    expect(await allHelps()).toEqual(before);
  });
});

describe('reading helps', () => {
  let prefix: string;
  const made: number[] = [];

  beforeAll(async () => {
    prefix = `Paged ${uid()}`;
    for (let i = 1; i <= 21; i++) {
      made.push((await makeHelp({ title: `${prefix} ${String(i).padStart(2, '0')}`, description: i === 5 ? 'mentions kanban boards' : 'other' })).id);
    }
  });

  it('GET /helps pages records for any logged-in user, 20 at a time, with count and hasMore', async () => {
    for (const token of [a.agent.token, a.admin.token, t.superToken]) {
      const first = await t.api.get(`/helps?searchParam=${encodeURIComponent(prefix)}`, token);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ count: 21, hasMore: true });
      expect(first.body.records.map((h: { id: number }) => h.id)).toEqual(made.slice(0, 20));
      const second = await t.api.get(`/helps?searchParam=${encodeURIComponent(prefix)}&pageNumber=2`, token);
      expect(second.body).toMatchObject({ count: 21, hasMore: false });
      expect(second.body.records.map((h: { id: number }) => h.id)).toEqual([made[20]]);
    }
  });

  it('GET /helps searches title and description, % and _ as plain characters', async () => {
    const byDescription = await t.api.get('/helps?searchParam=KANBAN', a.agent.token);
    expect(byDescription.body.records.map((h: { id: number }) => h.id)).toEqual([made[4]]);
    for (const term of ['%', '_']) {
      expect((await t.api.get(`/helps?searchParam=${encodeURIComponent(term)}`, a.agent.token)).body).toEqual({
        records: [],
        count: 0,
        hasMore: false,
      });
    }
    const everything = await t.api.get('/helps', a.agent.token);
    expect(everything.body.count).toBe((await allHelps()).length);
    expectInvalid(await t.api.get('/helps?pageNumber=abc', a.agent.token), 'pageNumber');
  });

  it('GET /helps/list gives every help, sorted by title, to any logged-in user', async () => {
    const res = await t.api.get('/helps/list', a.agent.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await allHelps());
    expect(res.body.map((h: { id: number }) => h.id)).toEqual(expect.arrayContaining(made));
    // Sorted by title: the paged helps (titles differing only in their number) come in order.
    const paged = res.body.filter((h: { title: string }) => h.title.startsWith(prefix)).map((h: { id: number }) => h.id);
    expect(paged).toEqual(made);
  });

  it('GET /helps/{id} answers 400 for a malformed id and 404 for a missing one', async () => {
    for (const id of ['abc', '0', '-2', '1.5']) expectInvalid(await t.api.get(`/helps/${id}`, a.agent.token), 'id');
    expectBareError(await t.api.get('/helps/999999', a.agent.token), 404, 'ERR_NO_HELP_FOUND');
  });
});

describe('PUT /helps/{id}', () => {
  it('changes only the fields sent', async () => {
    const help = await makeHelp({ description: 'Original description', video: 'orig-video' });
    const res = await t.api.put(`/helps/${help.id}`, { title: `Retitled ${uid()}` }, t.superToken);
    expect(res.status).toBe(200);
    const stored = await readHelp(help.id);
    expect(stored).toMatchObject({ title: res.body.title, description: 'Original description', video: 'orig-video' });
    expect(stored).toEqual(res.body);
    await t.api.put(`/helps/${help.id}`, { video: 'new-video' }, t.superToken);
    expect(await readHelp(help.id)).toMatchObject({ title: res.body.title, description: 'Original description', video: 'new-video' });
    await t.api.put(`/helps/${help.id}`, { description: '' }, t.superToken);
    expect((await readHelp(help.id)).description).toBe('');
  });

  it('refuses admins and agents with ERR_NO_SUPER, and invalid input, changing nothing', async () => {
    const help = await makeHelp();
    for (const token of [a.admin.token, a.agent.token, b.admin.token]) {
      expectBareError(await t.api.put(`/helps/${help.id}`, { title: 'Defaced', video: 'evil' }, token), 403, 'ERR_NO_SUPER');
    }
    expectInvalid(await t.api.put(`/helps/${help.id}`, { title: '' }, t.superToken), 'title');
    expectInvalid(await t.api.put(`/helps/${help.id}`, { title: 'fine', video: 'v'.repeat(301) }, t.superToken), 'video');
    expect(await readHelp(help.id)).toEqual(help);
  });

  it('answers 400 for a malformed id and 404 for a missing one', async () => {
    expectInvalid(await t.api.put('/helps/abc', { title: 'x' }, t.superToken), 'id');
    expectBareError(await t.api.put('/helps/999999', { title: 'x' }, t.superToken), 404, 'ERR_NO_HELP_FOUND');
  });
});

describe('DELETE /helps/{id}', () => {
  it('refuses admins and agents with ERR_NO_SUPER, deleting nothing', async () => {
    const help = await makeHelp();
    for (const token of [a.admin.token, a.agent.token]) {
      expectBareError(await t.api.del(`/helps/${help.id}`, token), 403, 'ERR_NO_SUPER');
    }
    expect(await readHelp(help.id)).toEqual(help);
  });

  it('deletes a help for every company', async () => {
    const help = await makeHelp();
    const res = await t.api.del(`/helps/${help.id}`, t.superToken);
    expect(res.status).toBe(200);
    expectBareError(await t.api.get(`/helps/${help.id}`, a.agent.token), 404, 'ERR_NO_HELP_FOUND');
    expect((await allHelps()).map((h) => h.id)).not.toContain(help.id);
    expectBareError(await t.api.del(`/helps/${help.id}`, t.superToken), 404, 'ERR_NO_HELP_FOUND');
  });

  it('answers 400 for a malformed id and 404 for a missing one', async () => {
    expectInvalid(await t.api.del('/helps/abc', t.superToken), 'id');
    expectBareError(await t.api.del('/helps/999999', t.superToken), 404, 'ERR_NO_HELP_FOUND');
  });
});
