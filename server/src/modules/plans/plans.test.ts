import { randomBytes } from 'node:crypto';
import { PLAN_FEATURES } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { expectBareError, expectInvalid } from '../../../testing/expect.js';

let t: TestApp;
let a: Tenant;
let seedPlanId: number;

const uid = () => randomBytes(4).toString('hex');

/** An error answer that carries the code and nothing else. */

/** The stored truth, read as super. */
const readPlan = async (id: number) => {
  const res = await t.api.get(`/plans/${id}`, t.superToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const planNames = async (): Promise<string[]> => (await t.api.get('/plans/list')).body.map((p: { name: string }) => p.name);
const makePlan = async (body: Record<string, unknown> = {}) => {
  const res = await t.api.post('/plans', { name: `Plan ${uid()}`, ...body }, t.superToken);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

beforeAll(async () => {
  t = await startTestApp();
  seedPlanId = (await t.api.get('/plans/all', t.superToken)).body[0].id;
  a = await createTenant(t, 'PlanCo');
});
afterAll(() => t?.stop());

describe('authentication', () => {
  const endpoints: [string, string][] = [
    ['GET', '/plans/all'],
    ['GET', '/plans'],
    ['GET', '/plans/1'],
    ['POST', '/plans'],
    ['PUT', '/plans/1'],
    ['DELETE', '/plans/1'],
  ];
  it.each(endpoints)('%s %s answers 401 without a token and 403 with a forged one', async (method, url) => {
    const body = method === 'GET' ? undefined : { name: 'x' };
    expectBareError(await t.api.request(method, url, { body }), 401, 'ERR_SESSION_EXPIRED');
    expectBareError(await t.api.request(method, url, { body, token: 'not.a.jwt' }), 403, 'ERR_INVALID_TOKEN');
  });

  it('refuses every write to admins and agents with ERR_NO_SUPER', async () => {
    for (const token of [a.admin.token, a.agent.token]) {
      expectBareError(await t.api.get('/plans', token), 403, 'ERR_NO_SUPER');
      expectBareError(await t.api.post('/plans', { name: `Mine ${uid()}` }, token), 403, 'ERR_NO_SUPER');
      expectBareError(await t.api.put(`/plans/${seedPlanId}`, { users: 9999 }, token), 403, 'ERR_NO_SUPER');
      expectBareError(await t.api.del(`/plans/${seedPlanId}`, token), 403, 'ERR_NO_SUPER');
    }
  });
});

describe('reading plans', () => {
  it('GET /plans/list is public and gives every plan with its limits and use* flags', async () => {
    const plan = await makePlan({ users: 4, connections: 2, queues: 6, value: 129.9, useKanban: false });
    const res = await t.api.get('/plans/list');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const listed = res.body.find((p: { id: number }) => p.id === plan.id);
    expect(listed).toMatchObject({ name: plan.name, users: 4, connections: 2, queues: 6, value: 129.9, useKanban: false });
    for (const flag of PLAN_FEATURES) expect(typeof listed[flag]).toBe('boolean');
    expect(res.body.map((p: { id: number }) => p.id)).toContain(seedPlanId);
    // The same with a token.
    expect((await t.api.get('/plans/list', a.agent.token)).body).toEqual(res.body);
  });

  it('GET /plans/all gives every plan to any logged-in user', async () => {
    const publicList = (await t.api.get('/plans/list')).body;
    for (const token of [a.agent.token, a.admin.token, t.superToken]) {
      const res = await t.api.get('/plans/all', token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(publicList);
    }
  });

  it('GET /plans/{id} gives one plan to any logged-in user, 400 for a malformed id and 404 for a missing one', async () => {
    const plan = await makePlan({ users: 7 });
    for (const token of [a.agent.token, a.admin.token, t.superToken]) {
      const res = await t.api.get(`/plans/${plan.id}`, token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(plan);
    }
    for (const id of ['abc', '0', '-1', '2.5']) expectInvalid(await t.api.get(`/plans/${id}`, t.superToken), 'id');
    expectBareError(await t.api.get('/plans/999999', t.superToken), 404, 'ERR_NO_PLAN_FOUND');
    expectBareError(await t.api.get('/plans/999999', a.agent.token), 404, 'ERR_NO_PLAN_FOUND');
  });

  it('GET /plans pages the plans for the super user, 20 at a time, with search', async () => {
    const prefix = `Paged ${uid()}`;
    const made: number[] = [];
    for (let i = 1; i <= 21; i++) made.push((await makePlan({ name: `${prefix} ${String(i).padStart(2, '0')}` })).id);
    const first = await t.api.get(`/plans?searchParam=${encodeURIComponent(prefix)}`, t.superToken);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ count: 21, hasMore: true });
    expect(first.body.plans.map((p: { id: number }) => p.id)).toEqual(made.slice(0, 20));
    const second = await t.api.get(`/plans?searchParam=${encodeURIComponent(prefix.toUpperCase())}&pageNumber=2`, t.superToken);
    expect(second.body).toMatchObject({ count: 21, hasMore: false });
    expect(second.body.plans.map((p: { id: number }) => p.id)).toEqual([made[20]]);
    const all = await t.api.get('/plans', t.superToken);
    expect(all.body.count).toBe((await planNames()).length);
    for (const term of ['%', '_']) {
      expect((await t.api.get(`/plans?searchParam=${encodeURIComponent(term)}`, t.superToken)).body).toEqual({
        plans: [],
        count: 0,
        hasMore: false,
      });
    }
    expectInvalid(await t.api.get('/plans?pageNumber=0', t.superToken), 'pageNumber');
  });
});

describe('POST /plans', () => {
  it('creates a plan with limits at 0 and every feature on by default', async () => {
    const name = `Defaults ${uid()}`;
    const res = await t.api.post('/plans', { name: `  ${name}  ` }, t.superToken);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, users: 0, connections: 0, queues: 0, value: 0 });
    for (const flag of PLAN_FEATURES) expect(res.body[flag]).toBe(true);
    expect(await readPlan(res.body.id)).toEqual(res.body);
  });

  it('keeps the values sent, numbers as form strings included, and the value rounded to cents', async () => {
    const flags = Object.fromEntries(PLAN_FEATURES.map((f, i) => [f, i % 2 === 0]));
    const res = await t.api.post(
      '/plans',
      { name: `Full ${uid()}`, users: '12', connections: 3, queues: ' 8 ', value: '99.999', ...flags },
      t.superToken,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ users: 12, connections: 3, queues: 8, value: 100, ...flags });
    expect(await readPlan(res.body.id)).toEqual(res.body);
    const cents = await makePlan({ value: 10.555 });
    expect((await readPlan(cents.id)).value).toBe(cents.value);
  });

  it('refuses a name already taken, in any case, with 409', async () => {
    const plan = await makePlan();
    const before = await planNames();
    expectBareError(await t.api.post('/plans', { name: plan.name.toUpperCase() }, t.superToken), 409, 'ERR_PLAN_NAME_ALREADY_EXISTS');
    expectBareError(await t.api.post('/plans', { name: ` ${plan.name} ` }, t.superToken), 409, 'ERR_PLAN_NAME_ALREADY_EXISTS');
    expect(await planNames()).toEqual(before);
  });

  it('lets one of several simultaneous creations with the same name through', async () => {
    const name = `Race ${uid()}`;
    const results = await Promise.all(Array.from({ length: 4 }, () => t.api.post('/plans', { name }, t.superToken)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual({ error: 'ERR_PLAN_NAME_ALREADY_EXISTS' });
    expect((await planNames()).filter((n) => n === name)).toHaveLength(1);
  });

  it('refuses invalid input, listing every failing field, and creates nothing', async () => {
    const before = await planNames();
    expectInvalid(await t.api.post('/plans', {}, t.superToken), 'name');
    const all = await t.api.post(
      '/plans',
      { name: '', users: -1, connections: 1.5, queues: 'many', value: -10, useCampaigns: 'yes' },
      t.superToken,
    );
    expectInvalid(all, 'name', 'users', 'connections', 'queues', 'value', 'useCampaigns');
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'n'.repeat(101) }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ users: true }, 'users'],
      [{ users: null }, 'users'],
      [{ users: '' }, 'users'],
      [{ users: 100001 }, 'users'],
      [{ value: 1_000_001 }, 'value'],
      [{ value: [] }, 'value'],
      [{ useKanban: 1 }, 'useKanban'],
    ];
    for (const [body, field] of cases) {
      expectInvalid(await t.api.post('/plans', { name: `Bad ${uid()}`, ...body }, t.superToken), field);
    }
    expect(await planNames()).toEqual(before);
  });
});

describe('PUT /plans/{id}', () => {
  it('changes only the fields sent', async () => {
    const plan = await makePlan({ users: 5, connections: 4, queues: 3, value: 49.9, useOpenAi: false });
    const res = await t.api.put(`/plans/${plan.id}`, { name: `Renamed ${uid()}` }, t.superToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = await readPlan(plan.id);
    expect(stored).toMatchObject({ name: res.body.name, users: 5, connections: 4, queues: 3, value: 49.9, useOpenAi: false });
    expect(stored).toEqual(res.body);
    await t.api.put(`/plans/${plan.id}`, { useOpenAi: true, useKanban: false }, t.superToken);
    expect(await readPlan(plan.id)).toMatchObject({ users: 5, value: 49.9, useOpenAi: true, useKanban: false });
  });

  it('changes limits and value of a stored plan', async () => {
    const plan = await makePlan({ value: 10 });
    const res = await t.api.put(`/plans/${plan.id}`, { users: 20, connections: 5, queues: 9, value: '79.90' }, t.superToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await readPlan(plan.id)).toMatchObject({ users: 20, connections: 5, queues: 9, value: 79.9 });
  });

  it('reaches the companies on the plan', async () => {
    const plan = await makePlan({ useCampaigns: true });
    const c = await t.api.post('/companies', { name: `On plan ${uid()}`, planId: plan.id }, t.superToken);
    expect(c.status).toBe(201);
    await t.api.put(`/plans/${plan.id}`, { useCampaigns: false }, t.superToken);
    const res = await t.api.get(`/companies/listPlan/${c.body.id}`, t.superToken);
    expect(res.body.plan).toMatchObject({ id: plan.id, useCampaigns: false });
  });

  it('refuses another plan’s name with 409 but accepts its own in another case', async () => {
    const one = await makePlan();
    const two = await makePlan({ users: 2 });
    expectBareError(await t.api.put(`/plans/${two.id}`, { name: one.name.toLowerCase(), users: 50 }, t.superToken), 409, 'ERR_PLAN_NAME_ALREADY_EXISTS');
    expect(await readPlan(two.id)).toEqual(two);
    const res = await t.api.put(`/plans/${two.id}`, { name: two.name.toUpperCase() }, t.superToken);
    expect(res.status).toBe(200);
    expect((await readPlan(two.id)).name).toBe(two.name.toUpperCase());
  });

  it('refuses admins and agents, and invalid input, changing nothing', async () => {
    const plan = await makePlan({ users: 3, value: 5 });
    for (const token of [a.admin.token, a.agent.token]) {
      expectBareError(await t.api.put(`/plans/${plan.id}`, { users: 1000, useKanban: false }, token), 403, 'ERR_NO_SUPER');
      expectBareError(await t.api.put(`/plans/${seedPlanId}`, { users: 1000 }, token), 403, 'ERR_NO_SUPER');
    }
    expectInvalid(await t.api.put(`/plans/${plan.id}`, { users: -1, value: 'free', name: '' }, t.superToken), 'users', 'value', 'name');
    expectInvalid(await t.api.put(`/plans/${plan.id}`, { users: 99, useKanban: 'no' }, t.superToken), 'useKanban');
    expect(await readPlan(plan.id)).toEqual(plan);
  });

  it('answers 400 for a malformed id and 404 for a missing one', async () => {
    expectInvalid(await t.api.put('/plans/abc', { users: 1 }, t.superToken), 'id');
    expectBareError(await t.api.put('/plans/999999', { users: 1 }, t.superToken), 404, 'ERR_NO_PLAN_FOUND');
  });
});

describe('DELETE /plans/{id}', () => {
  it('deletes an unused plan', async () => {
    const plan = await makePlan();
    const res = await t.api.del(`/plans/${plan.id}`, t.superToken);
    expect(res.status).toBe(200);
    expectBareError(await t.api.get(`/plans/${plan.id}`, t.superToken), 404, 'ERR_NO_PLAN_FOUND');
    expect(await planNames()).not.toContain(plan.name);
    expectBareError(await t.api.del(`/plans/${plan.id}`, t.superToken), 404, 'ERR_NO_PLAN_FOUND');
  });

  it('refuses a plan a company uses with ERR_PLAN_IN_USE, until the company is gone', async () => {
    expectBareError(await t.api.del(`/plans/${seedPlanId}`, t.superToken), 409, 'ERR_PLAN_IN_USE');
    await readPlan(seedPlanId);
    const plan = await makePlan();
    const c = await t.api.post('/companies', { name: `User of plan ${uid()}`, planId: plan.id }, t.superToken);
    expectBareError(await t.api.del(`/plans/${plan.id}`, t.superToken), 409, 'ERR_PLAN_IN_USE');
    expect(await readPlan(plan.id)).toEqual(plan);
    expect((await t.api.get(`/companies/${c.body.id}`, t.superToken)).body.planId).toBe(plan.id);
    expect((await t.api.del(`/companies/${c.body.id}`, t.superToken)).status).toBe(200);
    expect((await t.api.del(`/plans/${plan.id}`, t.superToken)).status).toBe(200);
  });

  it('refuses admins and agents, deleting nothing', async () => {
    const plan = await makePlan();
    for (const token of [a.admin.token, a.agent.token]) {
      expectBareError(await t.api.del(`/plans/${plan.id}`, token), 403, 'ERR_NO_SUPER');
    }
    expect(await readPlan(plan.id)).toEqual(plan);
  });

  it('answers 400 for a malformed id and 404 for a missing one', async () => {
    expectInvalid(await t.api.del('/plans/abc', t.superToken), 'id');
    expectBareError(await t.api.del('/plans/999999', t.superToken), 404, 'ERR_NO_PLAN_FOUND');
  });
});
