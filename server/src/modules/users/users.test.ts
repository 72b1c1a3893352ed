import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../../db/tenant.js';
import { connectSandbox, customerSays, ticketOf } from '../../../testing/conversation.js';
import { TicketTracking } from '../tickets/ticket.entity.js';
import { connectSocket, createTenant, eventually, joined, seedUsers, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;

const uniqueEmail = (label: string) => `${label.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`;

/** Every user of a company, read by the super user (the one cross-company view). */
const usersOf = async (companyId: number) => {
  const res = await t.api.get(`/users/list?companyId=${companyId}`, t.superToken);
  expect(res.status).toBe(200);
  return res.body as any[];
};

const createUser = (token: string, body: Record<string, unknown>) =>
  t.api.post('/users', { name: 'New User', email: uniqueEmail('new'), password: 'Secret-01x', ...body }, token);

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'UsersA');
  b = await createTenant(t, 'UsersB');
});
afterAll(() => t?.stop());

describe('GET /users/', () => {
  let c: Tenant;
  beforeAll(async () => {
    // A company of its own with 22 extra users: two pages.
    const plan = await t.api.post('/plans', { name: `Big ${randomBytes(3).toString('hex')}`, users: 100 }, t.superToken);
    expect(plan.status).toBe(201);
    c = await createTenant(t, 'Paging', plan.body.id);
    // Seeded in one statement: created over the API each paid a password hash (slow on a busy runner).
    const paged = Array.from({ length: 22 }, (_, i) => ({ name: `Paged ${String(i).padStart(2, '0')}`, email: uniqueEmail(`paged${i}`) }));
    expect(await seedUsers(t, c.companyId, paged)).toHaveLength(22);
  });

  it('pages users who share a name without repeating or losing any', async () => {
    const plan = await t.api.post('/plans', { name: `Twins ${randomBytes(3).toString('hex')}`, users: 100 }, t.superToken);
    const twins = await createTenant(t, 'Twins', plan.body.id);
    // 41 users, seeded in one statement: 41 POST /users (a password hash each) ran past 30 s under load.
    await seedUsers(t, twins.companyId, Array.from({ length: 41 }, (_, i) => ({ name: 'Same Name', email: uniqueEmail(`same${i}`) })));
    const ids: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await t.api.get(`/users/?searchParam=same%20name&pageNumber=${page}`, twins.admin.token);
      expect(res.body.hasMore).toBe(page < 3);
      ids.push(...res.body.users.map((u: any) => u.id));
    }
    expect(ids).toHaveLength(41);
    expect(new Set(ids).size).toBe(41);
  });

  it('pages 20 at a time with count and hasMore, ordered by name, own company only', async () => {
    const first = await t.api.get('/users/', c.admin.token);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(24);
    expect(first.body.users).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await t.api.get('/users/?pageNumber=2', c.admin.token);
    expect(second.body.users).toHaveLength(4);
    expect(second.body.hasMore).toBe(false);
    const all = [...first.body.users, ...second.body.users];
    expect(new Set(all.map((u: any) => u.id)).size).toBe(24);
    expect(all.every((u: any) => u.companyId === c.companyId)).toBe(true);
    const names = all.map((u: any) => u.name);
    expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y, 'en', { sensitivity: 'base' })));
    expect(all.some((u: any) => 'passwordHash' in u || 'password' in u)).toBe(false);
  });

  it('filters by searchParam on name or email, case-insensitively', async () => {
    const byName = await t.api.get('/users/?searchParam=paged%201', c.agent.token);
    expect(byName.status).toBe(200);
    expect(byName.body.users.map((u: any) => u.name).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `Paged 1${i}`),
    );
    expect(byName.body.count).toBe(10);
    const byEmail = await t.api.get(`/users/?searchParam=${encodeURIComponent(c.agent.email.toUpperCase())}`, c.admin.token);
    expect(byEmail.body.users.map((u: any) => u.id)).toEqual([c.agent.id]);
    // LIKE wildcards are searched for literally.
    const wildcard = await t.api.get('/users/?searchParam=%25', c.admin.token);
    expect(wildcard.body).toMatchObject({ users: [], count: 0, hasMore: false });
  });

  it('never lists another company’s users, not even for a matching search', async () => {
    // A company of its own: it asserts the whole list, and other tests add users to A.
    const own = await createTenant(t, 'UsersOwnList');
    const res = await t.api.get(`/users/?searchParam=${encodeURIComponent(b.admin.email)}`, own.admin.token);
    expect(res.body).toMatchObject({ users: [], count: 0 });
    const listed = await t.api.get('/users/', own.admin.token);
    expect(listed.body.users.map((u: any) => u.id).sort()).toEqual([own.admin.id, own.agent.id].sort());
  });

  it('refuses a bad pageNumber and an anonymous caller', async () => {
    expect(await t.api.get('/users/?pageNumber=0', a.admin.token)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    expect(await t.api.get('/users/')).toMatchObject({ status: 401, body: { error: 'ERR_SESSION_EXPIRED' } });
  });
});

describe('GET /users/list', () => {
  it('lists every user of the caller’s company, for agents too', async () => {
    // A company of its own: it asserts the whole list, and other tests add users to A.
    const own = await createTenant(t, 'UsersList');
    const res = await t.api.get('/users/list', own.agent.token);
    expect(res.status).toBe(200);
    expect(res.body.map((u: any) => u.id).sort()).toEqual([own.admin.id, own.agent.id].sort());
  });

  it('lets only a super user name another company', async () => {
    // Two companies of its own: it asserts whole lists, and other tests add users to A and B.
    const mine = await createTenant(t, 'UsersListA');
    const other = await createTenant(t, 'UsersListB');
    const asSuper = await t.api.get(`/users/list?companyId=${other.companyId}`, t.superToken);
    expect(asSuper.status).toBe(200);
    expect(asSuper.body.map((u: any) => u.id).sort()).toEqual([other.admin.id, other.agent.id].sort());
    expect(await t.api.get(`/users/list?companyId=${other.companyId}`, mine.admin.token)).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_SUPER' },
    });
    expect((await t.api.get(`/users/list?companyId=${other.companyId}`, mine.agent.token)).status).toBe(403);
    const ownById = await t.api.get(`/users/list?companyId=${mine.companyId}`, mine.agent.token);
    expect(ownById.body).toHaveLength(2);
  });
});

describe('GET /users/{id}', () => {
  it('answers a user of the own company without secrets', async () => {
    const res = await t.api.get(`/users/${a.agent.id}`, a.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.agent.id, email: a.agent.email, profile: 'user', companyId: a.companyId, super: false });
    expect(res.body).not.toHaveProperty('passwordHash');
    expect(res.body).not.toHaveProperty('password');
    expect((await t.api.get(`/users/${a.admin.id}`, a.agent.token)).status).toBe(200);
  });

  it('answers 404 for an unknown id and for another company’s user', async () => {
    expect(await t.api.get('/users/999999', a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
    expect(await t.api.get(`/users/${b.admin.id}`, a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
    expect(await t.api.get(`/users/${b.agent.id}`, a.agent.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
    expect(await t.api.get('/users/abc', a.admin.token)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });
});

describe('POST /users', () => {
  it('lets an admin create a user, with profile user by default, who can then log in', async () => {
    const email = uniqueEmail('Created');
    const res = await createUser(a.admin.token, { name: '  Created  ', email: email.toUpperCase() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Created', email, profile: 'user', super: false, companyId: a.companyId, allTicket: 'desabled' });
    expect(res.body).not.toHaveProperty('passwordHash');
    const login = await t.api.post('/auth/login', { email, password: 'Secret-01x' });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ id: res.body.id, profile: 'user', companyId: a.companyId });
    expect((await t.api.del(`/users/${res.body.id}`, a.admin.token)).status).toBe(200);
  });

  it('refuses one of the most used passwords, on create, on edit and on the profile, changing nothing', async () => {
    for (const password of ['Password1', 'Qwerty123', 'Iloveyou1']) {
      expect(await createUser(a.admin.token, { password })).toMatchObject({ status: 400, body: { error: 'ERR_PASSWORD_TOO_COMMON' } });
    }
    const created = await createUser(a.admin.token, {});
    expect(created.status).toBe(201);
    expect(await t.api.put(`/users/${created.body.id}`, { password: 'Password1' }, a.admin.token)).toMatchObject({
      status: 400,
      body: { error: 'ERR_PASSWORD_TOO_COMMON' },
    });
    expect(await t.api.put(`/users/${a.agent.id}`, { password: 'Password1' }, a.agent.token)).toMatchObject({
      status: 400,
      body: { error: 'ERR_PASSWORD_TOO_COMMON' },
    });
    // The password set before still logs in (the agent is not logged in again: that would end its session).
    expect((await t.api.post('/auth/login', { email: created.body.email, password: 'Secret-01x' })).status).toBe(200);
    expect((await t.api.del(`/users/${created.body.id}`, a.admin.token)).status).toBe(200);
  });

  it('creates an admin when asked, with allTicket', async () => {
    const res = await createUser(a.admin.token, { profile: 'admin', allTicket: 'enabled' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ profile: 'admin', allTicket: 'enabled' });
    expect((await t.api.del(`/users/${res.body.id}`, a.admin.token)).status).toBe(200);
  });

  it('refuses an agent with 403 ERR_NO_PERMISSION and creates nothing', async () => {
    const email = uniqueEmail('byagent');
    const res = await createUser(a.agent.token, { email });
    expect(res).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await usersOf(a.companyId)).some((u) => u.email === email)).toBe(false);
  });

  it('lets only a super user create a super user or a user in another company', async () => {
    const superEmail = uniqueEmail('wannabe');
    expect(await createUser(a.admin.token, { email: superEmail, super: true })).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_SUPER' },
    });
    const otherEmail = uniqueEmail('intruder');
    expect(await createUser(a.admin.token, { email: otherEmail, companyId: b.companyId })).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_SUPER' },
    });
    expect((await usersOf(a.companyId)).some((u) => u.email === superEmail)).toBe(false);
    expect((await usersOf(b.companyId)).some((u) => u.email === otherEmail)).toBe(false);

    // The super user may do both.
    const placed = await createUser(t.superToken, { email: otherEmail, companyId: b.companyId });
    expect(placed.status).toBe(201);
    expect(placed.body.companyId).toBe(b.companyId);
    expect((await usersOf(b.companyId)).some((u) => u.id === placed.body.id)).toBe(true);
    expect((await t.api.del(`/users/${placed.body.id}`, b.admin.token)).status).toBe(200);
    expect(await createUser(t.superToken, { companyId: 999999 })).toMatchObject({ status: 404, body: { error: 'ERR_NO_COMPANY_FOUND' } });
    const superUser = await createUser(t.superToken, { email: superEmail, super: true, profile: 'admin' });
    expect(superUser.status).toBe(201);
    expect(superUser.body).toMatchObject({ super: true, profile: 'admin' });
    // An admin can neither change nor delete a super user.
    expect((await t.api.del(`/users/${superUser.body.id}`, t.superToken)).status).toBe(200);
  });

  it('refuses a duplicate email, whatever its case or company, with 409', async () => {
    expect(await createUser(a.admin.token, { email: a.agent.email.toUpperCase() })).toMatchObject({
      status: 409,
      body: { error: 'ERR_EMAIL_ALREADY_EXISTS' },
    });
    expect(await createUser(a.admin.token, { email: b.agent.email })).toMatchObject({
      status: 409,
      body: { error: 'ERR_EMAIL_ALREADY_EXISTS' },
    });
  });

  it('lets exactly one of two simultaneous creations with the same email through', async () => {
    const email = uniqueEmail('twin');
    const results = await Promise.all([createUser(a.admin.token, { email }), createUser(a.admin.token, { email })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    await t.api.del(`/users/${results.find((r) => r.status === 201)!.body.id}`, a.admin.token);
  });

  it('validates name (2-50), password (8-50, a digit, a lower- and an upper-case letter) and email', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'A' }, 'name'],
      [{ name: 'x'.repeat(51) }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ password: '1234' }, 'password'],
      [{ password: 'Abc-123' }, 'password'],
      [{ password: 'abcdef-123' }, 'password'],
      [{ password: 'Abcdefgh-x' }, 'password'],
      [{ password: `Ab3${'x'.repeat(48)}` }, 'password'],
      [{ password: undefined }, 'password'],
      [{ email: 'not-an-email' }, 'email'],
      [{ email: undefined }, 'email'],
      [{ profile: 'root' }, 'profile'],
      [{ allTicket: 'sometimes' }, 'allTicket'],
    ];
    for (const [body, field] of cases) {
      const res = await createUser(a.admin.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.fields.map((f: any) => f.path)).toContain(field);
    }
    // The bounds themselves are accepted.
    const edge = await createUser(a.admin.token, { name: 'Al', password: 'Ab3-xyzw' });
    expect(edge.status).toBe(201);
    const longest = await createUser(a.admin.token, { name: 'y'.repeat(50), password: `Ab3${'z'.repeat(47)}` });
    expect(longest.status).toBe(201);
    await t.api.del(`/users/${edge.body.id}`, a.admin.token);
    await t.api.del(`/users/${longest.body.id}`, a.admin.token);
  });
});

describe('plan limits', () => {
  it('refuses the user beyond the plan’s allowance with 409 ERR_USER_LIMIT_REACHED', async () => {
    const plan = await t.api.post('/plans', { name: `Two users ${randomBytes(3).toString('hex')}`, users: 2, connections: 1, queues: 1 }, t.superToken);
    expect(plan.status).toBe(201);
    const suffix = randomBytes(3).toString('hex');
    const adminEmail = `limited-${suffix}@example.com`;
    const company = await t.api.post(
      '/companies',
      { name: `Limited ${suffix}`, email: adminEmail, password: 'Secret-01x', planId: plan.body.id },
      t.superToken,
    );
    expect(company.status).toBe(201);
    const admin = await t.api.login(adminEmail, 'Secret-01x');

    const second = await createUser(admin.token, {});
    expect(second.status).toBe(201);
    const thirdEmail = uniqueEmail('third');
    const third = await createUser(admin.token, { email: thirdEmail });
    expect(third).toMatchObject({ status: 409, body: { error: 'ERR_USER_LIMIT_REACHED' } });
    // Not even the super user goes past the plan.
    expect(await createUser(t.superToken, { companyId: company.body.id })).toMatchObject({
      status: 409,
      body: { error: 'ERR_USER_LIMIT_REACHED' },
    });
    expect(await usersOf(company.body.id)).toHaveLength(2);

    // A freed seat can be taken again.
    expect((await t.api.del(`/users/${second.body.id}`, admin.token)).status).toBe(200);
    expect((await createUser(admin.token, { email: thirdEmail })).status).toBe(201);
    // A bigger plan lifts the limit.
    expect((await t.api.put(`/plans/${plan.body.id}`, { users: 3 }, t.superToken)).status).toBe(200);
    expect((await createUser(admin.token, {})).status).toBe(201);
    expect(await usersOf(company.body.id)).toHaveLength(3);
  });

  it('holds under concurrent creations: never more users than the plan allows', async () => {
    const plan = await t.api.post('/plans', { name: `Race ${randomBytes(3).toString('hex')}`, users: 3 }, t.superToken);
    const c = await createTenant(t, 'Race', plan.body.id);
    const results = await Promise.all(Array.from({ length: 6 }, () => createUser(c.admin.token, {})));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === 'ERR_USER_LIMIT_REACHED')).toBe(true);
    expect(await usersOf(c.companyId)).toHaveLength(3);
  });
});

describe('PUT /users/{id}', () => {
  // Each test edits a user of its own (its name, email or password would surprise the next test), in a
  // company of its own whose plan has room for them all.
  let c: Tenant;
  beforeAll(async () => {
    const plan = await t.api.post('/plans', { name: `Edits ${randomBytes(3).toString('hex')}`, users: 100 }, t.superToken);
    expect(plan.status).toBe(201);
    c = await createTenant(t, 'UsersEdits', plan.body.id);
  });
  /** An agent of C with the password Secret-01x. */
  const newTarget = async () => {
    const res = await createUser(c.admin.token, { name: 'Target User', email: uniqueEmail('target') });
    expect(res.status).toBe(201);
    return { id: res.body.id as number, email: res.body.email as string };
  };

  it('lets an admin change any user of the company, profile and visibility included', async () => {
    const target = await newTarget();
    const res = await t.api.put(
      `/users/${target.id}`,
      { name: 'Renamed Target', profile: 'admin', allTicket: 'enabled', whatsappId: null },
      c.admin.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: target.id, name: 'Renamed Target', profile: 'admin', allTicket: 'enabled' });
    const read = await t.api.get(`/users/${target.id}`, c.admin.token);
    expect(read.body).toMatchObject({ name: 'Renamed Target', profile: 'admin', allTicket: 'enabled' });
  });

  it('keeps the password when it is sent empty, and changes it when given', async () => {
    const target = await newTarget();
    const res = await t.api.put(`/users/${target.id}`, { name: 'Target User', email: target.email, password: '' }, c.admin.token);
    expect(res.status).toBe(200);
    expect((await t.api.post('/auth/login', { email: target.email, password: 'Secret-01x' })).status).toBe(200);
    expect((await t.api.put(`/users/${target.id}`, { password: 'Other-secret-1' }, c.admin.token)).status).toBe(200);
    expect((await t.api.post('/auth/login', { email: target.email, password: 'Secret-01x' })).status).toBe(401);
    expect((await t.api.post('/auth/login', { email: target.email, password: 'Other-secret-1' })).status).toBe(200);
    expect((await t.api.put(`/users/${target.id}`, { password: '1234' }, c.admin.token)).status).toBe(400);
  });

  it('refuses an email another user has', async () => {
    const target = await newTarget();
    expect(await t.api.put(`/users/${target.id}`, { email: b.admin.email }, c.admin.token)).toMatchObject({
      status: 409,
      body: { error: 'ERR_EMAIL_ALREADY_EXISTS' },
    });
    // Its own email, in another case, is not a conflict.
    expect((await t.api.put(`/users/${target.id}`, { email: target.email.toUpperCase() }, c.admin.token)).status).toBe(200);
  });

  it('lets an agent change their own name, email and password only', async () => {
    const target = await newTarget();
    const login = await t.api.login(target.email, 'Secret-01x');
    const newEmail = uniqueEmail('self');
    const res = await t.api.put(
      `/users/${target.id}`,
      { name: 'Self Edited', email: newEmail, password: 'Self-secret-1', profile: 'user', allTicket: 'desabled' },
      login.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Self Edited', email: newEmail, profile: 'user' });
    // The session that changed the password stays valid.
    expect((await t.api.get('/auth/me', login.token)).status).toBe(200);
    expect((await t.api.post('/auth/login', { email: newEmail, password: 'Self-secret-1' })).status).toBe(200);
  });

  it('refuses an agent changing their own profile, visibility, connection or queues', async () => {
    const target = await newTarget();
    const login = await t.api.login(target.email, 'Secret-01x');
    for (const change of [{ profile: 'admin' }, { allTicket: 'enabled' }, { whatsappId: 1 }, { queueIds: [1] }, { super: true }]) {
      const res = await t.api.put(`/users/${target.id}`, { name: 'Sneaky', ...change }, login.token);
      expect(res.status, JSON.stringify(change)).toBe(403);
      expect(['ERR_NO_PERMISSION', 'ERR_NO_SUPER']).toContain(res.body.error);
    }
    const read = await t.api.get(`/users/${target.id}`, c.admin.token);
    expect(read.body).toMatchObject({ name: 'Target User', profile: 'user', allTicket: 'desabled', whatsappId: null, super: false });
    // The refused profile change did not take effect: still an agent.
    expect((await createUser(login.token, {})).status).toBe(403);
  });

  it('accepts the whole user form from an agent when the admin-only fields are unchanged', async () => {
    const target = await newTarget();
    const login = await t.api.login(target.email, 'Secret-01x');
    const res = await t.api.put(
      `/users/${target.id}`,
      { name: 'Self Edited', email: target.email, password: '', profile: 'user', allTicket: 'desabled', whatsappId: null, queueIds: [] },
      login.token,
    );
    expect(res.status).toBe(200);
    expect((await t.api.post('/auth/login', { email: target.email, password: 'Secret-01x' })).status).toBe(200);
  });

  it('refuses an agent editing another user', async () => {
    const res = await t.api.put(`/users/${c.admin.id}`, { name: 'Hijacked', password: 'Hijacked-1x' }, c.agent.token);
    expect(res).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await t.api.get(`/users/${c.admin.id}`, c.admin.token)).body.name).not.toBe('Hijacked');
    expect((await t.api.post('/auth/login', { email: c.admin.email, password: 'Hijacked-1x' })).status).toBe(401);
  });

  it('refuses an admin making someone a super user', async () => {
    const target = await newTarget();
    expect(await t.api.put(`/users/${target.id}`, { super: true }, c.admin.token)).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_SUPER' },
    });
    expect((await t.api.get(`/users/${target.id}`, c.admin.token)).body.super).toBe(false);
  });

  it('a demoted admin loses admin rights at once', async () => {
    const res = await createUser(c.admin.token, { profile: 'admin', email: uniqueEmail('demoted') });
    const demoted = await t.api.login(res.body.email, 'Secret-01x');
    expect((await createUser(demoted.token, {})).status).toBe(201);
    expect((await t.api.put(`/users/${res.body.id}`, { profile: 'user' }, c.admin.token)).status).toBe(200);
    expect(await createUser(demoted.token, {})).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
  });

  it('answers 404 for an unknown user and validates the body', async () => {
    const target = await newTarget();
    expect(await t.api.put('/users/999999', { name: 'Ghost' }, c.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
    expect(await t.api.put(`/users/${target.id}`, { name: 'X' }, c.admin.token)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    expect(await t.api.put(`/users/${target.id}`, { email: 'nope' }, c.admin.token)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });
});

describe('DELETE /users/{id}', () => {
  it('lets an admin delete a user, who can no longer log in or use an old token', async () => {
    const created = await createUser(a.admin.token, { email: uniqueEmail('doomed') });
    const login = await t.api.login(created.body.email, 'Secret-01x');
    const res = await t.api.del(`/users/${created.body.id}`, a.admin.token);
    expect(res.status).toBe(200);
    expect(await t.api.get(`/users/${created.body.id}`, a.admin.token)).toMatchObject({ status: 404 });
    expect((await t.api.post('/auth/login', { email: created.body.email, password: 'Secret-01x' })).status).toBe(401);
    expect((await t.api.get('/auth/me', login.token)).status).toBe(401);
    expect((await t.api.post('/auth/refresh_token', { refreshToken: login.refreshToken })).status).toBe(401);
    expect(await t.api.del(`/users/${created.body.id}`, a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
  });

  it('refuses an admin deleting themself', async () => {
    expect(await t.api.del(`/users/${a.admin.id}`, a.admin.token)).toMatchObject({ status: 409, body: { error: 'ERR_CANNOT_DELETE_SELF' } });
    expect((await t.api.get(`/users/${a.admin.id}`, a.admin.token)).status).toBe(200);
  });

  it('refuses an agent with 403', async () => {
    const created = await createUser(a.admin.token, { email: uniqueEmail('survivor') });
    expect(await t.api.del(`/users/${created.body.id}`, a.agent.token)).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect(await t.api.del(`/users/${a.agent.id}`, a.agent.token)).toMatchObject({ status: 403 });
    expect((await t.api.get(`/users/${created.body.id}`, a.admin.token)).status).toBe(200);
    await t.api.del(`/users/${created.body.id}`, a.admin.token);
  });
});

describe('tenant isolation', () => {
  it('company A’s admin and agent cannot read, update or delete company B’s users', async () => {
    const before = await usersOf(b.companyId);
    for (const token of [a.admin.token, a.agent.token]) {
      for (const victim of [b.admin.id, b.agent.id]) {
        const read = await t.api.get(`/users/${victim}`, token);
        expect(read.status).toBe(404);
        const update = await t.api.put(`/users/${victim}`, { name: 'Pwned', password: 'Pwned-pass-1', profile: 'admin' }, token);
        expect([403, 404]).toContain(update.status);
        const del = await t.api.del(`/users/${victim}`, token);
        expect([403, 404]).toContain(del.status);
      }
    }
    const update = await t.api.put(`/users/${b.agent.id}`, { name: 'Pwned' }, a.admin.token);
    expect(update).toMatchObject({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
    expect(await usersOf(b.companyId)).toEqual(before);
    expect((await t.api.post('/auth/login', { email: b.agent.email, password: 'Pwned-pass-1' })).status).toBe(401);
    expect((await t.api.post('/auth/login', { email: b.agent.email, password: b.agent.password })).status).toBe(200);
  });
});

describe('super user across companies', () => {
  it('may read, update and delete another company’s user', async () => {
    const created = await createUser(b.admin.token, { email: uniqueEmail('managed') });
    expect((await t.api.get(`/users/${created.body.id}`, t.superToken)).body).toMatchObject({ id: created.body.id, companyId: b.companyId });
    const updated = await t.api.put(`/users/${created.body.id}`, { name: 'Managed By Super', profile: 'admin' }, t.superToken);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Managed By Super', profile: 'admin', companyId: b.companyId });
    expect((await t.api.del(`/users/${created.body.id}`, t.superToken)).status).toBe(200);
    expect((await usersOf(b.companyId)).some((u) => u.id === created.body.id)).toBe(false);
  });
});

describe('POST /users/set-language/{lang}', () => {
  it('stores the UI language per user for pt, en and es', async () => {
    for (const lang of ['pt', 'en', 'es']) {
      const res = await t.api.post(`/users/set-language/${lang}`, undefined, a.agent.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: a.agent.id, language: lang });
    }
    expect((await t.api.post('/users/set-language/pt', undefined, a.admin.token)).body.language).toBe('pt');
    // Each user keeps their own.
    expect((await t.api.get(`/users/${a.agent.id}`, a.admin.token)).body.language).toBe('es');
    expect((await t.api.get(`/users/${a.admin.id}`, a.admin.token)).body.language).toBe('pt');
    expect((await t.api.get('/auth/me', a.agent.token)).body.language).toBe('es');
  });

  it('refuses any other language', async () => {
    // A user of its own with a language it set itself: the test above changes A's agent's.
    const created = await createUser(a.admin.token, {});
    expect(created.status).toBe(201);
    const user = await t.api.login(created.body.email, 'Secret-01x');
    expect((await t.api.post('/users/set-language/en', undefined, user.token)).status).toBe(200);
    for (const lang of ['fr', 'PT', 'english']) {
      expect(await t.api.post(`/users/set-language/${lang}`, undefined, user.token)).toMatchObject({
        status: 400,
        body: { error: 'ERR_VALIDATION' },
      });
    }
    expect((await t.api.get(`/users/${created.body.id}`, a.admin.token)).body.language).toBe('en');
  });
});

describe('queues of a user', () => {
  let q1: { id: number; name: string; color: string };
  let q2: { id: number; name: string; color: string };
  let theirQueue: { id: number };
  const queue = async (token: string, name: string, orderQueue: number) => {
    const res = await t.api.post('/queue', { name, color: `#${randomBytes(3).toString('hex')}`, orderQueue, greetingMessage: 'Olá!' }, token);
    expect(res.status).toBe(201);
    return { id: res.body.id, name: res.body.name, color: res.body.color };
  };
  beforeAll(async () => {
    q1 = await queue(a.admin.token, 'Vendas', 1);
    q2 = await queue(a.admin.token, 'Suporte', 2);
    theirQueue = await queue(b.admin.token, 'Deles', 1);
  });

  it('stores the queues given at creation and shows them in every user answer', async () => {
    const email = uniqueEmail('queued');
    const res = await createUser(a.admin.token, { email, queueIds: [q2.id, q1.id, q1.id] });
    expect(res.status).toBe(201);
    expect(res.body.queues).toEqual([q1, q2]);
    const id = res.body.id;
    expect((await t.api.get(`/users/${id}`, a.agent.token)).body.queues).toEqual([q1, q2]);
    const page = await t.api.get(`/users/?searchParam=${encodeURIComponent(email)}`, a.admin.token);
    expect(page.body.users).toHaveLength(1);
    expect(page.body.users[0].queues).toEqual([q1, q2]);
    expect((await t.api.get('/users/list', a.admin.token)).body.find((u: any) => u.id === id).queues).toEqual([q1, q2]);
    expect((await usersOf(a.companyId)).find((u) => u.id === id).queues).toEqual([q1, q2]);
    // Users without queues show an empty list.
    expect((await t.api.get(`/users/${a.admin.id}`, a.admin.token)).body.queues).toEqual([]);
    // The user's own session answers too.
    const login = await t.api.login(email, 'Secret-01x');
    expect(login.user.queues).toEqual([q1, q2]);
    expect((await t.api.get('/auth/me', login.token)).body.queues).toEqual([q1, q2]);
    const refreshed = await t.api.post('/auth/refresh_token', { refreshToken: login.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.queues).toEqual([q1, q2]);
    await t.api.del(`/users/${id}`, a.admin.token);
  });

  it('refuses a queue of another company or an unknown one with 404 ERR_NO_QUEUE_FOUND, creating nothing', async () => {
    for (const queueIds of [[q1.id, theirQueue.id], [999999]]) {
      const email = uniqueEmail('badqueue');
      expect(await createUser(a.admin.token, { email, queueIds })).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUEUE_FOUND' } });
      expect((await usersOf(a.companyId)).some((u) => u.email === email)).toBe(false);
    }
    expect(await createUser(a.admin.token, { queueIds: ['x'] })).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });

  it('replaces the queues on update, keeps them when not sent, and clears them with []', async () => {
    const created = await createUser(a.admin.token, { queueIds: [q1.id] });
    const id = created.body.id;
    const replaced = await t.api.put(`/users/${id}`, { queueIds: [q2.id] }, a.admin.token);
    expect(replaced.status).toBe(200);
    expect(replaced.body.queues).toEqual([q2]);
    const renamed = await t.api.put(`/users/${id}`, { name: 'Still Queued' }, a.admin.token);
    expect(renamed.body.queues).toEqual([q2]);
    expect((await t.api.get(`/users/${id}`, a.admin.token)).body.queues).toEqual([q2]);
    // Sets that overlap the current one keep what stays, add what is new and drop what is gone.
    expect((await t.api.put(`/users/${id}`, { queueIds: [q2.id, q1.id] }, a.admin.token)).body.queues).toEqual([q1, q2]);
    expect((await t.api.get(`/users/${id}`, a.admin.token)).body.queues).toEqual([q1, q2]);
    expect((await t.api.put(`/users/${id}`, { queueIds: [q1.id] }, a.admin.token)).body.queues).toEqual([q1]);
    expect((await t.api.get(`/users/${id}`, a.admin.token)).body.queues).toEqual([q1]);
    expect((await t.api.put(`/users/${id}`, { queueIds: [] }, a.admin.token)).body.queues).toEqual([]);
    expect((await t.api.get(`/users/${id}`, a.admin.token)).body.queues).toEqual([]);
    await t.api.del(`/users/${id}`, a.admin.token);
  });

  it('refuses another company’s queue on update and keeps the queues', async () => {
    const created = await createUser(a.admin.token, { queueIds: [q1.id] });
    expect(await t.api.put(`/users/${created.body.id}`, { queueIds: [theirQueue.id] }, a.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_FOUND' },
    });
    expect(await t.api.put(`/users/${created.body.id}`, { name: 'Changed Too', queueIds: [q2.id, theirQueue.id] }, a.admin.token)).toMatchObject({
      status: 404,
    });
    const read = await t.api.get(`/users/${created.body.id}`, a.admin.token);
    expect(read.body.queues).toEqual([q1]);
    expect(read.body.name).not.toBe('Changed Too');
    await t.api.del(`/users/${created.body.id}`, a.admin.token);
  });

  it('accepts an agent’s form carrying their own queues, in any order, and refuses a different set', async () => {
    const email = uniqueEmail('agentform');
    const created = await createUser(a.admin.token, { email, queueIds: [q1.id, q2.id] });
    const login = await t.api.login(email, 'Secret-01x');
    const form = { name: 'Form Sender', email, password: '', profile: 'user', allTicket: 'desabled', whatsappId: '' };
    const ok = await t.api.put(`/users/${created.body.id}`, { ...form, queueIds: [q2.id, q1.id] }, login.token);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Form Sender', queues: [q1, q2], whatsappId: null });
    for (const queueIds of [[q1.id], [q1.id, q2.id, theirQueue.id], []]) {
      const res = await t.api.put(`/users/${created.body.id}`, { ...form, name: 'Sneaky', queueIds }, login.token);
      expect(res, JSON.stringify(queueIds)).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    }
    const read = await t.api.get(`/users/${created.body.id}`, a.admin.token);
    expect(read.body).toMatchObject({ name: 'Form Sender', queues: [q1, q2] });
    await t.api.del(`/users/${created.body.id}`, a.admin.token);
  });

  it('links a super user’s new user to queues of the target company only', async () => {
    expect(await createUser(t.superToken, { companyId: b.companyId, queueIds: [q1.id] })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_FOUND' },
    });
    const placed = await createUser(t.superToken, { companyId: b.companyId, queueIds: [theirQueue.id] });
    expect(placed.status).toBe(201);
    expect(placed.body.queues.map((q: any) => q.id)).toEqual([theirQueue.id]);
    expect((await t.api.put(`/users/${placed.body.id}`, { queueIds: [q1.id] }, t.superToken)).status).toBe(404);
    expect((await t.api.get(`/users/${placed.body.id}`, b.admin.token)).body.queues.map((q: any) => q.id)).toEqual([theirQueue.id]);
    await t.api.del(`/users/${placed.body.id}`, b.admin.token);
  });

  it('decides what an agent may see: a ticket of a queue is theirs only once they have the queue', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    const customer = `55118${Date.now().toString().slice(-8)}`;
    await customerSays(t.api, a.admin.token, wa.id, { from: customer, body: 'Quero comprar' });
    const ticket = await ticketOf(t.api, a.admin.token, customer);
    expect((await t.api.put(`/tickets/${ticket.id}`, { queueId: q1.id }, a.admin.token)).body.queueId).toBe(q1.id);
    const email = uniqueEmail('viewer');
    const created = await createUser(a.admin.token, { email });
    const login = await t.api.login(email, 'Secret-01x');
    expect((await t.api.get(`/tickets/${ticket.id}`, login.token)).status).toBe(403);
    expect((await t.api.put(`/users/${created.body.id}`, { queueIds: [q1.id] }, a.admin.token)).status).toBe(200);
    expect((await t.api.get(`/tickets/${ticket.id}`, login.token)).status).toBe(200);
    await t.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, a.admin.token);
    await t.api.del(`/users/${created.body.id}`, a.admin.token);
  });
});

describe('default connection (whatsappId)', () => {
  let own: number;
  let other: number;
  let theirs: number;
  beforeAll(async () => {
    const make = async (token: string) => {
      const res = await t.api.post('/whatsapp', { name: `Conn ${randomBytes(3).toString('hex')}`, provider: 'sandbox' }, token);
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    own = await make(a.admin.token);
    other = await make(a.admin.token);
    theirs = await make(b.admin.token);
  });

  it('takes the original form’s empty string or false as no connection', async () => {
    for (const whatsappId of ['', false, null]) {
      const res = await createUser(a.admin.token, { whatsappId });
      expect(res.status, JSON.stringify(whatsappId)).toBe(201);
      expect(res.body.whatsappId).toBeNull();
      await t.api.del(`/users/${res.body.id}`, a.admin.token);
    }
    const created = await createUser(a.admin.token, { whatsappId: own });
    expect(created.body.whatsappId).toBe(own);
    const cleared = await t.api.put(`/users/${created.body.id}`, { whatsappId: '' }, a.admin.token);
    expect(cleared.status).toBe(200);
    expect(cleared.body.whatsappId).toBeNull();
    expect((await t.api.put(`/users/${created.body.id}`, { whatsappId: String(other) }, a.admin.token)).body.whatsappId).toBe(other);
    expect((await t.api.put(`/users/${created.body.id}`, { whatsappId: false }, a.admin.token)).body.whatsappId).toBeNull();
    await t.api.del(`/users/${created.body.id}`, a.admin.token);
  });

  it('refuses anything that is not a connection id', async () => {
    for (const whatsappId of ['abc', true, -1, 1.5]) {
      const res = await createUser(a.admin.token, { whatsappId });
      expect(res.status, JSON.stringify(whatsappId)).toBe(400);
      expect(res.body.fields.map((f: any) => f.path)).toContain('whatsappId');
    }
  });

  it('refuses another company’s or an unknown connection with 404 ERR_NO_WAPP_FOUND', async () => {
    for (const whatsappId of [theirs, 999999]) {
      const email = uniqueEmail('badwapp');
      expect(await createUser(a.admin.token, { email, whatsappId })).toMatchObject({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
      expect((await usersOf(a.companyId)).some((u) => u.email === email)).toBe(false);
    }
    const created = await createUser(a.admin.token, { whatsappId: own });
    expect(await t.api.put(`/users/${created.body.id}`, { whatsappId: theirs }, a.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_WAPP_FOUND' },
    });
    expect((await t.api.get(`/users/${created.body.id}`, a.admin.token)).body.whatsappId).toBe(own);
    await t.api.del(`/users/${created.body.id}`, a.admin.token);
  });

  it('lets an agent send their own connection back but not change it', async () => {
    const email = uniqueEmail('agentwapp');
    const created = await createUser(a.admin.token, { email, whatsappId: own });
    const login = await t.api.login(email, 'Secret-01x');
    expect((await t.api.put(`/users/${created.body.id}`, { name: 'Keeps Conn', whatsappId: own, queueIds: [] }, login.token)).status).toBe(200);
    expect((await t.api.put(`/users/${created.body.id}`, { name: 'Keeps Conn', whatsappId: String(own) }, login.token)).status).toBe(200);
    for (const whatsappId of [other, '', null]) {
      expect(await t.api.put(`/users/${created.body.id}`, { whatsappId }, login.token)).toMatchObject({
        status: 403,
        body: { error: 'ERR_NO_PERMISSION' },
      });
    }
    expect((await t.api.get(`/users/${created.body.id}`, a.admin.token)).body.whatsappId).toBe(own);
    await t.api.del(`/users/${created.body.id}`, a.admin.token);
  });
});

describe('DELETE /users/{id} with tickets in progress', () => {
  it('puts the user’s open tickets back to pending without a user, live, and leaves closed ones closed', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    const email = uniqueEmail('leaver');
    const leaver = await createUser(a.admin.token, { email });
    const stamp = Date.now().toString().slice(-7);
    const talking = `551170${stamp}`;
    const done = `551171${stamp}`;
    await customerSays(t.api, a.admin.token, wa.id, { from: talking, body: 'Ainda preciso de ajuda' });
    await customerSays(t.api, a.admin.token, wa.id, { from: done, body: 'Obrigado' });
    const open = await ticketOf(t.api, a.admin.token, talking);
    const closed = await ticketOf(t.api, a.admin.token, done);
    expect((await t.api.put(`/tickets/${open.id}`, { status: 'open', userId: leaver.body.id }, a.admin.token)).body).toMatchObject({
      status: 'open',
      userId: leaver.body.id,
    });
    expect((await t.api.put(`/tickets/${closed.id}`, { status: 'open', userId: leaver.body.id }, a.admin.token)).status).toBe(200);
    expect((await t.api.put(`/tickets/${closed.id}`, { status: 'closed' }, a.admin.token)).body.status).toBe('closed');

    // One screen shows the waiting list, another the open list.
    const pendingList = await connectSocket(t.app.url, a.admin.token);
    const openList = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(pendingList, 'joinTickets', 'pending');
      await joined(openList, 'joinTickets', 'open');
      const pendingHeard: any[] = [];
      const openHeard: any[] = [];
      pendingList.on(`company-${a.companyId}-ticket`, (payload: any) => pendingHeard.push(payload));
      openList.on(`company-${a.companyId}-ticket`, (payload: any) => openHeard.push(payload));
      expect((await t.api.del(`/users/${leaver.body.id}`, a.admin.token)).status).toBe(200);
      await eventually(() => pendingHeard.some((u) => u.action === 'update' && u.ticket.id === open.id));
      expect(pendingHeard.find((u) => u.action === 'update' && u.ticket.id === open.id).ticket).toMatchObject({
        status: 'pending',
        userId: null,
        user: null,
      });
      // The open list drops it.
      await eventually(() => openHeard.some((u) => u.action === 'delete' && u.ticketId === open.id));
      const all = [...pendingHeard, ...openHeard];
      expect(all.some((u) => u.ticket?.id === closed.id || u.ticketId === closed.id)).toBe(false);
    } finally {
      pendingList.close();
      openList.close();
    }
    expect((await t.api.get(`/tickets/${open.id}`, a.admin.token)).body).toMatchObject({ status: 'pending', userId: null });
    // Its attendance cycle waits again, as after a Return.
    const cycles = await forSystem(t.app.orm.em).find(TicketTracking, { ticketId: open.id }, { orderBy: { id: 'asc' } });
    expect(cycles.at(-1)).toMatchObject({ finishedAt: null, startedAt: null, userId: null });
    expect(cycles.at(-1)!.queuedAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await t.api.get(`/tickets/${closed.id}`, a.admin.token)).body).toMatchObject({ status: 'closed', userId: null });
    // Someone else can take it.
    expect((await t.api.put(`/tickets/${open.id}`, { status: 'open' }, a.admin.token)).body).toMatchObject({
      status: 'open',
      userId: a.admin.id,
    });
    await t.api.put(`/tickets/${open.id}`, { status: 'closed' }, a.admin.token);
  });
});
