import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SandboxSession } from '../../channels/sandbox/sandbox.provider.js';
import { delivered, outbox } from '../../../testing/conversation.js';
import { expectError, expectInvalid } from '../../../testing/expect.js';
import { sweepExpired } from './idempotency.js';
import { createTenant, eventually, outboxSettled, startTestApp, type ApiResponse, type Tenant, type TestApp } from '../../../testing/helpers.js';

/**
 * The external messages API (spec 04 section 14 and its note): a connection's token, the plan flag, the
 * number checked through the token's own connection, the outbox, Idempotency-Key (replay, 409 in flight,
 * 422 on another body), the per-token rate limit, the status call and the OpenAPI document.
 */
const SEND_LIMIT = 30;
let t: TestApp;
let a: Tenant;
let b: Tenant;
let seq = 0;

interface Line {
  id: number;
  token: string;
}

/** A sandbox connection of the admin's company, scanned, with the API token its creation answered once. */
const connectLine = async (tenant: Tenant): Promise<Line> => {
  const created = await t.api.post('/whatsapp', { name: `API line ${++seq}`, provider: 'sandbox' }, tenant.admin.token);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const scan = await t.api.post(`/sandbox/${created.body.id}/scan`, {}, tenant.admin.token);
  expect(scan.status).toBe(200);
  return { id: created.body.id, token: created.body.token };
};

const newNumber = () => `55219${String(++seq).padStart(8, '0')}`;

const send = (token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  t.api.request('POST', '/api/messages/send', { token, body, headers });

const statusOf = (token: string, id: number | string) => t.api.get(`/api/messages/${id}`, token);

/** A multipart send: `files` as [name, type, bytes]. */
const sendFiles = async (
  token: string,
  fields: Record<string, string>,
  files: [string, string, Buffer][],
  field = 'medias',
  headers: Record<string, string> = {},
): Promise<ApiResponse> => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [name, type, data] of files) form.append(field, new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${t.app.url}/api/messages/send`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}`, ...headers } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
};

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const em = () => t.app.orm.em.fork();
const rowsOf = (sql: string, params: unknown[] = []) => em().execute(sql, params);

let lineA: Line;
let lineB: Line;

beforeAll(async () => {
  t = await startTestApp({ API_SEND_MAX_PER_MINUTE: String(SEND_LIMIT) });
  a = await createTenant(t, 'ApiA');
  b = await createTenant(t, 'ApiB');
  lineA = await connectLine(a);
  lineB = await connectLine(b);
});
afterAll(async () => {
  await t?.stop();
});

describe('POST /api/messages/send with a text', () => {
  it('queues the text on the contact\'s new ticket of the token\'s connection and answers the ids and the old mensagem', async () => {
    const number = newNumber();
    const res = await send(lineA.token, { number: `+${number.slice(0, 2)} (${number.slice(2, 4)}) ${number.slice(4)}`, body: 'Pedido {{name}} saiu' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ mensagem: 'Mensagem enviada', number, status: 'queued', ticketClosed: false });
    expect(res.body.messages).toEqual([{ id: res.body.messageId, wid: expect.stringMatching(/^3EB0/), type: 'chat' }]);
    expect(res.headers.get('x-ratelimit-limit')).toBe(String(SEND_LIMIT));

    // The contact is named by its number; the ticket waits for an agent on the token's connection.
    const ticket = (await t.api.get(`/tickets/${res.body.ticketId}`, a.admin.token)).body;
    expect(ticket).toMatchObject({ status: 'pending', whatsappId: lineA.id, contactId: res.body.contactId, userId: null });
    expect(ticket.contact).toMatchObject({ name: number, number });
    // The phone gets it once, variables filled; the conversation shows it.
    const phone = await delivered(t.api, a.admin.token, lineA.id, res.body.messages[0].wid);
    expect(phone).toMatchObject({ to: number, body: `Pedido ${number} saiu` });
    const messages = (await t.api.get(`/messages/${res.body.ticketId}`, a.admin.token)).body.messages;
    expect(messages.map((m: { id: number; fromMe: boolean }) => [m.id, m.fromMe])).toEqual([[res.body.messageId, true]]);
    // The ticket's log names the API token (its connection) as who opened it.
    const logs = await rowsOf('select action, actor_kind, actor_id from ticket_logs where ticket_id = ?', [res.body.ticketId]);
    expect(logs).toEqual([{ action: 'created', actor_kind: 'api', actor_id: lineA.id }]);
  });

  it('reuses the contact\'s open ticket, and closeTicket closes it after the message, as the API token', async () => {
    const number = newNumber();
    const first = await send(lineA.token, { number, body: 'Primeira' });
    const second = await send(lineA.token, { number, body: 'Segunda', closeTicket: true });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ ticketId: first.body.ticketId, contactId: first.body.contactId, ticketClosed: true });
    const ticket = (await t.api.get(`/tickets/${first.body.ticketId}`, a.admin.token)).body;
    expect(ticket.status).toBe('closed');
    const closed = await rowsOf(`select actor_kind, actor_id from ticket_logs where ticket_id = ? and action = 'closed'`, [first.body.ticketId]);
    expect(closed).toEqual([{ actor_kind: 'api', actor_id: lineA.id }]);
    const phone = await outboxSettled(t.app, lineA.id).then(() => outbox(t.api, a.admin.token, lineA.id));
    expect(phone.filter((m) => m.to === number).map((m) => m.body)).toEqual(['Primeira', 'Segunda']);
    // A later send opens a new ticket.
    const third = await send(lineA.token, { number, body: 'Terceira', closeTicket: 'false' });
    expect(third.body.ticketId).not.toBe(first.body.ticketId);
  });

  it('refuses bad input with the fields, queueing nothing', async () => {
    const before = await rowsOf('select count(*)::int as n from outbound_messages where whatsapp_id = ?', [lineA.id]);
    expectInvalid(await send(lineA.token, { body: 'Oi' }), 'number');
    expectInvalid(await send(lineA.token, { number: '123', body: 'Oi' }), 'number');
    expectInvalid(await send(lineA.token, { number: newNumber(), body: '   ' }), 'body');
    expectInvalid(await send(lineA.token, { number: newNumber(), body: 'x'.repeat(4097) }), 'body');
    expectInvalid(await send(lineA.token, { number: newNumber(), body: 'Oi', closeTicket: 'yes' }), 'closeTicket');
    expectError(await t.api.request('POST', '/api/messages/send', { token: lineA.token, rawBody: '{"number":' }), 400, 'ERR_INVALID_JSON');
    expectInvalid(await send(lineA.token, { number: newNumber(), body: 'Oi' }, { 'Idempotency-Key': 'chave com espaço' }), 'Idempotency-Key');
    expectInvalid(await send(lineA.token, { number: newNumber(), body: 'Oi' }, { 'Idempotency-Key': 'k'.repeat(256) }), 'Idempotency-Key');
    const after = await rowsOf('select count(*)::int as n from outbound_messages where whatsapp_id = ?', [lineA.id]);
    expect(after).toEqual(before);
  });

  it('checks the number through the token\'s own connection: not on WhatsApp is 400, no answer 502, a connection down 503', async () => {
    const line = await connectLine(a);
    const phone = t.app.channels.find(line.id) as SandboxSession;
    // WhatsApp's answers, as the connection's session gives them.
    const check = vi.spyOn(phone, 'checkNumber');
    check.mockResolvedValueOnce(null);
    expectError(await send(line.token, { number: newNumber(), body: 'Oi' }), 400, 'ERR_WAPP_INVALID_CONTACT');
    check.mockRejectedValueOnce(new Error('socket closed'));
    expectError(await send(line.token, { number: newNumber(), body: 'Oi' }), 502, 'ERR_WAPP_CHECK_CONTACT');
    // The canonical number WhatsApp answers is the one used (a Brazilian ninth digit added, say).
    check.mockResolvedValueOnce('5521999990000');
    const fixed = await send(line.token, { number: '552199990000', body: 'Oi' });
    expect(fixed.body.number).toBe('5521999990000');
    check.mockRestore();

    // Down: the phone is logged out; the send is refused, nothing queued, no contact created.
    expect((await t.api.del(`/whatsappsession/${line.id}`, a.admin.token)).status).toBe(200);
    const number = newNumber();
    const down = await send(line.token, { number, body: 'Oi' }, { 'Idempotency-Key': 'down-1' });
    expectError(down, 503, 'ERR_WAPP_NOT_CONNECTED');
    expect(await rowsOf('select id from contacts where number = ?', [number])).toEqual([]);
    // The refused request left its key free: once the phone is back, the same key sends.
    await t.api.post(`/whatsappsession/${line.id}`, {}, a.admin.token);
    await eventually(async () => (await t.api.post(`/sandbox/${line.id}/scan`, {}, a.admin.token)).status === 200);
    const again = await send(line.token, { number, body: 'Oi' }, { 'Idempotency-Key': 'down-1' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('the token', () => {
  it('is required and must be a connection\'s: none, a wrong one or a user\'s session token is 401', async () => {
    const body = { number: newNumber(), body: 'Oi' };
    expectError(await send(undefined, body), 401, 'ERR_INVALID_API_TOKEN');
    expectError(await send('not-a-token', body), 401, 'ERR_INVALID_API_TOKEN');
    expectError(await send(a.admin.token, body), 401, 'ERR_INVALID_API_TOKEN');
    expectError(await t.api.request('POST', '/api/messages/send', { body, headers: { authorization: `Basic ${lineA.token}` } }), 401, 'ERR_INVALID_API_TOKEN');
    expectError(await statusOf('not-a-token', 1), 401, 'ERR_INVALID_API_TOKEN');
  });

  it('rotated from the connection: the old token is 401 at once, the new one sends', async () => {
    const line = await connectLine(a);
    const rotated = await t.api.put(`/whatsapp/${line.id}`, { regenerateToken: true }, a.admin.token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.token).toEqual(expect.any(String));
    expect(rotated.body.token).not.toBe(line.token);
    // Shown once: reading the connection again never shows it.
    expect((await t.api.get(`/whatsapp/${line.id}`, a.admin.token)).body).not.toHaveProperty('token');
    expectError(await send(line.token, { number: newNumber(), body: 'Oi' }), 401, 'ERR_INVALID_API_TOKEN');
    expect((await send(rotated.body.token, { number: newNumber(), body: 'Oi' })).status).toBe(200);
    // Only an admin rotates it.
    expectError(await t.api.put(`/whatsapp/${line.id}`, { regenerateToken: true }, a.agent.token), 403, 'ERR_NO_PERMISSION');
  });

  it('acts in its own company only: another company\'s token creates nothing here and cannot read these messages', async () => {
    const number = newNumber();
    const mine = await send(lineA.token, { number, body: 'De A' });
    const theirs = await send(lineB.token, { number, body: 'De B' });
    expect(theirs.status).toBe(200);
    // B's send made B's contact and ticket, on B's connection.
    expect(theirs.body.contactId).not.toBe(mine.body.contactId);
    expect((await t.api.get(`/tickets/${theirs.body.ticketId}`, b.admin.token)).body.whatsappId).toBe(lineB.id);
    expect((await t.api.get(`/tickets/${theirs.body.ticketId}`, a.admin.token)).status).toBe(404);
    const contacts = await rowsOf('select company_id from contacts where number = ? order by company_id', [number]);
    expect(contacts).toEqual([{ company_id: a.companyId }, { company_id: b.companyId }]);
    // Status reads are the token's connection's own.
    expectError(await statusOf(lineB.token, mine.body.messageId), 404, 'ERR_NO_MESSAGE_FOUND');
    expect((await statusOf(lineA.token, mine.body.messageId)).status).toBe(200);
  });

  it('works only when the company\'s plan has the external API (403 otherwise, nothing sent)', async () => {
    const plan = await t.api.post('/plans', { name: `No API ${seq++}`, users: 5, connections: 5, queues: 5, useExternalApi: false }, t.superToken);
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const c = await createTenant(t, 'NoApi', plan.body.id);
    const line = await connectLine(c);
    const number = newNumber();
    expectError(await send(line.token, { number, body: 'Oi' }), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await statusOf(line.token, 1), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expect(await rowsOf('select id from contacts where number = ?', [number])).toEqual([]);
    // Switched on, the same token works.
    expect((await t.api.put(`/plans/${plan.body.id}`, { useExternalApi: true }, t.superToken)).status).toBe(200);
    expect((await send(line.token, { number, body: 'Oi' })).status).toBe(200);
  });
});

describe('multipart with medias', () => {
  let own: Line;
  beforeAll(async () => {
    own = await connectLine(a);
  });

  it('queues one message per file, captioned with the body, and the phone gets the files', async () => {
    const number = newNumber();
    const res = await sendFiles(own.token, { number, body: 'Segue {{firstName}}' }, [
      ['foto.png', 'image/png', PNG],
      ['nota.pdf', 'application/pdf', Buffer.from('%PDF-1.4 test')],
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.messages.map((m: { type: string }) => m.type)).toEqual(['image', 'application']);
    expect(res.body.messageId).toBe(res.body.messages[0].id);
    const first = await delivered(t.api, a.admin.token, own.id, res.body.messages[0].wid);
    const second = await delivered(t.api, a.admin.token, own.id, res.body.messages[1].wid);
    expect(first).toMatchObject({ to: number, body: `Segue ${number}`, mediaType: 'image', mediaName: 'foto.png' });
    expect(second).toMatchObject({ body: `Segue ${number}`, mediaType: 'application', mediaName: 'nota.pdf' });
  });

  it('keeps a file name without its path, and stores it under a name of its own', async () => {
    const res = await sendFiles(own.token, { number: newNumber() }, [['../../../etc/passwd.png', 'image/png', PNG]]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = await rowsOf('select media_url, media_name from messages where id = ?', [res.body.messageId]);
    expect(row.media_name).toBe('passwd.png');
    expect(row.media_url).not.toContain('/');
    expect(row.media_url).not.toContain('passwd');
  });

  it('refuses a type not listed (415), a file too large (413), too many files, no file and another field (400)', async () => {
    const number = newNumber();
    expectError(await sendFiles(own.token, { number }, [['app.exe', 'application/x-msdownload', Buffer.from('MZ')]]), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    expectError(await sendFiles(own.token, { number }, [['big.mp4', 'video/mp4', Buffer.alloc(16 * 1024 * 1024 + 1)]]), 413, 'ERR_PAYLOAD_TOO_LARGE');
    const eleven = Array.from({ length: 11 }, (_, i) => [`f${i}.png`, 'image/png', PNG] as [string, string, Buffer]);
    expectError(await sendFiles(own.token, { number }, eleven), 413, 'ERR_PAYLOAD_TOO_LARGE');
    expectInvalid(await sendFiles(own.token, { number, body: 'Só texto' }, []), 'medias');
    expectInvalid(await sendFiles(own.token, { number }, [['foto.png', 'image/png', PNG]], 'file'), 'file');
    expectInvalid(await sendFiles(own.token, { body: 'Oi' }, [['foto.png', 'image/png', PNG]]), 'number');
    expect(await rowsOf('select id from contacts where number = ?', [number])).toEqual([]);
  });
});

describe('Idempotency-Key', () => {
  let own: Line;
  beforeAll(async () => {
    own = await connectLine(a);
  });

  it('replays the first answer for the same key and body, sending once', async () => {
    const number = newNumber();
    const body = { number, body: 'Uma vez só' };
    const first = await send(own.token, body, { 'Idempotency-Key': '"a1b2c3"' });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same key bare or quoted (RFC 8941 sf-string), the same number with another mask.
    const again = await send(own.token, { ...body, number: `+${number}` }, { 'Idempotency-Key': 'a1b2c3' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    await outboxSettled(t.app, own.id);
    expect((await outbox(t.api, a.admin.token, own.id)).filter((m) => m.to === number)).toHaveLength(1);
  });

  it('answers 422 for the key with another body, and the key is the token\'s own', async () => {
    const number = newNumber();
    expect((await send(own.token, { number, body: 'Original' }, { 'Idempotency-Key': 'pedido-77' })).status).toBe(200);
    expectError(await send(own.token, { number, body: 'Outro' }, { 'Idempotency-Key': 'pedido-77' }), 422, 'ERR_IDEMPOTENCY_KEY_REUSED');
    expectError(await send(own.token, { number, body: 'Original', closeTicket: true }, { 'Idempotency-Key': 'pedido-77' }), 422, 'ERR_IDEMPOTENCY_KEY_REUSED');
    expectError(await sendFiles(own.token, { number, body: 'Original' }, [['foto.png', 'image/png', PNG]], 'medias', { 'Idempotency-Key': 'pedido-77' }), 422, 'ERR_IDEMPOTENCY_KEY_REUSED');
    // Another token (company B's connection) has its own keys.
    const other = await send(lineB.token, { number, body: 'Outro' }, { 'Idempotency-Key': 'pedido-77' });
    expect(other.status).toBe(200);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers 409 while the first request with the key is still running, then the first answer', async () => {
    const number = newNumber();
    const opened = await send(own.token, { number, body: 'Abre o ticket' });
    // The ticket's row is held by another transaction: the keyed send waits in the middle of its work.
    const blocker = em();
    await blocker.begin();
    await blocker.execute('select id from tickets where id = ? for update', [opened.body.ticketId]);
    const body = { number, body: 'Em andamento' };
    const running = send(own.token, body, { 'Idempotency-Key': 'slow-1' });
    try {
      await eventually(async () => (await rowsOf(`select state from api_requests where idempotency_key = 'slow-1'`)).length === 1);
      expectError(await send(own.token, body, { 'Idempotency-Key': 'slow-1' }), 409, 'ERR_IDEMPOTENCY_KEY_IN_USE');
      // Another body is refused as such even while the first runs.
      expectError(await send(own.token, { ...body, body: 'Outro' }, { 'Idempotency-Key': 'slow-1' }), 422, 'ERR_IDEMPOTENCY_KEY_REUSED');
    } finally {
      await blocker.commit();
    }
    const first = await running;
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const replay = await send(own.token, body, { 'Idempotency-Key': 'slow-1' });
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps a key 24 hours: an expired key sends again, and the sweep forgets old requests', async () => {
    const number = newNumber();
    const body = { number, body: 'Ontem' };
    const first = await send(own.token, body, { 'Idempotency-Key': 'day-1' });
    const [kept] = await rowsOf(`select extract(epoch from expires_at - created_at)::int as seconds from api_requests where idempotency_key = 'day-1'`);
    expect(kept.seconds).toBe(24 * 3600);
    await rowsOf(`update api_requests set expires_at = now() - interval '1 second' where idempotency_key = 'day-1'`);
    const later = await send(own.token, body, { 'Idempotency-Key': 'day-1' });
    expect(later.status).toBe(200);
    expect(later.body.messageId).not.toBe(first.body.messageId);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    // The hourly sweep removes what is past its day, and only that.
    await rowsOf(`update api_requests set expires_at = now() - interval '1 second' where idempotency_key = 'day-1'`);
    const live = (await rowsOf('select count(*)::int as n from api_requests where expires_at > now()'))[0].n;
    expect(await sweepExpired(em())).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(`select id from api_requests where idempotency_key = 'day-1'`)).toEqual([]);
    expect((await rowsOf('select count(*)::int as n from api_requests'))[0].n).toBe(live);
  });
});

describe('rate limit', () => {
  it('allows each token its calls per minute, then 429 with Retry-After; another token is not counted', async () => {
    const line = await connectLine(a);
    const statuses: number[] = [];
    for (let i = 0; i < SEND_LIMIT; i += 1) statuses.push((await send(line.token, { body: 'sem número' })).status);
    expect(statuses).toEqual(Array(SEND_LIMIT).fill(400));
    const refused = await send(line.token, { number: newNumber(), body: 'Oi' });
    expectError(refused, 429, 'ERR_TOO_MANY_REQUESTS');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.retryAfter).toBe(retryAfter);
    // Rotating the token does not start a new window.
    const rotated = (await t.api.put(`/whatsapp/${line.id}`, { regenerateToken: true }, a.admin.token)).body.token as string;
    expectError(await send(rotated, { number: newNumber(), body: 'Oi' }), 429, 'ERR_TOO_MANY_REQUESTS');
    // Status reads have their own allowance; another token its own window.
    expect((await statusOf(rotated, 999999)).status).toBe(404);
    const other = await send(lineA.token, { number: newNumber(), body: 'Oi' });
    expect(other.status).toBe(200);
    expect(Number(other.headers.get('x-ratelimit-remaining'))).toBeLessThan(SEND_LIMIT);
  });
});

describe('GET /api/messages/{id}', () => {
  let own: Line;
  beforeAll(async () => {
    own = await connectLine(a);
  });

  it('follows a sent message: pending or sent, then delivered and read as the receipts come', async () => {
    const sent = await send(own.token, { number: newNumber(), body: 'Acompanhe' });
    const { messageId, messages } = sent.body;
    const early = await statusOf(own.token, messageId);
    expect(early.status).toBe(200);
    expect(['pending', 'sending', 'sent']).toContain(early.body.status);
    await delivered(t.api, a.admin.token, own.id, messages[0].wid);
    const state = async () => (await statusOf(own.token, messageId)).body;
    await eventually(async () => (await state()).status === 'sent');
    expect(await state()).toMatchObject({
      id: messageId,
      wid: messages[0].wid,
      ticketId: sent.body.ticketId,
      contactId: sent.body.contactId,
      number: sent.body.number,
      status: 'sent',
      error: null,
      sentAt: expect.any(String),
    });
    // The phone's receipts, on the spec's scale: 2 received, 3 read.
    await t.api.post(`/sandbox/${own.id}/ack`, { id: messages[0].wid, ack: 2 }, a.admin.token);
    await eventually(async () => (await state()).status === 'delivered');
    await t.api.post(`/sandbox/${own.id}/ack`, { id: messages[0].wid, ack: 3 }, a.admin.token);
    await eventually(async () => (await state()).status === 'read');
    expect((await state()).ack).toBe(3);
  });

  it('says failed, with the reason, when WhatsApp refuses the message', async () => {
    const phone = t.app.channels.find(own.id) as SandboxSession;
    phone.fault = { code: 'ERR_WAPP_INVALID_CONTACT', count: 1 };
    const sent = await send(own.token, { number: newNumber(), body: 'Recusada' });
    const state = async () => (await statusOf(own.token, sent.body.messageId)).body;
    await eventually(async () => (await state()).status === 'failed');
    expect(await state()).toMatchObject({ status: 'failed', error: 'ERR_WAPP_INVALID_CONTACT', sentAt: null, ack: 0 });
  });

  it('finds only what the token\'s connection sent: a received message, an unknown id and a bad id are refused', async () => {
    const number = newNumber();
    const sent = await send(own.token, { number, body: 'Oi' });
    await t.api.post(`/sandbox/${own.id}/messages`, { from: number, body: 'Resposta' }, a.admin.token);
    const received = await eventually(async () => {
      const [row] = await rowsOf('select id from messages where ticket_id = ? and from_me = false', [sent.body.ticketId]);
      return row ?? false;
    });
    expectError(await statusOf(own.token, received.id), 404, 'ERR_NO_MESSAGE_FOUND');
    expectError(await statusOf(own.token, 2147483000), 404, 'ERR_NO_MESSAGE_FOUND');
    expectInvalid(await statusOf(own.token, 'abc'), 'id');
    // Another connection of the same company does not read it either.
    const other = await connectLine(a);
    expectError(await statusOf(other.token, sent.body.messageId), 404, 'ERR_NO_MESSAGE_FOUND');
  });
});

describe('GET /api/openapi.json', () => {
  it('documents both calls from the shared schemas, with the bearer token and the Idempotency-Key', async () => {
    const res = await t.api.get('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/messages/send', '/api/messages/{id}']);
    const post = doc.paths['/api/messages/send'].post;
    expect(Object.keys(post.requestBody.content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(post.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]));
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '409', '422', '429', '503']));
    expect(post.responses['429'].headers).toHaveProperty('Retry-After');
    expect(doc.components.securitySchemes.connectionToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.SendText.required.sort()).toEqual(['body', 'number']);
    expect(doc.components.schemas.SendMedia.properties.medias.items).toMatchObject({ type: 'string', format: 'binary' });
    expect(doc.components.schemas.SendResult.required).toEqual(expect.arrayContaining(['mensagem', 'messageId', 'ticketId', 'contactId']));
    expect(doc.paths['/api/messages/{id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/MessageStatus' });
  });
});
