import { SETTING_KEYS, SETTINGS } from '@atrium/shared';
import { backfillDefaultSettings } from './settings.service.js';
import { Setting } from './setting.entity.js';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../../db/tenant.js';
import { connectSocket, createTenant, nextEvent, startTestApp, watch, type Tenant, type TestApp } from '../../../testing/helpers.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;
const sockets: Socket[] = [];

const settingsOf = async (token: string): Promise<Record<string, string>> => {
  const res = await t.api.get('/settings', token);
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.map((s: any) => [s.key, s.value]));
};

const socketFor = async (token: string) => {
  const socket = await connectSocket(t.app.url, token);
  sockets.push(socket);
  return socket;
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'SetA');
  b = await createTenant(t, 'SetB');
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('GET /settings', () => {
  it('gives an admin of a new company every key with its default, once each', async () => {
    // A company of its own: the other tests change A's and B's settings.
    const fresh = await createTenant(t, 'SetNew');
    const res = await t.api.get('/settings', fresh.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.map((s: any) => s.key).sort()).toEqual([...SETTING_KEYS].sort());
    for (const setting of res.body) {
      expect(setting.value).toBe(SETTINGS[setting.key as keyof typeof SETTINGS].default);
      expect(setting.companyId).toBe(fresh.companyId);
    }
    // Spot checks against the spec: groups are dropped by default, ratings off, text chatbot.
    expect(await settingsOf(fresh.admin.token)).toMatchObject({ CheckMsgIsGroup: 'enabled', userRating: 'disabled', chatBotType: 'text', asaas: '' });
  });

  it('hides the secret asaas token from agents and shows it to admins', async () => {
    expect((await t.api.put('/settings/asaas', { value: 'tok_live_123' }, a.admin.token)).status).toBe(200);
    const asAgent = await t.api.get('/settings', a.agent.token);
    expect(asAgent.status).toBe(200);
    expect(asAgent.body.map((s: any) => s.key).sort()).toEqual(SETTING_KEYS.filter((k) => k !== 'asaas').sort());
    expect(JSON.stringify(asAgent.body)).not.toContain('tok_live_123');
    expect((await settingsOf(a.admin.token)).asaas).toBe('tok_live_123');
    // Nor does the agent see it in the login answer or /auth/me.
    const login = await t.api.post('/auth/login', { email: a.agent.email, password: a.agent.password });
    a.agent.token = login.body.token;
    expect(JSON.stringify(login.body)).not.toContain('tok_live_123');
    const adminLogin = await t.api.post('/auth/login', { email: a.admin.email, password: a.admin.password });
    a.admin.token = adminLogin.body.token;
    expect(adminLogin.body.user.company.settings.find((s: any) => s.key === 'asaas').value).toBe('tok_live_123');
  });

  it('lists a key the company lacks (added by a later version) once the server has started', async () => {
    // A company of its own, since its rows are changed behind the API's back.
    const c = await createTenant(t, 'SetBackfill');
    const em = forSystem(t.app.orm.em);
    await em.nativeDelete(Setting, { companyId: c.companyId, key: 'sendGreetingMessageOneQueues' });
    await em.nativeUpdate(Setting, { companyId: c.companyId, key: 'userRating' }, { value: 'enabled' });
    expect(await settingsOf(c.admin.token)).not.toHaveProperty('sendGreetingMessageOneQueues');
    // What start-up runs; it adds the missing key and leaves existing values alone.
    await backfillDefaultSettings(forSystem(t.app.orm.em));
    expect(await settingsOf(c.admin.token)).toMatchObject({ sendGreetingMessageOneQueues: 'disabled', userRating: 'enabled' });
    expect(await t.api.get('/settings', c.admin.token).then((r) => r.body.length)).toBe(SETTING_KEYS.length);
  });

  it('needs a login', async () => {
    expect(await t.api.get('/settings')).toMatchObject({ status: 401, body: { error: 'ERR_SESSION_EXPIRED' } });
  });
});

describe('PUT /settings/{key}', () => {
  it('lets an admin change a setting, which GET then shows', async () => {
    const res = await t.api.put('/settings/userRating', { key: 'userRating', value: 'enabled' }, a.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ key: 'userRating', value: 'enabled', companyId: a.companyId });
    expect((await settingsOf(a.agent.token)).userRating).toBe('enabled');
    expect((await t.api.put('/settings/scheduleType', { value: 'queue' }, a.admin.token)).body.value).toBe('queue');
    // campaignsEnabled may come as a boolean.
    expect((await t.api.put('/settings/campaignsEnabled', { value: false }, a.admin.token)).body.value).toBe('false');
    expect(await settingsOf(a.admin.token)).toMatchObject({ userRating: 'enabled', scheduleType: 'queue', campaignsEnabled: 'false' });
  });

  it('refuses an agent with 403 and changes nothing', async () => {
    const before = await settingsOf(a.admin.token);
    expect(await t.api.put('/settings/call', { value: 'enabled' }, a.agent.token)).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });
    expect(await t.api.put('/settings/asaas', { value: 'agent-token' }, a.agent.token)).toMatchObject({ status: 403 });
    expect(await settingsOf(a.admin.token)).toEqual(before);
  });

  it('answers 404 ERR_NO_SETTING_FOUND for an unknown key and creates none', async () => {
    for (const key of ['noSuchKey', 'constructor', '__proto__', 'USERRATING']) {
      const res = await t.api.put(`/settings/${key}`, { value: 'enabled' }, a.admin.token);
      expect(res, key).toMatchObject({ status: 404, body: { error: 'ERR_NO_SETTING_FOUND' } });
    }
    expect(Object.keys(await settingsOf(a.admin.token)).sort()).toEqual([...SETTING_KEYS].sort());
  });

  it('answers 400 ERR_INVALID_SETTING_VALUE for a value outside the key’s list', async () => {
    const before = await settingsOf(a.admin.token);
    for (const [key, value] of [
      ['userRating', 'maybe'],
      ['chatBotType', 'voice'],
      ['scheduleType', 'enabled'],
      ['campaignsEnabled', 'yes'],
      ['CheckMsgIsGroup', ''],
    ]) {
      const res = await t.api.put(`/settings/${key}`, { value }, a.admin.token);
      expect(res, `${key}=${value}`).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_SETTING_VALUE' } });
    }
    expect((await t.api.put('/settings/userRating', {}, a.admin.token)).status).toBe(400);
    expect((await t.api.put('/settings/asaas', { value: 'x'.repeat(501) }, a.admin.token)).status).toBe(400);
    expect(await settingsOf(a.admin.token)).toEqual(before);
  });

  it('emits company-{id}-settings {action: update, setting} to that company only', async () => {
    const adminA = await socketFor(a.admin.token);
    const agentA = await socketFor(a.agent.token);
    const adminB = await socketFor(b.admin.token);
    const seenByAdmin = nextEvent(adminA, `company-${a.companyId}-settings`);
    const seenByAgent = nextEvent(agentA, `company-${a.companyId}-settings`);
    const leakedToB = watch(adminB, [`company-${a.companyId}-settings`, `company-${b.companyId}-settings`]);
    expect((await t.api.put('/settings/sendMsgTransfTicket', { value: 'enabled' }, a.admin.token)).status).toBe(200);
    const event = await seenByAdmin;
    expect(event).toMatchObject({ action: 'update', setting: { key: 'sendMsgTransfTicket', value: 'enabled' } });
    expect(await seenByAgent).toMatchObject({ action: 'update', setting: { key: 'sendMsgTransfTicket' } });
    // The sentinel: B's admin saves their own agent, unchanged; company-{B}-user goes out while that request runs.
    expect((await t.api.put(`/users/${b.agent.id}`, {}, b.admin.token)).status).toBe(200);
    expect(await leakedToB.before(`company-${b.companyId}-user`)).toEqual([]);
  });

  it('never broadcasts the secret’s value, since agents share the company room', async () => {
    const agentA = await socketFor(a.agent.token);
    const seen = nextEvent(agentA, `company-${a.companyId}-settings`);
    expect((await t.api.put('/settings/asaas', { value: 'tok_secret_456' }, a.admin.token)).status).toBe(200);
    const event = await seen;
    expect(event.setting.key).toBe('asaas');
    expect(JSON.stringify(event)).not.toContain('tok_secret_456');
  });
});

describe('isolation', () => {
  it('one company’s changes never show in another’s settings', async () => {
    // The other company is one of its own: the test asserts its defaults, and changes one.
    const other = await createTenant(t, 'SetIso');
    const before = await settingsOf(other.admin.token);
    await t.api.put('/settings/chatBotType', { value: 'list' }, a.admin.token);
    await t.api.put('/settings/call', { value: 'enabled' }, a.admin.token);
    expect((await settingsOf(a.admin.token)).chatBotType).toBe('list');
    expect(await settingsOf(other.admin.token)).toEqual(before);
    expect((await settingsOf(other.admin.token)).asaas).toBe('');
    expect(before).toMatchObject({ chatBotType: 'text', call: 'disabled', userRating: 'disabled' });
    // And the other's own change stays there.
    await t.api.put('/settings/chatBotType', { value: 'button' }, other.admin.token);
    expect((await settingsOf(a.admin.token)).chatBotType).toBe('list');
    expect((await settingsOf(other.admin.token)).chatBotType).toBe('button');
  });

  it('a super user’s change applies to the super user’s own company only', async () => {
    const before = await settingsOf(a.admin.token);
    expect((await t.api.put('/settings/userRating', { value: 'disabled' }, t.superToken)).status).toBe(200);
    expect(await settingsOf(a.admin.token)).toEqual(before);
  });
});
