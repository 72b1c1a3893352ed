import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;

const hex = () => randomBytes(3).toString('hex');
const newQueue = async (tenant: Tenant) => {
  const res = await t.api.post('/queue', { name: `Queue ${hex()}`, color: `#${hex()}`, greetingMessage: 'Olá!' }, tenant.admin.token);
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const newOption = async (token: string, body: Record<string, unknown>) => {
  const res = await t.api.post('/queue-options', body, token);
  expect(res.status).toBe(201);
  return res.body;
};
const list = async (token: string, query: string) => {
  const res = await t.api.get(`/queue-options?${query}`, token);
  expect(res.status).toBe(200);
  return res.body as any[];
};

beforeAll(async () => {
  t = await startTestApp();
  const plan = await t.api.post('/plans', { name: `Options ${hex()}`, users: 10, connections: 5, queues: 50 }, t.superToken);
  a = await createTenant(t, 'OptA', plan.body.id);
  b = await createTenant(t, 'OptB', plan.body.id);
});
afterAll(() => t?.stop());

describe('POST /queue-options', () => {
  it('creates top-level options numbered by position when no key is sent', async () => {
    const queueId = await newQueue(a);
    const first = await newOption(a.admin.token, { queueId, title: 'Financeiro', message: 'Sobre boletos' });
    expect(first).toMatchObject({ queueId, parentId: null, title: 'Financeiro', message: 'Sobre boletos', option: '1', children: [] });
    expect(typeof first.id).toBe('number');
    const second = await newOption(a.admin.token, { queueId, title: 'Suporte', parentId: null });
    expect(second).toMatchObject({ option: '2', message: '' });
    // The client's own numbering (a number) is kept, as text.
    const third = await newOption(a.admin.token, { queueId, title: 'Outros', option: 3, parentId: '' });
    expect(third).toMatchObject({ option: '3', parentId: null });
  });

  it('creates sub-options under a parent of the same queue', async () => {
    const queueId = await newQueue(a);
    const parent = await newOption(a.admin.token, { queueId, title: 'Vendas' });
    const child = await newOption(a.admin.token, { queueId, parentId: parent.id, title: 'Planos', message: 'Nossos planos' });
    expect(child).toMatchObject({ parentId: parent.id, option: '1' });
    const other = await newQueue(a);
    expect(await t.api.post('/queue-options', { queueId: other, parentId: parent.id, title: 'X' }, a.admin.token)).toMatchObject({
      status: 400,
      body: { error: 'ERR_VALIDATION', fields: [{ path: 'parentId' }] },
    });
    expect(await t.api.post('/queue-options', { queueId, parentId: 999999, title: 'X' }, a.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_OPTION_FOUND' },
    });
  });

  it('validates title, key and queue', async () => {
    const queueId = await newQueue(a);
    const cases: [Record<string, unknown>, string][] = [
      [{ queueId, title: '' }, 'title'],
      [{ queueId, title: '   ' }, 'title'],
      [{ queueId }, 'title'],
      [{ queueId, title: 'x'.repeat(201) }, 'title'],
      [{ queueId, title: 'Ok', option: '0' }, 'option'],
      [{ queueId, title: 'Ok', option: '#' }, 'option'],
      [{ queueId, title: 'Ok', option: 'x'.repeat(11) }, 'option'],
      [{ title: 'Ok' }, 'queueId'],
      [{ queueId: 'abc', title: 'Ok' }, 'queueId'],
    ];
    for (const [body, path] of cases) {
      const res = await t.api.post('/queue-options', body, a.admin.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields.map((f: any) => f.path)).toContain(path);
    }
    expect(await t.api.post('/queue-options', { queueId: 999999, title: 'Ok' }, a.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_FOUND' },
    });
    await newOption(a.admin.token, { queueId, title: 'One', option: '1' });
    expect(await t.api.post('/queue-options', { queueId, title: 'Two', option: '1' }, a.admin.token)).toMatchObject({
      status: 400,
      body: { error: 'ERR_VALIDATION', fields: [{ path: 'option' }] },
    });
    expect(await list(a.admin.token, `queueId=${queueId}&parentId=-1`)).toHaveLength(1);
  });

  it('is for admins only: an agent gets 403 and nothing is created; no token gets 401', async () => {
    const queueId = await newQueue(a);
    expect(await t.api.post('/queue-options', { queueId, title: 'Agent' }, a.agent.token)).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });
    expect((await t.api.post('/queue-options', { queueId, title: 'Anon' })).status).toBe(401);
    expect(await list(a.admin.token, `queueId=${queueId}`)).toEqual([]);
  });
});

describe('GET /queue-options', () => {
  let queueId: number;
  let top: any[];
  let child: any;
  let grandchild: any;
  beforeAll(async () => {
    queueId = await newQueue(a);
    top = [];
    for (const [option, title] of [
      ['10', 'Dez'],
      ['2', 'Dois'],
      ['1', 'Um'],
    ]) {
      top.push(await newOption(a.admin.token, { queueId, option, title }));
    }
    child = await newOption(a.admin.token, { queueId, parentId: top[2].id, title: 'Filho' });
    grandchild = await newOption(a.admin.token, { queueId, parentId: child.id, title: 'Neto', message: 'Fim' });
  });

  it('parentId=-1 gives the top level in key order ("2" before "10") with the whole subtree', async () => {
    const levels = await list(a.agent.token, `queueId=${queueId}&parentId=-1`);
    expect(levels.map((o) => o.title)).toEqual(['Um', 'Dois', 'Dez']);
    expect(levels[0].children).toMatchObject([
      { id: child.id, title: 'Filho', parentId: top[2].id, children: [{ id: grandchild.id, title: 'Neto', message: 'Fim', children: [] }] },
    ]);
    expect(levels[1].children).toEqual([]);
  });

  it('a parentId gives that option’s children; no parentId gives every option of the queue', async () => {
    expect((await list(a.admin.token, `queueId=${queueId}&parentId=${top[2].id}`)).map((o) => o.id)).toEqual([child.id]);
    expect((await list(a.admin.token, `parentId=${child.id}`)).map((o) => o.id)).toEqual([grandchild.id]);
    expect((await list(a.admin.token, `queueId=${queueId}`)).map((o) => o.id).sort()).toEqual(
      [...top.map((o) => o.id), child.id, grandchild.id].sort(),
    );
    const one = await t.api.get(`/queue-options/${child.id}`, a.agent.token);
    expect(one).toMatchObject({ status: 200, body: { id: child.id, children: [{ id: grandchild.id }] } });
  });

  it('validates the query and answers 404 for unknown ids', async () => {
    expect((await t.api.get(`/queue-options?queueId=${queueId}&parentId=0`, a.admin.token)).status).toBe(400);
    expect((await t.api.get('/queue-options?queueId=x', a.admin.token)).status).toBe(400);
    expect(await t.api.get('/queue-options?queueId=999999', a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUEUE_FOUND' } });
    expect(await t.api.get('/queue-options/999999', a.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_OPTION_FOUND' },
    });
    expect((await t.api.get(`/queue-options?queueId=${queueId}`)).status).toBe(401);
  });
});

describe('PUT /queue-options/{id}', () => {
  it('changes only what is sent', async () => {
    const queueId = await newQueue(a);
    const option = await newOption(a.admin.token, { queueId, title: 'Antes', message: 'Texto' });
    const res = await t.api.put(`/queue-options/${option.id}`, { title: 'Depois', queueId, parentId: null }, a.admin.token);
    expect(res).toMatchObject({ status: 200, body: { id: option.id, title: 'Depois', message: 'Texto', option: '1', parentId: null } });
    const again = await t.api.put(`/queue-options/${option.id}`, { message: 'Novo', option: '7' }, a.admin.token);
    expect(again.body).toMatchObject({ title: 'Depois', message: 'Novo', option: '7' });
    expect((await list(a.admin.token, `queueId=${queueId}&parentId=-1`))[0]).toMatchObject({ title: 'Depois', message: 'Novo', option: '7' });
  });

  it('moves an option under a sibling, but never under itself, its own subtree, another queue, or onto a used key', async () => {
    const queueId = await newQueue(a);
    const one = await newOption(a.admin.token, { queueId, title: 'One' });
    const two = await newOption(a.admin.token, { queueId, title: 'Two' });
    const under = await newOption(a.admin.token, { queueId, parentId: one.id, title: 'Under' });
    expect(await t.api.put(`/queue-options/${one.id}`, { parentId: one.id }, a.admin.token)).toMatchObject({ status: 400 });
    expect(await t.api.put(`/queue-options/${one.id}`, { parentId: under.id }, a.admin.token)).toMatchObject({ status: 400 });
    expect(await t.api.put(`/queue-options/${one.id}`, { option: '2' }, a.admin.token)).toMatchObject({
      status: 400,
      body: { fields: [{ path: 'option' }] },
    });
    const other = await newQueue(a);
    expect(await t.api.put(`/queue-options/${one.id}`, { queueId: other }, a.admin.token)).toMatchObject({
      status: 400,
      body: { fields: [{ path: 'queueId' }] },
    });
    const moved = await t.api.put(`/queue-options/${two.id}`, { parentId: one.id, option: '2' }, a.admin.token);
    expect(moved).toMatchObject({ status: 200, body: { parentId: one.id, option: '2' } });
    expect((await list(a.admin.token, `parentId=${one.id}`)).map((o) => o.title)).toEqual(['Under', 'Two']);
  });

  it('refuses an agent with 403 and changes nothing; 404 for an unknown id', async () => {
    const queueId = await newQueue(a);
    const option = await newOption(a.admin.token, { queueId, title: 'Kept' });
    expect(await t.api.put(`/queue-options/${option.id}`, { title: 'Agent' }, a.agent.token)).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });
    expect((await t.api.get(`/queue-options/${option.id}`, a.admin.token)).body.title).toBe('Kept');
    expect(await t.api.put('/queue-options/999999', { title: 'Ghost' }, a.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_OPTION_FOUND' },
    });
  });
});

describe('DELETE /queue-options/{id}', () => {
  it('removes the option with its sub-options and renumbers the remaining siblings 1..n', async () => {
    const queueId = await newQueue(a);
    const opts = [];
    for (const title of ['A', 'B', 'C', 'D']) opts.push(await newOption(a.admin.token, { queueId, title }));
    const sub = await newOption(a.admin.token, { queueId, parentId: opts[1].id, title: 'B1' });
    const subSiblings = [sub, await newOption(a.admin.token, { queueId, parentId: opts[1].id, title: 'B2' })];

    const res = await t.api.del(`/queue-options/${opts[1].id}`, a.admin.token);
    expect(res.status).toBe(200);
    const after = await list(a.admin.token, `queueId=${queueId}&parentId=-1`);
    expect(after.map((o) => [o.title, o.option])).toEqual([
      ['A', '1'],
      ['C', '2'],
      ['D', '3'],
    ]);
    for (const s of subSiblings) expect((await t.api.get(`/queue-options/${s.id}`, a.admin.token)).status).toBe(404);
    // A new option takes the next free position.
    expect(await newOption(a.admin.token, { queueId, title: 'E' })).toMatchObject({ option: '4' });
  });

  it('renumbers only the level of the deleted option', async () => {
    const queueId = await newQueue(a);
    const parent = await newOption(a.admin.token, { queueId, title: 'P' });
    const kids = [];
    for (const title of ['K1', 'K2', 'K3']) kids.push(await newOption(a.admin.token, { queueId, parentId: parent.id, title }));
    const sibling = await newOption(a.admin.token, { queueId, title: 'Q' });
    expect((await t.api.del(`/queue-options/${kids[0].id}`, a.admin.token)).status).toBe(200);
    expect((await list(a.admin.token, `parentId=${parent.id}`)).map((o) => [o.title, o.option])).toEqual([
      ['K2', '1'],
      ['K3', '2'],
    ]);
    expect((await t.api.get(`/queue-options/${sibling.id}`, a.admin.token)).body.option).toBe('2');
  });

  it('refuses an agent with 403 and keeps the option; 404 once gone', async () => {
    const queueId = await newQueue(a);
    const option = await newOption(a.admin.token, { queueId, title: 'Stay' });
    expect(await t.api.del(`/queue-options/${option.id}`, a.agent.token)).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await t.api.get(`/queue-options/${option.id}`, a.admin.token)).status).toBe(200);
    expect((await t.api.del(`/queue-options/${option.id}`, a.admin.token)).status).toBe(200);
    expect(await t.api.del(`/queue-options/${option.id}`, a.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_OPTION_FOUND' },
    });
  });

  it('goes with its queue', async () => {
    const queueId = await newQueue(a);
    const option = await newOption(a.admin.token, { queueId, title: 'Orphan' });
    expect((await t.api.del(`/queue/${queueId}`, a.admin.token)).status).toBe(200);
    expect((await t.api.get(`/queue-options/${option.id}`, a.admin.token)).status).toBe(404);
  });
});

describe('tenant isolation', () => {
  it('company B can neither read, change, delete nor build on company A’s options and queues', async () => {
    const queueId = await newQueue(a);
    const option = await newOption(a.admin.token, { queueId, title: 'Private', message: 'Segredo' });
    const ownQueue = await newQueue(b);
    for (const token of [b.admin.token, b.agent.token]) {
      expect(await t.api.get(`/queue-options?queueId=${queueId}&parentId=-1`, token)).toMatchObject({
        status: 404,
        body: { error: 'ERR_NO_QUEUE_FOUND' },
      });
      expect((await t.api.get(`/queue-options?parentId=${option.id}`, token)).status).toBe(404);
      expect((await t.api.get(`/queue-options/${option.id}`, token)).status).toBe(404);
    }
    expect(await t.api.put(`/queue-options/${option.id}`, { title: 'Pwned' }, b.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_OPTION_FOUND' },
    });
    expect(await t.api.del(`/queue-options/${option.id}`, b.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_OPTION_FOUND' },
    });
    expect(await t.api.post('/queue-options', { queueId, title: 'Intruder' }, b.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_FOUND' },
    });
    expect(await t.api.post('/queue-options', { queueId: ownQueue, parentId: option.id, title: 'Graft' }, b.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_OPTION_FOUND' },
    });
    // B's unfiltered list never contains A's options.
    const everything = await list(b.admin.token, '');
    expect(everything.some((o) => o.id === option.id)).toBe(false);
    expect((await t.api.get(`/queue-options/${option.id}`, a.admin.token)).body).toMatchObject({ title: 'Private', message: 'Segredo' });
  });
});
