import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../../db/tenant.js';
import { connectSandbox, customerSays, outbox, ticketOf } from '../../../testing/conversation.js';
import {
  Api,
  connectSocket,
  createTenant,
  createTestDatabase,
  eventually,
  nextEvent,
  outboxSettled,
  startTestApp,
  watch,
  type ApiResponse,
  type Tenant,
  type TestApp,
} from '../../../testing/helpers.js';
import { expectError, expectInvalidExactly } from '../../../testing/expect.js';
import { SCHEDULE_MAX_ATTEMPTS, SEND_JOB, catchUpSchedules, sendSchedule, type ScheduleSenderDeps } from './schedules.sender.js';

let t: TestApp;
/** Company A has a connected sandbox phone; B is another company; C has no connection at all. */
let a: Tenant;
let b: Tenant;
let c: Tenant;
let wa: { id: number; number: string };
/** A second agent of company A. */
let other: { id: number; token: string };
let contactA: { id: number; name: string; number: string };
let contactB: { id: number };
const sockets: Socket[] = [];

const uid = () => randomBytes(4).toString('hex');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');
const HOUR = 3600_000;
const later = (ms = 24 * HOUR) => new Date(Date.now() + ms).toISOString();

const makeContact = async (token: string, name: string, number = `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`) => {
  const res = await t.api.post('/contacts', { name, number }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string; number: string };
};
const make = async (token: string, body: Record<string, unknown> = {}) => {
  const res = await t.api.post('/schedules', { body: `Reminder ${uid()}`, contactId: contactA.id, sendAt: later(), ...body }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
/** The stored record, read as company A's admin. */
const read = async (id: number, token = a.admin.token) => {
  const res = await t.api.get(`/schedules/${id}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const uploadMedia = async (id: number, token: string, file: { data: Buffer; name: string; type: string }) => {
  const form = new FormData();
  form.append('file', new Blob([file.data], { type: file.type }), file.name);
  const res = await fetch(`${t.app.url}/schedules/${id}/media-upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json(), headers: res.headers } as ApiResponse;
};
const storedFile = (companyId: number, name: string) => path.join(t.app.config.dataDir, 'media', String(companyId), name);

/** What the send job and the sweep use, taken from the running app (so a test can run a sweep now). */
const senderDeps = (): ScheduleSenderDeps => ({
  systemEm: () => forSystem(t.app.orm.em),
  logger: t.app.logger,
  channels: t.app.channels,
  media: t.app.media,
  events: t.app.events,
});
const sql = (query: string, params: unknown[] = []) => forSystem(t.app.orm.em).execute(query, params);
/** Simulates a send job that never ran: no job left, and sendAt already in the past. */
const loseJobAndMakeOverdue = async (id: number) => {
  await t.app.scheduler.agenda.cancel({ name: SEND_JOB, data: { scheduleId: id } });
  await sql(`update schedules set send_at = now() - interval '5 minutes' where id = ?`, [id]);
};
const sendJobsOf = async (id: number) => (await t.app.scheduler.agenda.queryJobs({ name: SEND_JOB, data: { scheduleId: id } })).jobs;

const socketOf = async (token: string) => {
  const socket = await connectSocket(t.app.url, token);
  sockets.push(socket);
  return socket;
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'SchedA');
  b = await createTenant(t, 'SchedB');
  c = await createTenant(t, 'SchedC');
  wa = await connectSandbox(t.api, a.admin.token);
  const email = `other-${uid()}@example.com`;
  const created = await t.api.post('/users', { name: 'Other Agent', email, password: 'Passw0rd-x', profile: 'user' }, a.admin.token);
  expect(created.status).toBe(201);
  other = { id: created.body.id, token: (await t.api.login(email, 'Passw0rd-x')).token };
  contactA = await makeContact(a.admin.token, 'Paula Prado');
  contactB = await makeContact(b.admin.token, 'Bruno Outsider');
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

/** What the phone received, once what was queued has left. */
/**
 * A sentinel for B's sockets: B's admin saves their agent, unchanged; company-{B}-user goes out while that
 * request runs, so after anything sent before it.
 */
const bUserSaved = async () => {
  expect((await t.api.put(`/users/${b.agent.id}`, {}, b.admin.token)).status).toBe(200);
  return `company-${b.companyId}-user`;
};

const phoneOf = async (token: string, whatsappId: number) => {
  await outboxSettled(t.app, whatsappId);
  return outbox(t.api, token, whatsappId);
};

describe('authentication', () => {
  it.each([
    ['GET', '/schedules'],
    ['GET', '/schedules/1'],
    ['POST', '/schedules'],
    ['PUT', '/schedules/1'],
    ['DELETE', '/schedules/1'],
    ['POST', '/schedules/1/media-upload'],
    ['DELETE', '/schedules/1/media-upload'],
  ])('%s %s answers 401 without a token', async (method, url) => {
    expectError(await t.api.request(method, url, { body: method === 'GET' ? undefined : {} }), 401, 'ERR_SESSION_EXPIRED');
  });
});

describe('POST /schedules', () => {
  it('lets any user schedule a message for a contact of the company, PENDENTE, with an Agenda job at sendAt', async () => {
    const sendAt = later();
    const res = await t.api.post('/schedules', { body: '  Olá, {{firstName}}!  ', contactId: contactA.id, sendAt }, a.agent.token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      body: 'Olá, {{firstName}}!',
      contactId: contactA.id,
      contact: { id: contactA.id, name: 'Paula Prado', number: contactA.number },
      sendAt,
      sentAt: null,
      status: 'PENDENTE',
      error: null,
      attempts: 0,
      userId: a.agent.id,
      whatsappId: null,
      ticketId: null,
      mediaPath: null,
      mediaName: null,
      mediaUrl: null,
      companyId: a.companyId,
    });
    expect(await read(res.body.id, a.agent.token)).toEqual(res.body);
    const jobs = await sendJobsOf(res.body.id);
    expect(jobs).toHaveLength(1);
    expect(new Date(jobs[0].nextRunAt!).toISOString()).toBe(sendAt);
  });

  it('takes a connection of the company to send through', async () => {
    const res = await make(a.agent.token, { whatsappId: wa.id });
    expect(res.whatsappId).toBe(wa.id);
  });

  it('lists every failing field: body of 5+ characters, contactId and sendAt required', async () => {
    expectInvalidExactly(await t.api.post('/schedules', {}, a.agent.token), 'body', 'contactId', 'sendAt');
    expectInvalidExactly(await t.api.post('/schedules', { body: 'abcd', contactId: contactA.id, sendAt: later() }, a.agent.token), 'body');
    expectInvalidExactly(await t.api.post('/schedules', { body: '   abcd   ', contactId: contactA.id, sendAt: later() }, a.agent.token), 'body');
    expectInvalidExactly(await t.api.post('/schedules', { body: 'Hello there', contactId: 0, sendAt: 'tomorrow-ish' }, a.agent.token), 'contactId', 'sendAt');
    expectInvalidExactly(await t.api.post('/schedules', { body: 'Hello there', contactId: contactA.id, sendAt: '' }, a.agent.token), 'sendAt');
  });

  it("refuses another company's contact or connection (404) and creates nothing", async () => {
    const marker = `cross-${uid()}`;
    expectError(await t.api.post('/schedules', { body: marker, contactId: contactB.id, sendAt: later() }, a.admin.token), 404, 'ERR_NO_CONTACT_FOUND');
    expectError(
      await t.api.post('/schedules', { body: marker, contactId: contactB.id, sendAt: later(), whatsappId: wa.id }, b.admin.token),
      404,
      'ERR_NO_WAPP_FOUND',
    );
    expect((await t.api.get(`/schedules?searchParam=${marker}`, a.admin.token)).body.count).toBe(0);
    expect((await t.api.get(`/schedules?searchParam=${marker}`, b.admin.token)).body.count).toBe(0);
  });

  it("is refused when the company's plan has no schedules", async () => {
    const plan = await t.api.post('/plans', { name: `No schedules ${uid()}`, users: 5, connections: 5, queues: 5, useSchedules: false }, t.superToken);
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const d = await createTenant(t, 'SchedNoPlan', plan.body.id);
    const contact = await makeContact(d.admin.token, 'Nina Plan');
    expectError(await t.api.post('/schedules', { body: 'Hello there', contactId: contact.id, sendAt: later() }, d.agent.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
  });
});

describe('GET /schedules', () => {
  it('pages 20 by sendAt with count and hasMore, searching the body and the contact name', async () => {
    const marker = uid();
    const contact = await makeContact(a.admin.token, `Zelda ${marker}`);
    const base = Date.now() + 48 * HOUR;
    for (let i = 0; i < 22; i++) {
      await make(other.token, { body: `page ${marker} ${String(i).padStart(2, '0')}`, sendAt: new Date(base + (22 - i) * 60_000).toISOString() });
    }
    const first = await t.api.get(`/schedules?searchParam=page ${marker}`, a.agent.token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ count: 22, hasMore: true });
    expect(first.body.schedules).toHaveLength(20);
    // Soonest first: the last one created is due first.
    expect(first.body.schedules[0].body).toBe(`page ${marker} 21`);
    expect(first.body.schedules[0].contact).toEqual({ id: contactA.id, name: 'Paula Prado', number: contactA.number });
    const second = await t.api.get(`/schedules?searchParam=page ${marker}&pageNumber=2`, a.agent.token);
    expect(second.body).toMatchObject({ count: 22, hasMore: false });
    expect(second.body.schedules.map((s: any) => s.body)).toEqual([`page ${marker} 01`, `page ${marker} 00`]);

    const byContact = await make(a.agent.token, { contactId: contact.id, body: 'Nothing to find here' });
    const found = await t.api.get(`/schedules?searchParam=zelda ${marker}`, a.agent.token);
    expect(found.body.schedules.map((s: any) => s.id)).toEqual([byContact.id]);
    // Another company finds none of them.
    expect((await t.api.get(`/schedules?searchParam=${marker}`, b.admin.token)).body).toMatchObject({ count: 0, schedules: [] });
    expectInvalidExactly(await t.api.get('/schedules?pageNumber=0', a.agent.token), 'pageNumber');
  });

  it('narrows to a sendAt window (the calendar month) and to a contact', async () => {
    const contact = await makeContact(a.admin.token, `Window ${uid()}`);
    const day = Date.now() + 30 * 24 * HOUR;
    const inside = await make(a.agent.token, { contactId: contact.id, sendAt: new Date(day).toISOString() });
    await make(a.agent.token, { contactId: contact.id, sendAt: new Date(day + 2 * 24 * HOUR).toISOString() });
    const from = new Date(day - HOUR).toISOString();
    const to = new Date(day + HOUR).toISOString();
    const res = await t.api.get(`/schedules?contactId=${contact.id}&sendAtFrom=${from}&sendAtTo=${to}`, a.agent.token);
    expect(res.body).toMatchObject({ count: 1, hasMore: false });
    expect(res.body.schedules.map((s: any) => s.id)).toEqual([inside.id]);
  });
});

describe('GET /schedules/{id}', () => {
  it('is readable by the company, 404 for another company or a missing id', async () => {
    const s = await make(a.agent.token);
    expect((await t.api.get(`/schedules/${s.id}`, other.token)).status).toBe(200);
    expectError(await t.api.get(`/schedules/${s.id}`, b.admin.token), 404, 'ERR_NO_SCHEDULE_FOUND');
    expectError(await t.api.get('/schedules/999999', a.admin.token), 404, 'ERR_NO_SCHEDULE_FOUND');
  });
});

describe('PUT /schedules/{id}', () => {
  it('lets an admin change it and moves its job to the new sendAt', async () => {
    const s = await make(a.agent.token);
    const contact = await makeContact(a.admin.token, 'Rita Nova');
    const sendAt = later(72 * HOUR);
    const res = await t.api.put(`/schedules/${s.id}`, { body: 'Changed text', contactId: contact.id, sendAt, whatsappId: wa.id }, a.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ body: 'Changed text', contactId: contact.id, contact: { name: 'Rita Nova' }, sendAt, whatsappId: wa.id, userId: a.agent.id, status: 'PENDENTE' });
    expect(await read(s.id)).toEqual(res.body);
    const jobs = await sendJobsOf(s.id);
    expect(jobs).toHaveLength(1);
    expect(new Date(jobs[0].nextRunAt!).toISOString()).toBe(sendAt);
  });

  it('is admin-only: an agent, even its creator, gets ERR_NO_PERMISSION and nothing changes', async () => {
    const s = await make(a.agent.token);
    expectError(await t.api.put(`/schedules/${s.id}`, { body: 'Agent edit' }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.put(`/schedules/${s.id}`, { body: 'Agent edit' }, other.token), 403, 'ERR_NO_PERMISSION');
    expect((await read(s.id)).body).toBe(s.body);
  });

  it('validates like create and refuses cross-company references, changing nothing', async () => {
    const s = await make(a.agent.token);
    expectInvalidExactly(await t.api.put(`/schedules/${s.id}`, { body: 'abc', sendAt: 'never' }, a.admin.token), 'body', 'sendAt');
    expectError(await t.api.put(`/schedules/${s.id}`, { contactId: contactB.id }, a.admin.token), 404, 'ERR_NO_CONTACT_FOUND');
    expect(await read(s.id)).toEqual(s);
  });

  it('refuses a schedule while it is being sent (409), changing nothing', async () => {
    const s = await make(a.agent.token);
    await sql(`update schedules set status = 'AGENDADA' where id = ?`, [s.id]);
    expectError(await t.api.put(`/schedules/${s.id}`, { body: 'Mid-flight edit' }, a.admin.token), 409, 'ERR_CONFLICT');
    expectError(await uploadMedia(s.id, a.admin.token, { data: PNG, name: 'x.png', type: 'image/png' }), 409, 'ERR_CONFLICT');
    expect(await read(s.id)).toMatchObject({ body: s.body, status: 'AGENDADA', mediaPath: null });
    await t.api.del(`/schedules/${s.id}`, a.admin.token);
  });

  it("cannot reach another company's schedule", async () => {
    const s = await make(a.agent.token);
    expectError(await t.api.put(`/schedules/${s.id}`, { body: 'Cross company' }, b.admin.token), 404, 'ERR_NO_SCHEDULE_FOUND');
    expect((await read(s.id)).body).toBe(s.body);
  });
});

describe('DELETE /schedules/{id}', () => {
  it('lets its creator or an admin delete it, cancelling its job; other agents get 403, other companies 404', async () => {
    const s1 = await make(a.agent.token);
    expectError(await t.api.del(`/schedules/${s1.id}`, other.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.del(`/schedules/${s1.id}`, b.admin.token), 404, 'ERR_NO_SCHEDULE_FOUND');
    await read(s1.id);
    expect(await sendJobsOf(s1.id)).toHaveLength(1);
    expect((await t.api.del(`/schedules/${s1.id}`, a.agent.token)).status).toBe(200);
    expectError(await t.api.get(`/schedules/${s1.id}`, a.admin.token), 404, 'ERR_NO_SCHEDULE_FOUND');
    expect(await sendJobsOf(s1.id)).toHaveLength(0);
    const s2 = await make(a.agent.token);
    expect((await t.api.del(`/schedules/${s2.id}`, a.admin.token)).status).toBe(200);
    expectError(await t.api.get(`/schedules/${s2.id}`, a.admin.token), 404, 'ERR_NO_SCHEDULE_FOUND');
  });

  it('tells the company (only) that it is gone', async () => {
    const s = await make(a.agent.token);
    const colleague = await socketOf(other.token);
    const outsider = await socketOf(b.admin.token);
    const event = `company-${a.companyId}-schedule`;
    const heard = nextEvent(colleague, event);
    const outsiderHears = watch(outsider, event);
    await t.api.del(`/schedules/${s.id}`, a.agent.token);
    expect(await heard).toEqual({ action: 'delete', id: s.id });
    expect(await outsiderHears.before(await bUserSaved())).toEqual([]);
  });
});

describe('media', () => {
  it('stores a PNG or JPEG under a random name and answers a signed URL', async () => {
    const s = await make(a.agent.token);
    const res = await uploadMedia(s.id, a.agent.token, { data: PNG, name: '../../etc/photo.png', type: 'image/png' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, mediaName: 'photo.png' });
    expect(res.body.mediaPath).toMatch(/^[A-Za-z0-9_-]{10,64}\.png$/);
    expect(res.body.mediaUrl).toMatch(new RegExp(`^/media/${a.companyId}/${res.body.mediaPath}\\?expires=\\d+&signature=`));
    const file = await fetch(t.app.url + res.body.mediaUrl);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
    const jpeg = await uploadMedia(s.id, a.agent.token, { data: JPEG, name: 'PIC.JPEG', type: 'image/jpeg' });
    expect(jpeg.status, JSON.stringify(jpeg.body)).toBe(200);
    expect(jpeg.body.mediaPath).toMatch(/\.jpg$/);
    // The earlier file is replaced.
    expect(existsSync(storedFile(a.companyId, res.body.mediaPath))).toBe(false);
    expect((await read(s.id)).mediaPath).toBe(jpeg.body.mediaPath);
  });

  it('refuses other types (415), pictures over 5 MB (413) and a missing file (400), changing nothing', async () => {
    const s = await make(a.agent.token);
    expectError(await uploadMedia(s.id, a.agent.token, { data: Buffer.from('GIF89a'), name: 'anim.gif', type: 'image/gif' }), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    expectError(await uploadMedia(s.id, a.agent.token, { data: Buffer.from('%PDF-1.4'), name: 'doc.pdf', type: 'application/pdf' }), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    // Named and typed as a picture, but the bytes are not one; or a picture under another extension.
    expectError(await uploadMedia(s.id, a.agent.token, { data: Buffer.from('MZ not a png'), name: 'fake.png', type: 'image/png' }), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    expectError(await uploadMedia(s.id, a.agent.token, { data: PNG, name: 'photo.gif', type: 'image/png' }), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024, 0)]);
    expectError(await uploadMedia(s.id, a.agent.token, { data: big, name: 'big.png', type: 'image/png' }), 413, 'ERR_PAYLOAD_TOO_LARGE');
    const none = await fetch(`${t.app.url}/schedules/${s.id}/media-upload`, { method: 'POST', body: new FormData(), headers: { authorization: `Bearer ${a.agent.token}` } });
    expect(none.status).toBe(400);
    expect((await read(s.id)).mediaPath).toBeNull();
  });

  it('is for its creator or an admin (403 otherwise) and never crosses companies (404)', async () => {
    const s = await make(a.agent.token);
    expectError(await uploadMedia(s.id, other.token, { data: PNG, name: 'x.png', type: 'image/png' }), 403, 'ERR_NO_PERMISSION');
    expectError(await uploadMedia(s.id, b.admin.token, { data: PNG, name: 'x.png', type: 'image/png' }), 404, 'ERR_NO_SCHEDULE_FOUND');
    expect((await read(s.id)).mediaPath).toBeNull();
    expect((await uploadMedia(s.id, a.admin.token, { data: PNG, name: 'x.png', type: 'image/png' })).status).toBe(200);
    const withMedia = await read(s.id);
    expectError(await t.api.del(`/schedules/${s.id}/media-upload`, other.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.del(`/schedules/${s.id}/media-upload`, b.admin.token), 404, 'ERR_NO_SCHEDULE_FOUND');
    expect((await read(s.id)).mediaPath).toBe(withMedia.mediaPath);
  });

  it('removes the attachment (DELETE media-upload), and the file with the schedule', async () => {
    const s = await make(a.agent.token);
    const one = await uploadMedia(s.id, a.agent.token, { data: PNG, name: 'one.png', type: 'image/png' });
    const res = await t.api.del(`/schedules/${s.id}/media-upload`, a.agent.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null });
    expect(existsSync(storedFile(a.companyId, one.body.mediaPath))).toBe(false);
    const two = await uploadMedia(s.id, a.agent.token, { data: PNG, name: 'two.png', type: 'image/png' });
    expect(existsSync(storedFile(a.companyId, two.body.mediaPath))).toBe(true);
    await t.api.del(`/schedules/${s.id}`, a.agent.token);
    expect(existsSync(storedFile(a.companyId, two.body.mediaPath))).toBe(false);
  });
});

describe('sending', () => {
  it('sends at sendAt on the contact’s active ticket, fills variables, records it in the ticket, and tells the company', async () => {
    const customer = `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;
    await customerSays(t.api, a.admin.token, wa.id, { from: customer, name: 'Maria Souza', body: 'Oi' });
    const ticket = await eventually(() => ticketOf(t.api, a.admin.token, customer));
    const listener = await socketOf(other.token);
    const outsider = await socketOf(b.admin.token);
    const event = `company-${a.companyId}-schedule`;
    const created = nextEvent(listener, event);
    const outsiderHears = watch(outsider, event);

    const sendAt = new Date(Date.now() + 2000);
    const s = await make(a.agent.token, { body: 'Olá {{firstName}}, seu horário é amanhã.', contactId: ticket.contact.id, sendAt: sendAt.toISOString() });
    expect(await created).toMatchObject({ action: 'create', record: { id: s.id, status: 'PENDENTE' } });
    const sentEvent = new Promise<any>((resolve) => {
      listener.on(event, (payload: any) => {
        if (payload.record?.id === s.id && payload.record.status === 'ENVIADA') resolve(payload);
      });
    });

    const sent = await eventually(async () => {
      const current = await read(s.id);
      return current.status === 'ENVIADA' ? current : false;
    }, 20_000);
    expect(sent).toMatchObject({ status: 'ENVIADA', ticketId: ticket.id, attempts: 1, error: null });
    // Not before its time.
    expect(new Date(sent.sentAt).getTime()).toBeGreaterThanOrEqual(sendAt.getTime() - 1000);
    expect((await sentEvent).record).toMatchObject({ id: s.id, status: 'ENVIADA', ticketId: ticket.id });
    // ENVIADA is the sender's last announcement, so the sentinel, requested after it was heard, follows it.
    expect(await outsiderHears.before(await bUserSaved())).toEqual([]);

    const messages = (await phoneOf(a.admin.token, wa.id)).filter((m) => m.to === customer);
    expect(messages.map((m) => m.body)).toEqual(['Olá Maria, seu horário é amanhã.']);
    // The outbox row says who asked: this schedule.
    expect(await sql(`select source_kind, source_id from outbound_messages where ticket_id = ? and body like 'Olá Maria%'`, [ticket.id])).toEqual([
      { source_kind: 'schedule', source_id: s.id },
    ]);
    const history = await t.api.get(`/messages/${ticket.id}`, a.admin.token);
    expect(history.body.messages.map((m: any) => ({ body: m.body, fromMe: m.fromMe }))).toContainEqual({
      body: 'Olá Maria, seu horário é amanhã.',
      fromMe: true,
    });

    // Sent is history: no edits, no new attachment.
    expectError(await t.api.put(`/schedules/${s.id}`, { body: 'Too late now' }, a.admin.token), 409, 'ERR_SCHEDULE_ALREADY_SENT');
    expectError(await uploadMedia(s.id, a.agent.token, { data: PNG, name: 'x.png', type: 'image/png' }), 409, 'ERR_SCHEDULE_ALREADY_SENT');
    expect((await read(s.id)).body).toBe(s.body);

    // The sweep clears the finished job from the job store.
    await catchUpSchedules(senderDeps(), t.app.scheduler.agenda);
    expect(await sendJobsOf(s.id)).toHaveLength(0);
  });

  it('sends the picture with the text as its caption, opening a ticket when the contact has none', async () => {
    const contact = await makeContact(a.admin.token, 'Ana Sem Ticket');
    const s = await make(a.agent.token, { body: 'Your receipt, {{name}}', contactId: contact.id });
    await uploadMedia(s.id, a.agent.token, { data: PNG, name: 'receipt.png', type: 'image/png' });
    // Brought forward by an admin: the job moves to now.
    expect((await t.api.put(`/schedules/${s.id}`, { sendAt: new Date().toISOString() }, a.admin.token)).status).toBe(200);
    const sent = await eventually(async () => {
      const current = await read(s.id);
      return current.status === 'ENVIADA' ? current : false;
    }, 20_000);
    const ticket = await ticketOf(t.api, a.admin.token, contact.number);
    expect(ticket).toBeTruthy();
    expect(sent.ticketId).toBe(ticket.id);
    const messages = (await phoneOf(a.admin.token, wa.id)).filter((m) => m.to === contact.number);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ body: 'Your receipt, Ana Sem Ticket', mediaType: 'image', mediaName: 'receipt.png' });
    const history = await t.api.get(`/messages/${ticket.id}`, a.admin.token);
    expect(history.body.messages).toHaveLength(1);
    expect(history.body.messages[0]).toMatchObject({ body: 'Your receipt, Ana Sem Ticket', fromMe: true, mediaType: 'image' });
  });
});

describe('the catch-up sweep', () => {
  it('sends an overdue schedule whose job never ran', async () => {
    const contact = await makeContact(a.admin.token, 'Late Larry');
    const s = await make(a.agent.token, { contactId: contact.id, body: `Overdue ${uid()}` });
    await loseJobAndMakeOverdue(s.id);
    await catchUpSchedules(senderDeps());
    const sent = await read(s.id);
    expect(sent).toMatchObject({ status: 'ENVIADA', attempts: 1 });
    expect((await phoneOf(a.admin.token, wa.id)).filter((m) => m.body === s.body)).toHaveLength(1);
  });

  it('one due while its connection is down waits for it and goes as soon as it connects, without failing', async () => {
    const contact = await makeContact(a.admin.token, 'Down Dora');
    const s = await make(a.agent.token, { contactId: contact.id, body: `Waited ${uid()}` });
    await loseJobAndMakeOverdue(s.id);
    await t.app.channels.stop(wa.id);
    try {
      await catchUpSchedules(senderDeps());
      // Handed to the outbox, not failed: no error, one attempt, and nothing on the phone yet.
      expect(await read(s.id)).toMatchObject({ status: 'ENVIADA', attempts: 1, error: null });
      expect((await outbox(t.api, a.admin.token, wa.id)).some((m) => m.body === s.body)).toBe(false);
    } finally {
      await t.app.channels.start({ id: wa.id, companyId: a.companyId, provider: 'sandbox' });
    }
    await eventually(async () => (await outbox(t.api, a.admin.token, wa.id)).some((m) => m.body === s.body));
    expect((await phoneOf(a.admin.token, wa.id)).filter((m) => m.body === s.body)).toHaveLength(1);
  });

  it('sends a schedule once when the job and the sweep race for it', async () => {
    const contact = await makeContact(a.admin.token, 'Race Rachel');
    const s = await make(a.agent.token, { contactId: contact.id, body: `Once only ${uid()}` });
    await loseJobAndMakeOverdue(s.id);
    const deps = senderDeps();
    const outcomes = await Promise.all([
      sendSchedule(deps, a.companyId, s.id),
      sendSchedule(deps, a.companyId, s.id),
      catchUpSchedules(deps),
      sendSchedule(deps, a.companyId, s.id),
    ]);
    expect(outcomes.filter((o) => o === 'sent').length + (outcomes[2] as { sent: number }).sent).toBe(1);
    expect((await phoneOf(a.admin.token, wa.id)).filter((m) => m.body === s.body)).toHaveLength(1);
    expect(await read(s.id)).toMatchObject({ status: 'ENVIADA', attempts: 1 });
  });

  it('counts a send cut off by a crash (AGENDADA past its lease) as a failed attempt and retries it after the backoff', async () => {
    const contact = await makeContact(a.admin.token, 'Crash Carl');
    const s = await make(a.agent.token, { contactId: contact.id, body: `Interrupted ${uid()}` });
    await loseJobAndMakeOverdue(s.id);
    await sql(`update schedules set status = 'AGENDADA', attempts = 1, updated_at = now() - interval '20 minutes' where id = ?`, [s.id]);
    await catchUpSchedules(senderDeps());
    expect(await read(s.id)).toMatchObject({ status: 'PENDENTE', attempts: 1, error: 'ERR_SENDING_WAPP_MSG' });
    await sql(`update schedules set updated_at = now() - interval '2 minutes' where id = ?`, [s.id]);
    await catchUpSchedules(senderDeps());
    expect(await read(s.id)).toMatchObject({ status: 'ENVIADA', attempts: 2, error: null });
    expect((await phoneOf(a.admin.token, wa.id)).filter((m) => m.body === s.body)).toHaveLength(1);
  });

  it('does not send what is not due yet, and never sends a sent one again', async () => {
    const s = await make(a.agent.token, { body: `Future ${uid()}` });
    expect(await sendSchedule(senderDeps(), a.companyId, s.id)).toBe('skipped');
    await catchUpSchedules(senderDeps());
    expect(await read(s.id)).toMatchObject({ status: 'PENDENTE', attempts: 0 });
    await loseJobAndMakeOverdue(s.id);
    expect(await sendSchedule(senderDeps(), a.companyId, s.id)).toBe('sent');
    expect(await sendSchedule(senderDeps(), a.companyId, s.id)).toBe('skipped');
    expect((await phoneOf(a.admin.token, wa.id)).filter((m) => m.body === s.body)).toHaveLength(1);
  });
});

describe('a failing send', () => {
  it(`retries with a backoff, then after ${SCHEDULE_MAX_ATTEMPTS} attempts is ERRO with the reason; an admin's edit re-arms it`, async () => {
    // Company C has no connection: every attempt fails.
    const contact = await makeContact(c.admin.token, 'Carla Fail');
    const s = await make(c.agent.token, { contactId: contact.id, body: 'This cannot go out', sendAt: new Date(Date.now() - 60_000).toISOString() });
    const socket = await socketOf(c.admin.token);
    const erro = new Promise<any>((resolve) => {
      socket.on(`company-${c.companyId}-schedule`, (payload: any) => {
        if (payload.record?.id === s.id && payload.record.status === 'ERRO') resolve(payload);
      });
    });
    const readC = (id: number) => read(id, c.admin.token);
    /** Attempt `n` has run and finished (the claim counts it before the send ends). */
    const attempted = (n: number, timeoutMs?: number) =>
      eventually(async () => {
        const current = await readC(s.id);
        return current.attempts === n && current.status !== 'AGENDADA';
      }, timeoutMs);
    // The job runs at once (sendAt is past) and fails.
    await attempted(1, 20_000);
    expect(await readC(s.id)).toMatchObject({ status: 'PENDENTE', error: 'ERR_NO_DEF_WAPP_FOUND', sentAt: null });

    // Within the backoff nothing is retried.
    await catchUpSchedules(senderDeps());
    expect((await readC(s.id)).attempts).toBe(1);

    const backdate = () => sql(`update schedules set updated_at = now() - interval '1 hour' where id = ?`, [s.id]);
    for (let attempt = 2; attempt <= SCHEDULE_MAX_ATTEMPTS; attempt++) {
      await backdate();
      await catchUpSchedules(senderDeps());
      await attempted(attempt);
    }
    expect(await readC(s.id)).toMatchObject({ status: 'ERRO', error: 'ERR_NO_DEF_WAPP_FOUND', attempts: SCHEDULE_MAX_ATTEMPTS, sentAt: null, ticketId: null });
    expect((await erro).record).toMatchObject({ id: s.id, status: 'ERRO', error: 'ERR_NO_DEF_WAPP_FOUND' });

    // Bounded: no further attempts.
    await backdate();
    await catchUpSchedules(senderDeps());
    expect(await readC(s.id)).toMatchObject({ status: 'ERRO', attempts: SCHEDULE_MAX_ATTEMPTS });
    // No ticket was opened for a message that never left.
    expect(await ticketOf(t.api, c.admin.token, contact.number)).toBeUndefined();

    const edited = await t.api.put(`/schedules/${s.id}`, { body: 'Try this again', sendAt: later() }, c.admin.token);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ status: 'PENDENTE', attempts: 0, error: null, body: 'Try this again' });
  });
});

describe('a restart between scheduling and sending', () => {
  it('still sends the schedule, from the new server, on the same database', async () => {
    const db = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-sched-restart-'));
    const env = { DATABASE_URL: db.url, DATA_DIR: dataDir };
    let second: TestApp | undefined;
    try {
      const first = await startTestApp(env);
      const tenant = await createTenant(first, 'Restart');
      const phone = await connectSandbox(first.api, tenant.admin.token);
      const contactRes = await first.api.post('/contacts', { name: 'Rosa Restart', number: '5511977776666' }, tenant.admin.token);
      expect(contactRes.status).toBe(201);
      const sendAt = new Date(Date.now() + 8000);
      const created = await first.api.post(
        '/schedules',
        { body: 'Sent after a restart', contactId: contactRes.body.id, sendAt: sendAt.toISOString() },
        tenant.agent.token,
      );
      expect(created.status).toBe(201);
      await first.stop();
      expect(Date.now()).toBeLessThan(sendAt.getTime());

      second = await startTestApp(env);
      const api = new Api(second.app.url);
      const { token } = await api.login(tenant.admin.email, tenant.admin.password);
      const sent = await eventually(async () => {
        const current = (await api.get(`/schedules/${created.body.id}`, token)).body;
        return current.status === 'ENVIADA' ? current : false;
      }, 30_000, 250);
      expect(new Date(sent.sentAt).getTime()).toBeGreaterThanOrEqual(sendAt.getTime() - 1000);
      await outboxSettled(second.app, phone.id);
      expect((await outbox(api, token, phone.id)).filter((m) => m.body === 'Sent after a restart')).toHaveLength(1);
    } finally {
      await second?.stop();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
