import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PLAN_FEATURES, SETTINGS, SETTING_KEYS, WEEKDAYS } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, customerSays } from '../../../testing/conversation.js';
import { createTenant, eventually, startTestApp, SUPER, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { expectBareError, expectInvalid } from '../../../testing/expect.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;
let planId: number;
let superCompanyId: number;

const uid = () => randomBytes(4).toString('hex');

/** yyyy-MM-dd today in a time zone, computed here rather than borrowed from the code under test. */
const today = (timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const plusDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const plusMonths = (day: string, n: number) => {
  const [y, m, d] = day.split('-').map(Number);
  const last = new Date(Date.UTC(y!, m! - 1 + n + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y!, m! - 1 + n, Math.min(d!, last))).toISOString().slice(0, 10);
};

/** An error answer that carries the code and nothing else: no row of another company rides along. */

/** The stored truth, read as super. */
const readCompany = async (id: number) => {
  const res = await t.api.get(`/companies/${id}`, t.superToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const companyNames = async (): Promise<string[]> =>
  (await t.api.get('/companies/list', t.superToken)).body.map((c: { name: string }) => c.name);
const settingsOf = (company: { settings: { key: string; value: string }[] }) =>
  Object.fromEntries(company.settings.map((s) => [s.key, s.value]));
const canLogIn = async (email: string, password: string) =>
  (await t.api.post('/auth/login', { email, password })).status === 200;

const signupBody = (overrides: Record<string, unknown> = {}) => {
  const id = uid();
  return { name: `Signup ${id}`, email: `owner-${id}@example.com`, password: 'Secret-1x', planId, ...overrides };
};

beforeAll(async () => {
  t = await startTestApp();
  planId = (await t.api.get('/plans/all', t.superToken)).body[0].id;
  superCompanyId = (await t.api.get('/auth/me', t.superToken)).body.companyId;
  a = await createTenant(t, 'Alpha');
  b = await createTenant(t, 'Beta');
});
afterAll(() => t?.stop());

describe('authentication on every private companies endpoint', () => {
  const endpoints: [string, string][] = [
    ['GET', '/companies'],
    ['GET', '/companies/list'],
    ['GET', '/companies/1'],
    ['GET', '/companies/listPlan/1'],
    ['POST', '/companies'],
    ['PUT', '/companies/1'],
    ['PUT', '/companies/1/schedules'],
    ['DELETE', '/companies/1'],
  ];
  it.each(endpoints)('%s %s answers 401 without a token and 403 with a forged one', async (method, url) => {
    const body = method === 'GET' ? undefined : {};
    expectBareError(await t.api.request(method, url, { body }), 401, 'ERR_SESSION_EXPIRED');
    expectBareError(await t.api.request(method, url, { body, token: 'not.a.jwt' }), 403, 'ERR_INVALID_TOKEN');
  });
});

describe('POST /companies/cadastro (public signup)', () => {
  it('creates the company on the server’s trial terms, whatever the form sends', async () => {
    const body = signupBody({
      email: `Owner-${uid()}@Example.COM`,
      phone: '(11) 98765-4321',
      recurrence: 'ANUAL',
      dueDate: '2099-12-31',
      status: false,
      campaignsEnabled: false,
      trialExpiration: '2099-12-31T00:00:00Z',
    });
    const before = Date.now();
    const res = await t.api.post('/companies/cadastro', body);
    const after = Date.now();
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const email = String(body.email).toLowerCase();
    expect(res.body).toMatchObject({
      name: body.name,
      email,
      phone: '11987654321',
      planId,
      status: true,
      recurrence: 'MENSAL',
      timezone: 'America/Sao_Paulo',
    });
    expect(res.body.dueDate).toBe(plusDays(today(res.body.timezone), 3));
    const trial = new Date(res.body.trialExpiration).getTime();
    expect(trial).toBeGreaterThanOrEqual(before + 3 * 86400_000 - 1000);
    expect(trial).toBeLessThanOrEqual(after + 3 * 86400_000 + 1000);

    // What was stored, not only what was answered.
    const stored = await readCompany(res.body.id);
    expect(stored).toMatchObject({ status: true, recurrence: 'MENSAL', dueDate: res.body.dueDate, planId });
    const settings = settingsOf(stored);
    expect(Object.keys(settings).sort()).toEqual([...SETTING_KEYS].sort());
    expect(settings.campaignsEnabled).toBe('true');
    expect(settings.userRating).toBe(SETTINGS.userRating.default);
    expect(stored.schedules).toEqual(WEEKDAYS.map((d) => ({ ...d, startTime: '', endTime: '' })));
    expect(stored.plan.id).toBe(planId);
  });

  it('makes the signer the company’s first admin, who can log in and is not a super user', async () => {
    const body = signupBody();
    const res = await t.api.post('/companies/cadastro', body);
    expect(res.status).toBe(201);
    const login = await t.api.login(String(body.email), String(body.password));
    expect(login.user).toMatchObject({
      name: body.name,
      email: body.email,
      profile: 'admin',
      super: false,
      companyId: res.body.id,
    });
    expect(login.user.company.dueDate).toBe(res.body.dueDate);
    expectBareError(await t.api.get('/companies', login.token), 403, 'ERR_NO_SUPER');
    const users = await t.api.get('/users', login.token);
    expect(users.status).toBe(200);
    expect(users.body.users.map((u: { email: string }) => u.email)).toEqual([body.email]);
  });

  it('ignores privilege fields smuggled into the form', async () => {
    const body = signupBody({ super: true, profile: 'admin', companyId: superCompanyId, id: superCompanyId });
    const res = await t.api.post('/companies/cadastro', body);
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(superCompanyId);
    const login = await t.api.login(String(body.email), String(body.password));
    expect(login.user.super).toBe(false);
    expect(login.user.companyId).toBe(res.body.id);
  });

  it('accepts any type for the fields the server decides, and no phone', async () => {
    const res = await t.api.post('/companies/cadastro', signupBody({ recurrence: 12, status: 't', dueDate: 'garbage', campaignsEnabled: null }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ recurrence: 'MENSAL', status: true, phone: null });
  });

  it('accepts the boundaries: name 2 and 50, password 8 and 50 (with a digit, a lower- and an upper-case letter), phone 11 digits', async () => {
    for (const overrides of [
      { name: `Q${uid().slice(0, 1)}`, password: 'Ab3-xyzw' },
      { name: `${'N'.repeat(42)}${uid()}`, password: `Ab3${'p'.repeat(47)}`, phone: '11987654321' },
    ]) {
      const res = await t.api.post('/companies/cadastro', signupBody(overrides));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.name).toBe(overrides.name);
    }
  });

  it('refuses one of the most used passwords with ERR_PASSWORD_TOO_COMMON, creating nothing', async () => {
    const namesBefore = await companyNames();
    const res = await t.api.post('/companies/cadastro', signupBody({ password: 'Passw0rd' }));
    expect(res).toMatchObject({ status: 400, body: { error: 'ERR_PASSWORD_TOO_COMMON' } });
    const bySuper = await t.api.post('/companies', { name: `Common ${uid()}`, email: `c-${uid()}@example.com`, password: 'Welcome1', planId }, t.superToken);
    expect(bySuper).toMatchObject({ status: 400, body: { error: 'ERR_PASSWORD_TOO_COMMON' } });
    expect(await companyNames()).toEqual(namesBefore);
  });

  it('refuses invalid input with the failing fields and creates nothing', async () => {
    const namesBefore = await companyNames();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'A' }, 'name'],
      [{ name: '   x   ' }, 'name'],
      [{ name: 'N'.repeat(51) }, 'name'],
      [{ name: undefined }, 'name'],
      [{ password: '1234' }, 'password'],
      [{ password: 'Abc-123' }, 'password'],
      [{ password: 'abcdef-123' }, 'password'],
      [{ password: 'ABCDEF-123' }, 'password'],
      [{ password: 'Abcdefgh-x' }, 'password'],
      [{ password: `Ab3${'p'.repeat(48)}` }, 'password'],
      [{ password: undefined }, 'password'],
      [{ email: 'not-an-email' }, 'email'],
      [{ email: undefined }, 'email'],
      [{ phone: '119876543210' }, 'phone'],
      [{ planId: 'abc' }, 'planId'],
      [{ planId: 0 }, 'planId'],
      [{ planId: -3 }, 'planId'],
      [{ planId: true }, 'planId'],
      [{ planId: undefined }, 'planId'],
    ];
    for (const [overrides, field] of cases) {
      const body = signupBody(overrides);
      const res = await t.api.post('/companies/cadastro', body);
      expectInvalid(res, field);
      if (typeof body.email === 'string' && typeof body.password === 'string') {
        expect(await canLogIn(body.email, body.password)).toBe(false);
      }
    }
    const all = await t.api.post('/companies/cadastro', {});
    expectInvalid(all, 'name', 'email', 'password', 'planId');
    expectBareError(await t.api.request('POST', '/companies/cadastro', { rawBody: '{"name":' }), 400, 'ERR_INVALID_JSON');
    expect(await companyNames()).toEqual(namesBefore);
  });

  it('refuses a plan that does not exist, creating nothing', async () => {
    const body = signupBody({ planId: 999999 });
    expectBareError(await t.api.post('/companies/cadastro', body), 404, 'ERR_NO_PLAN_FOUND');
    expect(await companyNames()).not.toContain(body.name);
    expect(await canLogIn(String(body.email), String(body.password))).toBe(false);
  });

  it('refuses a company name already taken (any case, any surrounding spaces) with 409, creating nothing', async () => {
    const taken = (await readCompany(a.companyId)).name as string;
    const namesBefore = await companyNames();
    for (const name of [taken, `  ${taken.toUpperCase()}  `]) {
      const body = signupBody({ name });
      expectBareError(await t.api.post('/companies/cadastro', body), 409, 'ERR_COMPANY_NAME_ALREADY_EXISTS');
      expect(await canLogIn(String(body.email), String(body.password))).toBe(false);
    }
    expect(await companyNames()).toEqual(namesBefore);
  });

  it('refuses an email that already belongs to a user (any case) with 409, creating nothing and changing no user', async () => {
    const body = signupBody({ email: a.agent.email.toUpperCase() });
    expectBareError(await t.api.post('/companies/cadastro', body), 409, 'ERR_EMAIL_ALREADY_EXISTS');
    expect(await companyNames()).not.toContain(body.name);
    // The agent keeps their password and company.
    const login = await t.api.login(a.agent.email, a.agent.password);
    expect(login.user.companyId).toBe(a.companyId);
    a.agent.token = login.token;
    expect(await canLogIn(a.agent.email, String(body.password))).toBe(false);
  });

  it('lets exactly one of several simultaneous signups with the same name through', async () => {
    const name = `Race ${uid()}`;
    const bodies = Array.from({ length: 4 }, () => signupBody({ name }));
    const results = await Promise.all(bodies.map((body) => t.api.post('/companies/cadastro', body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual({ error: 'ERR_COMPANY_NAME_ALREADY_EXISTS' });
    expect((await companyNames()).filter((n) => n === name)).toHaveLength(1);
    const logins = await Promise.all(bodies.map((body) => canLogIn(String(body.email), String(body.password))));
    expect(logins.filter(Boolean)).toHaveLength(1);
  });

  it('lets exactly one of several simultaneous signups with the same email through, leaving no orphan company', async () => {
    const prefix = `Same mail ${uid()}`;
    const email = `same-${uid()}@example.com`;
    const bodies = Array.from({ length: 4 }, (_, i) => signupBody({ name: `${prefix} ${i}`, email }));
    const results = await Promise.all(bodies.map((body) => t.api.post('/companies/cadastro', body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
    const search = await t.api.get(`/companies?searchParam=${encodeURIComponent(prefix)}`, t.superToken);
    expect(search.body.count).toBe(1);
    expect(search.body.companies[0].id).toBe(results.find((r) => r.status === 201)!.body.id);
  });
});

describe('GET /companies and GET /companies/list', () => {
  let prefix: string;
  const made: { id: number; name: string }[] = [];

  beforeAll(async () => {
    prefix = `Paged ${uid()}`;
    for (let i = 1; i <= 21; i++) {
      const res = await t.api.post(
        '/companies',
        { name: `${prefix} ${String(i).padStart(2, '0')}`, planId, ...(i === 7 ? { phone: '21912345678' } : {}) },
        t.superToken,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made.push({ id: res.body.id, name: res.body.name });
    }
  });

  it('refuses admins and agents with ERR_NO_SUPER', async () => {
    for (const token of [a.admin.token, a.agent.token]) {
      expectBareError(await t.api.get('/companies', token), 403, 'ERR_NO_SUPER');
      expectBareError(await t.api.get('/companies/list', token), 403, 'ERR_NO_SUPER');
    }
  });

  it('pages every company for the super user, 20 at a time, with count and hasMore', async () => {
    const first = await t.api.get(`/companies?searchParam=${encodeURIComponent(prefix)}`, t.superToken);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ count: 21, hasMore: true });
    expect(first.body.companies.map((c: { name: string }) => c.name)).toEqual(made.slice(0, 20).map((c) => c.name));
    const second = await t.api.get(`/companies?searchParam=${encodeURIComponent(prefix)}&pageNumber=2`, t.superToken);
    expect(second.body).toMatchObject({ count: 21, hasMore: false });
    expect(second.body.companies.map((c: { id: number }) => c.id)).toEqual([made[20]!.id]);
    const beyond = await t.api.get(`/companies?searchParam=${encodeURIComponent(prefix)}&pageNumber=3`, t.superToken);
    expect(beyond.body).toEqual({ companies: [], count: 21, hasMore: false });
  });

  it('lists companies of every tenant and searches name, email and phone', async () => {
    const all = await t.api.get('/companies?pageNumber=1', t.superToken);
    expect(all.body.count).toBeGreaterThanOrEqual(24);
    const list = await t.api.get('/companies/list', t.superToken);
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body).toHaveLength(all.body.count);
    const ids = list.body.map((c: { id: number }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([a.companyId, b.companyId, superCompanyId]));
    // Sorted by name: the paged companies (names differing only in their number) come in order.
    const paged = list.body.filter((c: { name: string }) => c.name.startsWith(prefix)).map((c: { id: number }) => c.id);
    expect(paged).toEqual(made.map((c) => c.id));

    const byPhone = await t.api.get('/companies?searchParam=912345', t.superToken);
    expect(byPhone.body.companies.map((c: { id: number }) => c.id)).toEqual([made[6]!.id]);
    const bName = (await readCompany(b.companyId)).name as string;
    const byName = await t.api.get(`/companies?searchParam=${encodeURIComponent(bName.toLowerCase())}`, t.superToken);
    expect(byName.body).toMatchObject({ count: 1, hasMore: false });
    expect(byName.body.companies[0].id).toBe(b.companyId);
    const byEmail = await t.api.get(`/companies?searchParam=${encodeURIComponent(a.admin.email)}`, t.superToken);
    expect(byEmail.body.companies.map((c: { id: number }) => c.id)).toEqual([a.companyId]);
  });

  it('treats % and _ in the search as plain characters', async () => {
    for (const term of ['%', '_', '%%']) {
      const res = await t.api.get(`/companies?searchParam=${encodeURIComponent(term)}`, t.superToken);
      expect(res.body).toEqual({ companies: [], count: 0, hasMore: false });
    }
  });

  it('refuses a bad page number', async () => {
    for (const p of ['0', '-1', 'abc', '1.5']) {
      expectInvalid(await t.api.get(`/companies?pageNumber=${p}`, t.superToken), 'pageNumber');
    }
  });
});

describe('GET /companies/{id}', () => {
  it('gives an admin their own company with plan, settings (secrets included) and the weekly schedule', async () => {
    await t.api.put('/settings/asaas', { value: 'alpha-payment-secret' }, a.admin.token);
    const res = await t.api.get(`/companies/${a.companyId}`, a.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.companyId, planId, plan: { id: planId } });
    expect(res.body.schedules).toHaveLength(7);
    expect(settingsOf(res.body).asaas).toBe('alpha-payment-secret');
    for (const s of res.body.settings) expect(s.companyId).toBe(a.companyId);
  });

  it('gives an agent their own company without secret settings', async () => {
    const res = await t.api.get(`/companies/${a.companyId}`, a.agent.token);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(a.companyId);
    expect(Object.keys(settingsOf(res.body))).not.toContain('asaas');
    expect(JSON.stringify(res.body)).not.toContain('alpha-payment-secret');
  });

  it('refuses another company to its admin and agent, the same way whether it exists or not', async () => {
    for (const token of [a.admin.token, a.agent.token]) {
      expectBareError(await t.api.get(`/companies/${b.companyId}`, token), 403, 'ERR_NO_SUPER');
      expectBareError(await t.api.get(`/companies/${superCompanyId}`, token), 403, 'ERR_NO_SUPER');
      expectBareError(await t.api.get('/companies/999999', token), 403, 'ERR_NO_SUPER');
    }
  });

  it('gives the super user any company', async () => {
    const res = await t.api.get(`/companies/${b.companyId}`, t.superToken);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(b.companyId);
    expect(res.body.settings.every((s: { companyId: number }) => s.companyId === b.companyId)).toBe(true);
  });

  it('answers 400 for a malformed id and 404 for a missing one', async () => {
    // Beyond PostgreSQL's integer is malformed too, not merely missing.
    for (const id of ['abc', '0', '-1', '1.5', '%20', '99999999999']) {
      expectInvalid(await t.api.get(`/companies/${id}`, t.superToken), 'id');
    }
    expectBareError(await t.api.get('/companies/999999', t.superToken), 404, 'ERR_NO_COMPANY_FOUND');
  });
});

describe('GET /companies/listPlan/{companyId}', () => {
  it('gives the own company’s plan with every use* flag to its admin and agent', async () => {
    for (const token of [a.admin.token, a.agent.token]) {
      const res = await t.api.get(`/companies/listPlan/${a.companyId}`, token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: a.companyId, planId, plan: { id: planId } });
      for (const flag of PLAN_FEATURES) expect(typeof res.body.plan[flag]).toBe('boolean');
      for (const key of ['users', 'connections', 'queues', 'value']) expect(typeof res.body.plan[key]).toBe('number');
    }
  });

  it('refuses another company to admins and agents, and gives any to the super user', async () => {
    for (const token of [a.admin.token, a.agent.token, b.admin.token]) {
      const other = token === b.admin.token ? a.companyId : b.companyId;
      expectBareError(await t.api.get(`/companies/listPlan/${other}`, token), 403, 'ERR_NO_SUPER');
      expectBareError(await t.api.get('/companies/listPlan/999999', token), 403, 'ERR_NO_SUPER');
    }
    const res = await t.api.get(`/companies/listPlan/${b.companyId}`, t.superToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: b.companyId, plan: { id: planId } });
  });

  it('answers 400 for a malformed id and 404 for a missing one', async () => {
    for (const id of ['abc', '0', '-5']) expectInvalid(await t.api.get(`/companies/listPlan/${id}`, t.superToken), 'companyId');
    expectBareError(await t.api.get('/companies/listPlan/999999', t.superToken), 404, 'ERR_NO_COMPANY_FOUND');
  });
});

describe('POST /companies', () => {
  it('refuses admins and agents with ERR_NO_SUPER and creates nothing', async () => {
    const name = `Sneaky ${uid()}`;
    for (const token of [a.admin.token, a.agent.token]) {
      expectBareError(await t.api.post('/companies', { name, planId }, token), 403, 'ERR_NO_SUPER');
    }
    expect(await companyNames()).not.toContain(name);
  });

  it('creates a company with its first admin when email and password are given', async () => {
    const id = uid();
    const body = { name: `Created ${id}`, email: `boss-${id}@example.com`, password: 'Boss-pass-1', planId };
    const res = await t.api.post('/companies', body, t.superToken);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ name: body.name, email: body.email, status: true, recurrence: 'MENSAL', planId });
    expect(res.body.dueDate).toBe(plusMonths(today(res.body.timezone), 1));
    const stored = await readCompany(res.body.id);
    expect(stored.schedules).toHaveLength(7);
    expect(Object.keys(settingsOf(stored)).sort()).toEqual([...SETTING_KEYS].sort());
    expect(settingsOf(stored).campaignsEnabled).toBe('true');
    const login = await t.api.login(body.email, body.password);
    expect(login.user).toMatchObject({ profile: 'admin', super: false, companyId: res.body.id });
  });

  it('keeps the terms the super user chooses', async () => {
    const res = await t.api.post(
      '/companies',
      {
        name: `Terms ${uid()}`,
        planId: String(planId),
        phone: '(21) 3333-4444',
        status: 'f',
        dueDate: '2031-05-17',
        recurrence: 'ANUAL',
        campaignsEnabled: false,
        timezone: 'Europe/Lisbon',
      },
      t.superToken,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const stored = await readCompany(res.body.id);
    expect(stored).toMatchObject({
      phone: '2133334444',
      status: false,
      dueDate: '2031-05-17',
      recurrence: 'ANUAL',
      timezone: 'Europe/Lisbon',
      planId,
    });
    expect(settingsOf(stored).campaignsEnabled).toBe('false');
    const trimestral = await t.api.post('/companies', { name: `Quarter ${uid()}`, planId, recurrence: 'TRIMESTRAL' }, t.superToken);
    expect(trimestral.body.dueDate).toBe(plusMonths(today(trimestral.body.timezone), 3));
  });

  it('creates no user without a password', async () => {
    const email = `nobody-${uid()}@example.com`;
    const res = await t.api.post('/companies', { name: `No admin ${uid()}`, email, planId }, t.superToken);
    expect(res.status).toBe(201);
    expect(res.body.email).toBe(email);
    expect(await canLogIn(email, 'whatever')).toBe(false);
    // The email is still free for a user.
    expect((await t.api.post('/companies/cadastro', signupBody({ email }))).status).toBe(201);
  });

  it('refuses a taken name or a taken admin email with 409 and creates nothing', async () => {
    const aName = (await readCompany(a.companyId)).name as string;
    expectBareError(await t.api.post('/companies', { name: aName.toLowerCase(), planId }, t.superToken), 409, 'ERR_COMPANY_NAME_ALREADY_EXISTS');
    const name = `Dup mail ${uid()}`;
    const dup = await t.api.post('/companies', { name, email: b.admin.email, password: 'Another-1x', planId }, t.superToken);
    expectBareError(dup, 409, 'ERR_EMAIL_ALREADY_EXISTS');
    expect(await companyNames()).not.toContain(name);
    expect(await canLogIn(b.admin.email, 'Another-1x')).toBe(false);
  });

  it('refuses invalid input with the failing fields and creates nothing', async () => {
    const before = await companyNames();
    expectInvalid(await t.api.post('/companies', {}, t.superToken), 'name', 'planId');
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x' }, 'name'],
      [{ recurrence: 'WEEKLY' }, 'recurrence'],
      [{ timezone: 'Mars/Olympus_Mons' }, 'timezone'],
      [{ status: 'maybe' }, 'status'],
      [{ dueDate: 'not-a-date' }, 'dueDate'],
      [{ email: 'nope' }, 'email'],
      [{ email: `ok-${uid()}@example.com`, password: '123' }, 'password'],
      [{ phone: '123456789012' }, 'phone'],
      [{ planId: 'abc' }, 'planId'],
    ];
    for (const [overrides, field] of cases) {
      expectInvalid(await t.api.post('/companies', { name: `Bad ${uid()}`, planId, ...overrides }, t.superToken), field);
    }
    expectBareError(await t.api.post('/companies', { name: `No plan ${uid()}`, planId: 999999 }, t.superToken), 404, 'ERR_NO_PLAN_FOUND');
    expect(await companyNames()).toEqual(before);
  });
});

describe('PUT /companies/{id}', () => {
  it('refuses admins and agents, for their own company and another, and changes nothing', async () => {
    const ownBefore = await readCompany(a.companyId);
    const otherBefore = await readCompany(b.companyId);
    const change = { name: `Hijacked ${uid()}`, dueDate: '2099-12-31', status: true, planId, campaignsEnabled: false };
    for (const token of [a.admin.token, a.agent.token]) {
      expectBareError(await t.api.put(`/companies/${a.companyId}`, change, token), 403, 'ERR_NO_SUPER');
      expectBareError(await t.api.put(`/companies/${b.companyId}`, change, token), 403, 'ERR_NO_SUPER');
    }
    expect(await readCompany(a.companyId)).toEqual(ownBefore);
    expect(await readCompany(b.companyId)).toEqual(otherBefore);
  });

  it('lets the super user change every field, and the campaignsEnabled setting with them', async () => {
    const c = (await t.api.post('/companies', { name: `Editable ${uid()}`, planId }, t.superToken)).body;
    const plan = await t.api.post('/plans', { name: `Edit plan ${uid()}`, users: 3 }, t.superToken);
    const change = {
      name: `Edited ${uid()}`,
      email: `edited-${uid()}@example.com`,
      phone: '(31) 99999-0000',
      planId: plan.body.id,
      status: false,
      dueDate: '2030-01-31',
      recurrence: 'SEMESTRAL',
      timezone: 'America/Manaus',
      billingName: 'Edited Ltda',
      campaignsEnabled: false,
    };
    const res = await t.api.put(`/companies/${c.id}`, change, t.superToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = await readCompany(c.id);
    const { campaignsEnabled, phone: _phone, ...fields } = change;
    expect(stored).toMatchObject({ ...fields, phone: '31999990000' });
    expect(stored.plan.id).toBe(plan.body.id);
    expect(settingsOf(stored).campaignsEnabled).toBe(String(campaignsEnabled));
    expect(res.body).toMatchObject({ ...fields });
  });

  it('changes only the fields sent', async () => {
    const c = (await t.api.post('/companies', { name: `Partial ${uid()}`, planId, email: `p-${uid()}@example.com`, phone: '11911112222' }, t.superToken)).body;
    const before = await readCompany(c.id);
    expect((await t.api.put(`/companies/${c.id}`, { billingName: 'Only this' }, t.superToken)).status).toBe(200);
    const after = await readCompany(c.id);
    const strip = ({ updatedAt: _u, billingName: _b, ...rest }: Record<string, unknown>) => rest;
    expect(strip(after)).toEqual(strip(before));
    expect(after.billingName).toBe('Only this');
    // An empty email clears it.
    expect((await t.api.put(`/companies/${c.id}`, { email: '' }, t.superToken)).status).toBe(200);
    expect((await readCompany(c.id)).email).toBeNull();
  });

  it('refuses another company’s name with 409, but accepts the own name in another case', async () => {
    const c = (await t.api.post('/companies', { name: `Rename ${uid()}`, planId }, t.superToken)).body;
    const before = await readCompany(c.id);
    const bName = (await readCompany(b.companyId)).name as string;
    expectBareError(await t.api.put(`/companies/${c.id}`, { name: bName.toUpperCase(), billingName: 'x' }, t.superToken), 409, 'ERR_COMPANY_NAME_ALREADY_EXISTS');
    expect(await readCompany(c.id)).toEqual(before);
    const res = await t.api.put(`/companies/${c.id}`, { name: c.name.toUpperCase() }, t.superToken);
    expect(res.status).toBe(200);
    expect((await readCompany(c.id)).name).toBe(c.name.toUpperCase());
  });

  it('refuses invalid input and a missing plan, changing nothing', async () => {
    const before = await readCompany(b.companyId);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x' }, 'name'],
      [{ dueDate: 'soon' }, 'dueDate'],
      [{ recurrence: 'DAILY' }, 'recurrence'],
      [{ timezone: 'Nowhere/Land' }, 'timezone'],
      [{ status: 'yes' }, 'status'],
      [{ email: 'bad@' }, 'email'],
      [{ planId: 'abc' }, 'planId'],
      [{ planId: 0 }, 'planId'],
    ];
    for (const [body, field] of cases) {
      expectInvalid(await t.api.put(`/companies/${b.companyId}`, { billingName: 'changed', ...body }, t.superToken), field);
    }
    expectBareError(await t.api.put(`/companies/${b.companyId}`, { planId: 999999, billingName: 'changed' }, t.superToken), 404, 'ERR_NO_PLAN_FOUND');
    expect(await readCompany(b.companyId)).toEqual(before);
  });

  it('answers 400 for a malformed id and 404 for a missing one', async () => {
    expectInvalid(await t.api.put('/companies/abc', { billingName: 'x' }, t.superToken), 'id');
    expectBareError(await t.api.put('/companies/999999', { billingName: 'x' }, t.superToken), 404, 'ERR_NO_COMPANY_FOUND');
  });
});

describe('PUT /companies/{id}/schedules', () => {
  const week = (rows: Record<string, unknown>[]) => ({ schedules: rows });
  const hours = (company: { schedules: { weekdayEn: string; startTime: string; endTime: string }[] }) =>
    Object.fromEntries(company.schedules.map((s) => [s.weekdayEn, `${s.startTime}-${s.endTime}`]));

  it('lets an admin set the own company’s hours, day by day', async () => {
    // A company of its own: the whole week is asserted, and other tests here set days of theirs.
    const own = await createTenant(t, 'Hours');
    const res = await t.api.put(
      `/companies/${own.companyId}/schedules`,
      week([
        { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
        { weekdayEn: 'saturday', startTime: '09:00', endTime: '12:30' },
      ]),
      own.admin.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toHaveLength(7);
    const stored = await readCompany(own.companyId);
    expect(hours(stored)).toEqual({
      monday: '08:00-18:00',
      tuesday: '-',
      wednesday: '-',
      thursday: '-',
      friday: '-',
      saturday: '09:00-12:30',
      sunday: '-',
    });
    expect(stored.schedules.map((s: { weekday: string }) => s.weekday)).toEqual(WEEKDAYS.map((d) => d.weekday));
    // Sending a day again replaces its hours; the others stay.
    await t.api.put(`/companies/${own.companyId}/schedules`, week([{ weekdayEn: 'monday', startTime: '', endTime: '' }]), own.admin.token);
    expect(hours(await readCompany(own.companyId))).toMatchObject({ monday: '-', saturday: '09:00-12:30' });
  });

  it('keeps the weekday label matching weekdayEn, whatever label is sent', async () => {
    await t.api.put(`/companies/${a.companyId}/schedules`, week([{ weekday: 'Domingo', weekdayEn: 'tuesday', startTime: '10:00', endTime: '11:00' }]), a.admin.token);
    const tuesday = (await readCompany(a.companyId)).schedules.find((s: { weekdayEn: string }) => s.weekdayEn === 'tuesday');
    expect(tuesday).toEqual({ weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '10:00', endTime: '11:00' });
  });

  it('refuses an agent of the own company, and the admin and agent of another, changing nothing', async () => {
    const ownBefore = await readCompany(a.companyId);
    const otherBefore = await readCompany(b.companyId);
    const body = week([{ weekdayEn: 'sunday', startTime: '00:00', endTime: '23:59' }]);
    expectBareError(await t.api.put(`/companies/${a.companyId}/schedules`, body, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectBareError(await t.api.put(`/companies/${b.companyId}/schedules`, body, a.admin.token), 403, 'ERR_NO_SUPER');
    expectBareError(await t.api.put(`/companies/${b.companyId}/schedules`, body, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectBareError(await t.api.put(`/companies/999999/schedules`, body, a.admin.token), 403, 'ERR_NO_SUPER');
    expect(await readCompany(a.companyId)).toEqual(ownBefore);
    expect(await readCompany(b.companyId)).toEqual(otherBefore);
  });

  it('lets the super user set any company’s hours', async () => {
    const res = await t.api.put(`/companies/${b.companyId}/schedules`, week([{ weekdayEn: 'friday', startTime: '07:15', endTime: '16:45' }]), t.superToken);
    expect(res.status).toBe(200);
    expect(hours(await readCompany(b.companyId)).friday).toBe('07:15-16:45');
    // Company A's schedule is untouched by a write to B.
    expect(hours(await readCompany(a.companyId)).friday).toBe('-');
  });

  it('refuses times that are not HH:MM and malformed lists, changing nothing', async () => {
    const before = await readCompany(a.companyId);
    const bad: [unknown, string][] = [
      [week([{ weekdayEn: 'monday', startTime: '25:00', endTime: '26:00' }]), 'schedules.0.startTime'],
      [week([{ weekdayEn: 'monday', startTime: '8:00', endTime: '18:00' }]), 'schedules.0.startTime'],
      [week([{ weekdayEn: 'monday', startTime: '08:00', endTime: '18:60' }]), 'schedules.0.endTime'],
      [week([{ weekdayEn: 'monday', startTime: '0800', endTime: '1800' }]), 'schedules.0.startTime'],
      [week([{ weekdayEn: 'monday', startTime: 800, endTime: '18:00' }]), 'schedules.0.startTime'],
      [week([{ weekdayEn: 'monday', startTime: '08:00:00', endTime: '18:00' }]), 'schedules.0.startTime'],
      [week([{ weekdayEn: 'funday', startTime: '08:00', endTime: '18:00' }]), 'schedules.0.weekdayEn'],
      [week([{ startTime: '08:00', endTime: '18:00' }]), 'schedules.0.weekdayEn'],
      [week([{ weekdayEn: 'monday', startTime: '08:00' }, { weekdayEn: 'monday', startTime: '09:00' }]), 'schedules'],
      [week([...WEEKDAYS, WEEKDAYS[0]].map((d) => ({ weekdayEn: d.weekdayEn, startTime: '08:00' }))), 'schedules'],
      [{}, 'schedules'],
      [{ schedules: 'monday' }, 'schedules'],
    ];
    for (const [body, field] of bad) {
      expectInvalid(await t.api.put(`/companies/${a.companyId}/schedules`, body, a.admin.token), field);
    }
    expect(await readCompany(a.companyId)).toEqual(before);
  });

  it('answers 400 for a malformed id and 404 for a missing one', async () => {
    const body = week([{ weekdayEn: 'monday', startTime: '08:00', endTime: '09:00' }]);
    expectInvalid(await t.api.put('/companies/abc/schedules', body, t.superToken), 'id');
    expectBareError(await t.api.put('/companies/999999/schedules', body, t.superToken), 404, 'ERR_NO_COMPANY_FOUND');
  });
});

describe('DELETE /companies/{id}', () => {
  it('refuses admins and agents, for their own company and another, deleting nothing', async () => {
    const c = await createTenant(t, 'Keep');
    for (const token of [c.admin.token, c.agent.token]) {
      expectBareError(await t.api.del(`/companies/${c.companyId}`, token), 403, 'ERR_NO_SUPER');
      expectBareError(await t.api.del(`/companies/${b.companyId}`, token), 403, 'ERR_NO_SUPER');
    }
    await readCompany(c.companyId);
    await readCompany(b.companyId);
    expect((await t.api.get('/auth/me', c.admin.token)).status).toBe(200);
    expect((await t.api.get('/auth/me', b.admin.token)).status).toBe(200);
  });

  it('a deleted company’s phone sessions stop and its media files are removed', async () => {
    const c = await createTenant(t, 'Gone');
    const wa = await connectSandbox(t.api, c.admin.token);
    const png = { mimetype: 'image/png', filename: 'a.png', base64: Buffer.from('\x89PNG\r\n\x1a\nx').toString('base64') };
    await customerSays(t.api, c.admin.token, wa.id, { from: '5511944443333', body: 'foto', media: png });
    const [row] = await t.app.orm.em.fork().getConnection().execute('select media_url from messages where whatsapp_id = ?', [wa.id]);
    const folder = path.join(t.app.config.dataDir, 'media', String(c.companyId));
    expect(await t.app.media.exists(c.companyId, row.media_url)).toBe(true);
    expect(existsSync(folder)).toBe(true);
    expect(t.app.channels.find(wa.id)).toBeDefined();

    expect((await t.api.del(`/companies/${c.companyId}`, t.superToken)).status).toBe(200);
    await eventually(() => t.app.channels.find(wa.id) === undefined && !existsSync(folder));
    expect(await t.app.media.exists(c.companyId, row.media_url)).toBe(false);
  });

  it('deletes a company with its users: they can neither log in nor use their tokens', async () => {
    const c = await createTenant(t, 'Doomed');
    const name = (await readCompany(c.companyId)).name as string;
    const res = await t.api.del(`/companies/${c.companyId}`, t.superToken);
    expect(res.status).toBe(200);
    expectBareError(await t.api.get(`/companies/${c.companyId}`, t.superToken), 404, 'ERR_NO_COMPANY_FOUND');
    expect(await companyNames()).not.toContain(name);
    for (const user of [c.admin, c.agent]) {
      expectBareError(await t.api.post('/auth/login', { email: user.email, password: user.password }), 401, 'ERR_INVALID_CREDENTIALS');
      expectBareError(await t.api.get('/auth/me', user.token), 401, 'ERR_SESSION_EXPIRED');
    }
    // The name and the emails are free again.
    const again = await t.api.post('/companies/cadastro', signupBody({ name, email: c.admin.email }));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expectBareError(await t.api.del(`/companies/${c.companyId}`, t.superToken), 404, 'ERR_NO_COMPANY_FOUND');
    // Other tenants are untouched.
    expect((await t.api.get('/auth/me', b.agent.token)).status).toBe(200);
  });

  it('refuses to delete a company that has a super user', async () => {
    expectBareError(await t.api.del(`/companies/${superCompanyId}`, t.superToken), 409, 'ERR_COMPANY_HAS_SUPER_USER');
    await readCompany(superCompanyId);
    expect((await t.api.get('/auth/me', t.superToken)).status).toBe(200);
    // A new login ends the other sessions: keep the fresh token for the tests that follow.
    t.superToken = (await t.api.login(SUPER.email, SUPER.password)).token;
  });

  it('answers 400 for a malformed id and 404 for a missing one', async () => {
    expectInvalid(await t.api.del('/companies/abc', t.superToken), 'id');
    expectBareError(await t.api.del('/companies/999999', t.superToken), 404, 'ERR_NO_COMPANY_FOUND');
  });
});
