import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../../testing/expect.js';
import { createTenant, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';

let t: TestApp;
let a: Tenant;

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'Auth');
});
afterAll(() => t?.stop());

describe('POST /auth/login', () => {
  it('answers a token, a refresh token, the jrt cookie and the user with company, due date and settings', async () => {
    // Its own company: a login ends the user's other sessions, and the shared admin's token must stay alive.
    const c = await createTenant(t, 'Login');
    const res = await t.api.post('/auth/login', { email: c.admin.email, password: c.admin.password });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^ey/);
    expect(res.body.refreshToken).toMatch(/^[0-9a-f-]{36}\./);
    expect(res.headers.get('set-cookie')).toMatch(/jrt=.*httponly/i);
    expect(res.body.user).toMatchObject({ email: c.admin.email, profile: 'admin', companyId: c.companyId });
    expect(res.body.user.company.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.body.user.company.settings.map((s: any) => s.key)).toContain('userRating');
    expect(res.body.user).not.toHaveProperty('passwordHash');
  });

  it('gives one answer for an unknown email and a wrong password', async () => {
    const unknown = await t.api.post('/auth/login', { email: 'nobody@example.com', password: 'whatever' });
    const wrong = await t.api.post('/auth/login', { email: a.admin.email, password: 'wrong-password' });
    expect(unknown).toMatchObject({ status: 401, body: { error: 'ERR_INVALID_CREDENTIALS' } });
    expect(wrong).toMatchObject({ status: 401, body: { error: 'ERR_INVALID_CREDENTIALS' } });
  });

  it('refuses malformed input with the failing fields', async () => {
    const res = await t.api.post('/auth/login', { email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.fields.map((f: any) => f.path).sort()).toEqual(['email', 'password']);
    const bad = await t.api.request('POST', '/auth/login', { rawBody: '{"email":' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_JSON' } });
  });

  it('refuses an oversized body with 413', async () => {
    const res = await t.api.post('/auth/login', { email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) });
    expect(res).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
  });
});

describe('GET /auth/me', () => {
  it('answers the current user, and 401/403 without or with a bad token', async () => {
    const me = await t.api.get('/auth/me', a.admin.token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: a.admin.id, companyId: a.companyId });
    expect(await t.api.get('/auth/me')).toMatchObject({ status: 401, body: { error: 'ERR_SESSION_EXPIRED' } });
    expect(await t.api.get('/auth/me', 'not.a.jwt')).toMatchObject({ status: 403, body: { error: 'ERR_INVALID_TOKEN' } });
  });
});

describe('refresh and logout', () => {
  it('rotates the refresh token on every use and refuses a reused one', async () => {
    const login = await t.api.login(a.agent.email, a.agent.password);
    const first = await t.api.post('/auth/refresh_token', { refreshToken: login.refreshToken });
    expect(first.status).toBe(200);
    expect(first.body.refreshToken).not.toBe(login.refreshToken);
    expect(first.body.user.id).toBe(a.agent.id);
    const meWithNew = await t.api.get('/auth/me', first.body.token);
    expect(meWithNew.status).toBe(200);
    // Replaying the old token ends the session: it was stolen or duplicated.
    const replay = await t.api.post('/auth/refresh_token', { refreshToken: login.refreshToken });
    expect(replay).toMatchObject({ status: 401, body: { error: 'ERR_INVALID_REFRESH_TOKEN' } });
    const afterReplay = await t.api.post('/auth/refresh_token', { refreshToken: first.body.refreshToken });
    expect(afterReplay.status).toBe(401);
  });

  it('accepts the refresh token from the jrt cookie', async () => {
    const login = await t.api.post('/auth/login', { email: a.agent.email, password: a.agent.password });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const res = await t.api.request('POST', '/auth/refresh_token', { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/jrt=/);
  });

  it('logout revokes the session: its access and refresh tokens stop working', async () => {
    const login = await t.api.login(a.agent.email, a.agent.password);
    expect((await t.api.del('/auth/logout', login.token)).status).toBe(200);
    expect(await t.api.get('/auth/me', login.token)).toMatchObject({ status: 401, body: { error: 'ERR_SESSION_EXPIRED' } });
    expect((await t.api.post('/auth/refresh_token', { refreshToken: login.refreshToken })).status).toBe(401);
  });

  it('a new login ends the user’s other sessions', async () => {
    const first = await t.api.login(a.agent.email, a.agent.password);
    const second = await t.api.login(a.agent.email, a.agent.password);
    expect((await t.api.get('/auth/me', first.token)).status).toBe(401);
    expect((await t.api.get('/auth/me', second.token)).status).toBe(200);
  });

  it('a password change revokes the other sessions but keeps the one that changed it', async () => {
    // Its own company: the agent's password changes, and the other tests log in with theirs.
    const c = await createTenant(t, 'Password');
    const other = await t.api.login(c.agent.email, c.agent.password);
    const newPassword = 'N3w-password-1';
    const res = await t.api.put(`/users/${c.agent.id}`, { password: newPassword }, c.admin.token);
    expect(res.status).toBe(200);
    expect((await t.api.get('/auth/me', other.token)).status).toBe(401);
    expect((await t.api.get('/auth/me', c.admin.token)).status).toBe(200);
    expect((await t.api.post('/auth/login', { email: c.agent.email, password: c.agent.password })).status).toBe(401);
    expect((await t.api.post('/auth/login', { email: c.agent.email, password: newPassword })).status).toBe(200);
  });
});

describe('several sessions per user (company setting sessionsPerUser)', () => {
  const loginAs = async (user: { email: string; password: string }, device: string) => {
    const res = await t.api.request('POST', '/auth/login', { body: { email: user.email, password: user.password }, headers: { 'user-agent': device } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { token: string; refreshToken: string };
  };
  const alive = async (token: string) => (await t.api.get('/auth/me', token)).status === 200;

  it('by default one: the list shows only this session', async () => {
    const c = await createTenant(t, 'OneSession');
    const desktop = await loginAs(c.agent, 'Atrium Desktop (Electron)');
    const phone = await loginAs(c.agent, 'Mozilla/5.0 (iPhone)');
    expect(await alive(desktop.token)).toBe(false);
    const list = await t.api.get('/auth/sessions', phone.token);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ allowed: 1, sessions: [{ userAgent: 'Mozilla/5.0 (iPhone)', current: true }] });
    expect(list.body.sessions[0]).not.toHaveProperty('refreshHash');
  });

  it('allowed a few, a login ends only the least recently used over the limit; each is listed and can be ended', async () => {
    const c = await createTenant(t, 'FewSessions');
    expect((await t.api.put('/settings/sessionsPerUser', { value: '2' }, c.admin.token)).status).toBe(200);
    const desktop = await loginAs(c.agent, 'Atrium Desktop (Electron)');
    const phone = await loginAs(c.agent, 'Mozilla/5.0 (iPhone)');
    expect(await alive(desktop.token)).toBe(true);
    expect(await alive(phone.token)).toBe(true);
    // The desktop is used again: the phone is now the least recently used.
    const refreshed = await t.api.post('/auth/refresh_token', { refreshToken: desktop.refreshToken });
    expect(refreshed.status).toBe(200);
    const laptop = await loginAs(c.agent, 'Mozilla/5.0 (X11; Linux)');
    expect(await alive(phone.token)).toBe(false);
    expect(await alive(refreshed.body.token)).toBe(true);

    const list = await t.api.get('/auth/sessions', laptop.token);
    expect(list.body.allowed).toBe(2);
    expect(list.body.sessions.map((s: { userAgent: string; current: boolean }) => [s.userAgent, s.current])).toEqual([
      ['Mozilla/5.0 (X11; Linux)', true],
      ['Atrium Desktop (Electron)', false],
    ]);
    const desktopId = list.body.sessions[1].id as string;
    // Nobody else's: another user of the company, or of another company, does not find it.
    expectError(await t.api.del(`/auth/sessions/${desktopId}`, c.admin.token), 404, 'ERR_NOT_FOUND');
    expectError(await t.api.del(`/auth/sessions/${desktopId}`, a.admin.token), 404, 'ERR_NOT_FOUND');
    expectError(await t.api.del('/auth/sessions/not-a-uuid', laptop.token), 400, 'ERR_VALIDATION');
    expect(await alive(refreshed.body.token)).toBe(true);
    // Ended from the laptop: its tokens stop at once, the laptop's go on.
    expect((await t.api.del(`/auth/sessions/${desktopId}`, laptop.token)).status).toBe(204);
    expect(await alive(refreshed.body.token)).toBe(false);
    expect((await t.api.post('/auth/refresh_token', { refreshToken: refreshed.body.refreshToken })).status).toBe(401);
    expect(await alive(laptop.token)).toBe(true);
    expectError(await t.api.del(`/auth/sessions/${desktopId}`, laptop.token), 404, 'ERR_NOT_FOUND');
    expect((await t.api.get('/auth/sessions')).status).toBe(401);
  });
});

describe('expired or inactive companies', () => {
  it('refuses the login with the due date, and the API of a logged-in user once it passes', async () => {
    const c = await createTenant(t, 'Expired');
    const yesterday = new Date(Date.now() - 2 * 86400_000).toISOString().slice(0, 10);
    expect((await t.api.put(`/companies/${c.companyId}`, { dueDate: yesterday }, t.superToken)).status).toBe(200);
    const res = await t.api.post('/auth/login', { email: c.admin.email, password: c.admin.password });
    expect(res).toMatchObject({ status: 401, body: { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: yesterday } });
    expect(await t.api.get('/auth/me', c.agent.token)).toMatchObject({ status: 401, body: { error: 'ERR_SUBSCRIPTION_EXPIRED' } });
  });

  it('refuses a company switched off', async () => {
    const c = await createTenant(t, 'Inactive');
    await t.api.put(`/companies/${c.companyId}`, { status: false }, t.superToken);
    const res = await t.api.post('/auth/login', { email: c.admin.email, password: c.admin.password });
    expect(res).toMatchObject({ status: 401, body: { error: 'ERR_COMPANY_INACTIVE' } });
  });

  it('never locks out a super user', async () => {
    // A super user of its own, in a company switched off and past due: logging in as the shared SUPER
    // would end the session behind t.superToken, which the other tests use.
    const c = await createTenant(t, 'SuperLocked');
    const superUser = { email: `super-${c.companyId}@example.com`, password: 'Sup3r-own-pass' };
    const created = await t.api.post('/users', { name: 'Own super', ...superUser, profile: 'admin', super: true, companyId: c.companyId }, t.superToken);
    expect(created.status).toBe(201);
    const yesterday = new Date(Date.now() - 2 * 86400_000).toISOString().slice(0, 10);
    expect((await t.api.put(`/companies/${c.companyId}`, { dueDate: yesterday, status: false }, t.superToken)).status).toBe(200);
    expect((await t.api.post('/auth/login', superUser)).status).toBe(200);
  });
});

describe('rate limiting', () => {
  it('refuses further attempts for an email with 429 and Retry-After', async () => {
    const limited = await startTestApp({ LOGIN_MAX_PER_EMAIL: '3' });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await limited.api.post('/auth/login', { email: 'x@example.com', password: 'nope' })).status).toBe(401);
      }
      const res = await limited.api.post('/auth/login', { email: 'x@example.com', password: 'nope' });
      expect(res).toMatchObject({ status: 429, body: { error: 'ERR_TOO_MANY_REQUESTS' } });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another email is still served.
      expect((await limited.api.post('/auth/login', { email: 'y@example.com', password: 'nope' })).status).toBe(401);
    } finally {
      await limited.stop();
    }
  });

  it('behind a trusted proxy counts each client by the address the proxy adds, whatever the client claims', async () => {
    const limited = await startTestApp({ LOGIN_MAX_PER_IP: '2', TRUST_PROXY: 'true' });
    const from = (forwardedFor: string, n: number) =>
      limited.api.request('POST', '/auth/login', { body: { email: `ip${n}@example.com`, password: 'nope' }, headers: { 'x-forwarded-for': forwardedFor } });
    try {
      expect((await from('203.0.113.1', 1)).status).toBe(401);
      // A client that puts another address before its own is still itself.
      expect((await from('198.51.100.9, 203.0.113.1', 2)).status).toBe(401);
      expect((await from('203.0.113.1', 3)).status).toBe(429);
      // Another client behind the same proxy is served.
      expect((await from('203.0.113.2', 4)).status).toBe(401);
    } finally {
      await limited.stop();
    }
  });
});
