import { randomBytes } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSocket, createTenant, eventually, startTestApp, type ApiResponse, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { connectSandbox } from '../../../testing/conversation.js';
import { expectError, expectInvalid } from '../../../testing/expect.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;
let wa: { id: number };
let listId: number;
const sockets: Socket[] = [];
const uid = () => randomBytes(3).toString('hex');
const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

const make = async (body: Record<string, unknown> = {}, token = a.admin.token) => {
  const res = await t.api.post('/campaigns', { name: `Promo ${uid()}`, message1: 'Oi {nome}!', whatsappId: wa.id, contactListId: listId, ...body }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
/** Puts a campaign in a status directly (a running or finished one cannot be reached quickly otherwise). */
const setStatus = async (id: number, status: string, scheduledAt: string | null = null) => {
  const em = t.app.orm.em.fork();
  await em.execute(`update campaigns set status = ?, scheduled_at = ? where id = ?`, [status, scheduledAt, id]);
  // Running as a real one is: with a contact still pending, else the sweep (every 20 s) finishes it.
  if (status === 'EM_ANDAMENTO') {
    await em.execute(
      `insert into campaign_shipping (company_id, campaign_id, number, name, message, status, created_at, updated_at)
       select company_id, id, '5511900000001', 'Pending', 'Oi', 'pending', now(), now() from campaigns where id = ?`,
      [id],
    );
  }
};

const uploadMedia = async (id: number, token = a.admin.token): Promise<ApiResponse> => {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')], { type: 'image/png' }), 'promo.png');
  const res = await fetch(`${t.app.url}/campaigns/${id}/media-upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json(), headers: res.headers };
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'CampA');
  b = await createTenant(t, 'CampB');
  wa = await connectSandbox(t.api, a.admin.token);
  listId = (await t.api.post('/contact-lists', { name: 'Leads' }, a.admin.token)).body.id;
  await t.api.post('/contact-list-items', { contactListId: listId, name: 'Ana', number: '5511912340001' }, a.admin.token);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('access', () => {
  it.each([
    ['GET', '/campaigns'],
    ['GET', '/campaigns/1'],
    ['POST', '/campaigns'],
    ['PUT', '/campaigns/1'],
    ['DELETE', '/campaigns/1'],
    ['POST', '/campaigns/1/cancel'],
    ['POST', '/campaigns/1/restart'],
    ['POST', '/campaigns/1/media-upload'],
    ['DELETE', '/campaigns/1/media-upload'],
    ['GET', '/campaigns/1/report'],
    ['GET', '/campaigns/1/shipping'],
    ['GET', '/campaigns/1/shipping/export'],
    ['GET', '/campaign-settings'],
    ['POST', '/campaign-settings'],
  ])('%s %s needs a session, and is for admins', async (method, url) => {
    const body = method === 'GET' ? {} : { body: {} };
    expect((await t.api.request(method, url, body)).status).toBe(401);
    expectError(await t.api.request(method, url, { ...body, token: a.agent.token }), 403, 'ERR_NO_PERMISSION');
  });

  it('is refused to a company whose plan has no campaigns (enforced by the server)', async () => {
    const plan = await t.api.post('/plans', { name: `Basic ${uid()}`, users: 5, connections: 5, queues: 5, useCampaigns: false }, t.superToken);
    const c = await createTenant(t, 'NoCamp', plan.body.id);
    expectError(await t.api.get('/campaigns', c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await t.api.post('/campaigns', { name: 'Promo' }, c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await t.api.get('/campaign-settings', c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
  });

  it("never shows or touches another company's campaign (404), nor lets one point at another's records", async () => {
    const mine = await make();
    for (const [method, url] of [
      ['GET', `/campaigns/${mine.id}`],
      ['PUT', `/campaigns/${mine.id}`],
      ['DELETE', `/campaigns/${mine.id}`],
      ['POST', `/campaigns/${mine.id}/cancel`],
      ['POST', `/campaigns/${mine.id}/restart`],
      ['GET', `/campaigns/${mine.id}/report`],
      ['GET', `/campaigns/${mine.id}/shipping`],
      ['GET', `/campaigns/${mine.id}/shipping/export`],
    ] as const) {
      expectError(await t.api.request(method, url, { token: b.admin.token, ...(method === 'GET' ? {} : { body: { name: 'Stolen' } }) }), 404, 'ERR_NO_CAMPAIGN_FOUND');
    }
    expectError(await uploadMedia(mine.id, b.admin.token), 404, 'ERR_NO_CAMPAIGN_FOUND');
    expect((await t.api.get('/campaigns', b.admin.token)).body.records).toEqual([]);
    // B's campaign cannot use A's connection, list, tag or file list.
    const tag = await t.api.post('/tags', { name: `Tag ${uid()}`, color: '#112233' }, a.admin.token);
    const files = await t.api.post('/files', { name: `Files ${uid()}`, message: 'x' }, a.admin.token);
    expectError(await t.api.post('/campaigns', { name: 'Mine', whatsappId: wa.id }, b.admin.token), 404, 'ERR_NO_WAPP_FOUND');
    expectError(await t.api.post('/campaigns', { name: 'Mine', contactListId: listId }, b.admin.token), 404, 'ERR_NO_CONTACT_LIST_FOUND');
    expectError(await t.api.post('/campaigns', { name: 'Mine', tagListId: tag.body.id }, b.admin.token), 404, 'ERR_NO_TAG_FOUND');
    expectError(await t.api.post('/campaigns', { name: 'Mine', fileListId: files.body.id }, b.admin.token), 404, 'ERR_NO_FILE_LIST_FOUND');
    expect((await t.api.get(`/campaigns/${mine.id}`, a.admin.token)).body.name).toBe(mine.name);
  });
});

describe('create, edit, delete', () => {
  it('creates INATIVA without a date and PROGRAMADA with one, with the form field names', async () => {
    const inactive = await make({ tagListId: 'Nenhuma', fileListId: '', scheduledAt: '', confirmation: true, status: 'FINALIZADA' });
    expect(inactive).toMatchObject({ status: 'INATIVA', tagId: null, fileListId: null, confirmation: false, editable: true, counts: { total: 0 } });
    expect(inactive.whatsapp).toMatchObject({ id: wa.id });
    expect(inactive.contactList).toMatchObject({ id: listId, name: 'Leads' });
    const scheduled = await make({ scheduledAt: inHours(3) });
    expect(scheduled).toMatchObject({ status: 'PROGRAMADA', editable: true });
    const list = await t.api.get('/campaigns', a.admin.token);
    expect(list.body.records.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([inactive.id, scheduled.id]));
  });

  it('validates the name, the messages and the references', async () => {
    expectInvalid(await t.api.post('/campaigns', { name: 'A' }, a.admin.token), 'name');
    expectInvalid(await t.api.post('/campaigns', { name: 'x'.repeat(51) }, a.admin.token), 'name');
    expectInvalid(await t.api.post('/campaigns', { name: 'Promo', message1: 'x'.repeat(4097) }, a.admin.token), 'message1');
    expectInvalid(await t.api.post('/campaigns', { name: 'Promo', scheduledAt: '2026-02-30T10:00:00Z' }, a.admin.token), 'scheduledAt');
    expectInvalid(await t.api.post('/campaigns', { name: 'Promo', whatsappId: 'one' }, a.admin.token), 'whatsappId');
    expectError(await t.api.post('/campaigns', { name: 'Promo', whatsappId: 999999 }, a.admin.token), 404, 'ERR_NO_WAPP_FOUND');
  });

  it('refuses to schedule a campaign that could not run', async () => {
    const res = await t.api.post('/campaigns', { name: 'Empty', scheduledAt: inHours(2) }, a.admin.token);
    expectError(res, 400, 'ERR_CAMPAIGN_INCOMPLETE');
    expect(res.body.fields.map((f: { path: string }) => f.path).sort()).toEqual(['contactListId', 'message1', 'whatsappId']);
  });

  it('edits only what the stored status allows (spec 02 section 4), whatever the body says', async () => {
    const c = await make({ scheduledAt: inHours(3) });
    const edited = await t.api.put(`/campaigns/${c.id}`, { name: 'Renamed', message2: 'Olá {nome}', status: 'INATIVA' }, a.admin.token);
    expect(edited.body).toMatchObject({ name: 'Renamed', message2: 'Olá {nome}', status: 'PROGRAMADA' });
    // Less than an hour ahead: read-only.
    await setStatus(c.id, 'PROGRAMADA', inHours(0.5));
    expect((await t.api.get(`/campaigns/${c.id}`, a.admin.token)).body.editable).toBe(false);
    expectError(await t.api.put(`/campaigns/${c.id}`, { name: 'Late', status: 'INATIVA' }, a.admin.token), 409, 'ERR_CAMPAIGN_NOT_EDITABLE');
    expectError(await uploadMedia(c.id), 409, 'ERR_CAMPAIGN_NOT_EDITABLE');
    for (const status of ['EM_ANDAMENTO', 'FINALIZADA']) {
      await setStatus(c.id, status);
      expectError(await t.api.put(`/campaigns/${c.id}`, { name: 'Nope', status: 'INATIVA' }, a.admin.token), 409, 'ERR_CAMPAIGN_NOT_EDITABLE');
    }
    // A paused campaign can still be saved, and stays paused.
    await setStatus(c.id, 'CANCELADA');
    const paused = await t.api.put(`/campaigns/${c.id}`, { message1: 'Voltamos!' }, a.admin.token);
    expect(paused.body).toMatchObject({ status: 'CANCELADA', message1: 'Voltamos!', editable: true });
    expect((await t.api.get(`/campaigns/${c.id}`, a.admin.token)).body.name).toBe('Renamed');
  });

  it('refuses to delete a running campaign and deletes the others with their file', async () => {
    const c = await make();
    expect((await uploadMedia(c.id)).body).toMatchObject({ mediaName: 'promo.png', mediaUrl: expect.any(String) });
    await setStatus(c.id, 'EM_ANDAMENTO');
    expectError(await t.api.del(`/campaigns/${c.id}`, a.admin.token), 409, 'ERR_CAMPAIGN_RUNNING');
    await setStatus(c.id, 'CANCELADA');
    expect((await t.api.del(`/campaigns/${c.id}`, a.admin.token)).status).toBe(200);
    expectError(await t.api.get(`/campaigns/${c.id}`, a.admin.token), 404, 'ERR_NO_CAMPAIGN_FOUND');
  });

  it('uploads and removes the media while editable', async () => {
    const c = await make();
    expect((await uploadMedia(c.id)).status).toBe(200);
    const removed = await t.api.del(`/campaigns/${c.id}/media-upload`, a.admin.token);
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: null });
  });

  it('snapshots a tag into a list of its own, with the chosen list merged, and drops it with the campaign', async () => {
    const tag = (await t.api.post('/tags', { name: `Vip ${uid()}`, color: '#223344' }, a.admin.token)).body;
    // Two customers write in; one ticket gets the tag.
    for (const [from, name] of [
      ['5511912340002', 'Bia'],
      ['5511912340003', 'Caio'],
    ]) {
      await t.api.post(`/sandbox/${wa.id}/messages`, { from, name, body: 'Oi' }, a.admin.token);
    }
    const tickets = await eventually(async () => {
      const res = await t.api.get('/tickets?status=pending&showAll=true', a.admin.token);
      return res.body.tickets.length >= 2 ? res.body.tickets : false;
    });
    const bia = tickets.find((tk: any) => tk.contact.number === '5511912340002');
    expect((await t.api.put(`/ticket-tags/${bia.id}/${tag.id}`, {}, a.admin.token)).status).toBeLessThan(300);
    const c = await make({ tagListId: tag.id });
    expect(c.tagId).toBe(tag.id);
    const snapshot = await t.app.orm.em.fork().execute<{ id: number; name: string; campaign_id: number }[]>(
      `select id, name, campaign_id from contact_lists where campaign_id = ?`,
      [c.id],
    );
    expect(snapshot).toHaveLength(1);
    expect(snapshot[0].name).toContain(`TAG: ${tag.name}`);
    const items = (await t.api.get(`/contact-list-items?contactListId=${snapshot[0].id}`, a.admin.token)).body.contacts;
    expect(items.map((i: any) => i.number).sort()).toEqual(['5511912340001', '5511912340002']);
    expect(items.every((i: any) => i.isWhatsappValid)).toBe(true);
    // Not offered as a list of its own, and gone with its campaign.
    expect((await t.api.get('/contact-lists/list', a.admin.token)).body.map((l: any) => l.id)).not.toContain(snapshot[0].id);
    await t.api.del(`/campaigns/${c.id}`, a.admin.token);
    expect(await t.app.orm.em.fork().execute(`select id from contact_lists where id = ?`, [snapshot[0].id])).toEqual([]);
  });

  it('announces changes to the company admins only', async () => {
    const admin = await connectSocket(t.app.url, a.admin.token);
    const agent = await connectSocket(t.app.url, a.agent.token);
    sockets.push(admin, agent);
    const agentHeard: string[] = [];
    agent.onAny((event) => agentHeard.push(event));
    const created = new Promise<any>((resolve) => admin.once(`company-${a.companyId}-campaign`, resolve));
    const c = await make();
    expect(await created).toMatchObject({ action: 'create', record: { id: c.id } });
    const deleted = new Promise<any>((resolve) => admin.once(`company-${a.companyId}-campaign`, resolve));
    await t.api.del(`/campaigns/${c.id}`, a.admin.token);
    expect(await deleted).toEqual({ action: 'delete', id: c.id });
    expect(agentHeard.filter((e) => e.endsWith('-campaign'))).toEqual([]);
  });
});

describe('campaign settings', () => {
  it('answers the defaults until saved, then the stored rows with JSON values', async () => {
    expect((await t.api.get('/campaign-settings', b.admin.token)).body).toEqual([]);
    const saved = await t.api.post(
      '/campaign-settings',
      { settings: { messageInterval: 10, longerIntervalAfter: 5, greaterInterval: 60, variables: [{ key: 'cupom', value: 'PROMO10' }], sendWindowStart: '08:00', sendWindowEnd: '20:00', dailyLimit: 500 } },
      b.admin.token,
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const byKey = Object.fromEntries((saved.body as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    expect(byKey).toEqual({
      messageInterval: '10',
      longerIntervalAfter: '5',
      greaterInterval: '60',
      variables: JSON.stringify([{ key: 'cupom', value: 'PROMO10' }]),
      sendWindowStart: '08:00',
      sendWindowEnd: '20:00',
      dailyLimit: '500',
    });
    // The old client sends variables as JSON text and numbers as strings.
    const again = await t.api.post('/campaign-settings', { settings: { messageInterval: '5', variables: '[{"key":"site","value":"x.com"}]' } }, b.admin.token);
    expect(again.status).toBe(200);
    // Another company's are its own.
    expect((await t.api.get('/campaign-settings', a.admin.token)).body.find((r: any) => r.key === 'dailyLimit')).toBeUndefined();
  });

  it('validates ranges, the send window and unique variable keys', async () => {
    // A company of its own, with a value saved before: a refused save changes nothing.
    const own = await createTenant(t, 'CampSettingsInvalid');
    expect((await t.api.post('/campaign-settings', { settings: { messageInterval: 7 } }, own.admin.token)).status).toBe(200);
    expectInvalid(await t.api.post('/campaign-settings', { settings: { messageInterval: -1 } }, own.admin.token), 'settings.messageInterval');
    expectInvalid(await t.api.post('/campaign-settings', { settings: { greaterInterval: 3601 } }, own.admin.token), 'settings.greaterInterval');
    expectInvalid(await t.api.post('/campaign-settings', { settings: { longerIntervalAfter: 1.5 } }, own.admin.token), 'settings.longerIntervalAfter');
    expectInvalid(await t.api.post('/campaign-settings', { settings: { sendWindowStart: '25:00', sendWindowEnd: '10:00' } }, own.admin.token), 'settings.sendWindowStart');
    expectInvalid(await t.api.post('/campaign-settings', { settings: { sendWindowStart: '08:00', sendWindowEnd: '' } }, own.admin.token), 'settings.sendWindowEnd');
    expectInvalid(
      await t.api.post('/campaign-settings', { settings: { variables: [{ key: 'a', value: '1' }, { key: 'A', value: '2' }] } }, own.admin.token),
      'settings.variables',
    );
    expectInvalid(await t.api.post('/campaign-settings', { settings: { variables: [{ key: 'a b', value: '1' }] } }, own.admin.token), 'settings.variables.0.key');
    expectInvalid(await t.api.post('/campaign-settings', { settings: { variables: '{broken' } }, own.admin.token), 'settings.variables');
    const stored = (await t.api.get('/campaign-settings', own.admin.token)).body.find((r: any) => r.key === 'messageInterval');
    expect(stored.value).toBe('7');
  });
});
