import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, customerSays, outbox, ticketOf } from '../../testing/conversation.js';
import { createTenant, startTestApp, type Tenant, type TestApp } from '../../testing/helpers.js';

/**
 * Input found by probing the running server (issue 11): NUL characters, impossible dates and numbers
 * beyond PostgreSQL's integer, on every listed route. Each must answer a 4xx with an error code and
 * leave every table as it was.
 */
let t: TestApp;
let a: Tenant;
let ticketId: number;
let contactId: number;
let tagId: number;
let whatsappId: number;

const NUL = '\u0000';
const q = (text: string) => encodeURIComponent(text);
const TABLES = [
  'companies', 'users', 'contacts', 'contact_custom_fields', 'tags', 'ticket_tags', 'settings', 'ticket_notes',
  'quick_messages', 'schedules', 'tickets', 'messages', 'sandbox_outbox', 'announcements', 'helps', 'invoices',
  'files', 'files_options', 'password_resets', 'sessions',
];

/** A digest of every table a route could write to. */
const fingerprint = async (): Promise<Record<string, string>> => {
  const conn = t.app.orm.em.fork().getConnection();
  const out: Record<string, string> = {};
  for (const table of TABLES) {
    const [row] = await conn.execute<{ digest: string }[]>(
      `select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as digest from ${table} x`,
    );
    out[table] = row!.digest;
  }
  return out;
};

type Who = 'admin' | 'agent' | 'super';
interface Probe {
  method: 'GET' | 'POST' | 'PUT';
  url: () => string;
  body?: () => unknown;
  as?: Who;
}

const get = (url: string | (() => string), as: Who = 'admin'): Probe => ({ method: 'GET', url: typeof url === 'string' ? () => url : url, as });
const send = (method: 'POST' | 'PUT', url: string | (() => string), body: () => unknown, as: Who = 'admin'): Probe => ({
  method,
  url: typeof url === 'string' ? () => url : url,
  body,
  as,
});

const PROBES: Record<string, Probe> = {
  // NUL in a search parameter
  'GET /tickets searchParam NUL': get(`/tickets?searchParam=${q(`a${NUL}b`)}`),
  'GET /contacts searchParam NUL': get(`/contacts?searchParam=${q(`a${NUL}b`)}`),
  'GET /users searchParam NUL': get(`/users?searchParam=${q(`a${NUL}b`)}`),
  'GET /tags searchParam NUL': get(`/tags?searchParam=${q(`a${NUL}b`)}`),
  'GET /schedules searchParam NUL': get(`/schedules?searchParam=${q(`a${NUL}b`)}`),
  'GET /quick-messages searchParam NUL': get(`/quick-messages?searchParam=${q(`a${NUL}b`)}`),
  'GET /announcements searchParam NUL': get(`/announcements?searchParam=${q(`a${NUL}b`)}`),
  'GET /helps searchParam NUL': get(`/helps?searchParam=${q(`a${NUL}b`)}`, 'super'),
  'GET /invoices/all searchParam NUL': get(`/invoices/all?searchParam=${q(`a${NUL}b`)}`),
  'GET /companies searchParam NUL': get(`/companies?searchParam=${q(`a${NUL}b`)}`, 'super'),
  'GET /tickets/u/:uuid NUL': get(`/tickets/u/${q(`a${NUL}b`)}`),
  // NUL in a body field
  'POST /contacts name NUL': send('POST', '/contacts', () => ({ name: `Ana${NUL}Maria`, number: '5511988887777' })),
  'PUT /contacts/:id name NUL': send('PUT', () => `/contacts/${contactId}`, () => ({ name: `Ana${NUL}` })),
  'PUT /contacts/:id extraInfo NUL': send('PUT', () => `/contacts/${contactId}`, () => ({ extraInfo: [{ name: 'cpf', value: `1${NUL}2` }] })),
  'POST /tags name NUL': send('POST', '/tags', () => ({ name: `VIP${NUL}x`, color: '#aabbcc' })),
  'PUT /tags/:id name NUL': send('PUT', () => `/tags/${tagId}`, () => ({ name: `VIP${NUL}x`, color: '#aabbcc' })),
  'PUT /settings/:key value NUL': send('PUT', '/settings/userRating', () => ({ value: `enabled${NUL}` })),
  'POST /ticket-notes note NUL': send('POST', '/ticket-notes', () => ({ note: `hello${NUL}`, ticketId, contactId })),
  'POST /quick-messages NUL': send('POST', '/quick-messages', () => ({ shortcode: `hi${NUL}`, message: 'Hello there' })),
  'POST /schedules body NUL': send('POST', '/schedules', () => ({ body: `Hello${NUL} there`, contactId, sendAt: '2030-01-01T10:00:00Z' })),
  'POST /users name NUL': send('POST', '/users', () => ({ name: `Bob${NUL}by`, email: 'bobby@example.com', password: 'Passw0rd-x', profile: 'user' })),
  'PUT /users/:id name NUL': send('PUT', () => `/users/${a.agent.id}`, () => ({ name: `Bob${NUL}by` })),
  'POST /messages/:ticketId body NUL': send('POST', () => `/messages/${ticketId}`, () => ({ body: `hi${NUL}there` })),
  'GET /files searchParam NUL': get(`/files?searchParam=${q(`a${NUL}b`)}`),
  'POST /files name NUL': send('POST', '/files', () => ({ name: `Lista${NUL}x`, message: 'Hello there' })),
  'POST /files option name NUL': send('POST', '/files', () => ({ name: 'Lista', message: 'Hello there', options: [{ name: `a${NUL}` }] })),
  'PUT /files/:id 2147483648': send('PUT', '/files/2147483648', () => ({ name: 'Lista' })),
  'POST /forgetpassword/:email NUL': send('POST', `/forgetpassword/${q(`a${NUL}@example.com`)}`, () => undefined),
  'POST /resetpasswords token NUL': send('POST', '/resetpasswords', () => ({ email: 'a@example.com', token: `12345${NUL}`, newPassword: 'Passw0rd-x' })),
  // impossible dates
  'GET /tickets date 2024-13-45': get('/tickets?date=2024-13-45'),
  'GET /tickets updatedAt 2024-02-30': get('/tickets?updatedAt=2024-02-30'),
  'GET /contacts date 2024-02-30': get('/contacts?date=2024-02-30'),
  'GET /contacts dateStart 2024-99-01': get('/contacts?dateStart=2024-99-01'),
  'GET /contacts dateEnd 0000-01-01': get('/contacts?dateEnd=0000-01-01'),
  'POST /schedules sendAt +275760': send('POST', '/schedules', () => ({ body: 'Hello there', contactId, sendAt: '+275760-09-13T00:00:00.000Z' })),
  'POST /schedules sendAt 0000-01-01': send('POST', '/schedules', () => ({ body: 'Hello there', contactId, sendAt: '0000-01-01T00:00:00Z' })),
  'POST /schedules sendAt 2024-02-30': send('POST', '/schedules', () => ({ body: 'Hello there', contactId, sendAt: '2031-02-30T10:00:00Z' })),
  'GET /schedules sendAtFrom +275760': get(`/schedules?sendAtFrom=${q('+275760-09-13T00:00:00.000Z')}`),
  // numbers beyond PostgreSQL's integer
  'GET /tickets queueIds 2147483648': get('/tickets?queueIds=2147483648'),
  'GET /tickets tags 2147483648': get('/tickets?tags=2147483648'),
  'GET /tickets users 9999999999': get('/tickets?users=9999999999'),
  'GET /tickets users JSON 9999999999': get(`/tickets?users=${q('[9999999999]')}`),
  'GET /tickets/:id 2147483648': get('/tickets/2147483648'),
  'GET /contacts/:id 9999999999': get('/contacts/9999999999'),
  'PUT /users/:id 9999999999': send('PUT', '/users/9999999999', () => ({ name: 'Bobby' })),
  'GET /messages/:ticketId 2147483648': get('/messages/2147483648'),
  'POST /ticket-notes ticketId 2147483648': send('POST', '/ticket-notes', () => ({ note: 'hello', ticketId: 2147483648, contactId })),
  // the kanban's calls
  'GET /ticket/kanban queueIds 2147483648': get(`/ticket/kanban?queueIds=${q('[2147483648]')}`),
  'GET /ticket/kanban queueIds NUL': get(`/ticket/kanban?queueIds=${q(`[1${NUL}]`)}`),
  'GET /ticket/kanban lane 2147483648': get('/ticket/kanban?lane=2147483648'),
  'PUT /ticket/:id/kanban 2147483648': send('PUT', '/ticket/2147483648/kanban', () => ({ tagId: null })),
  'PUT /ticket/:id/kanban tagId 2147483648': send('PUT', () => `/ticket/${ticketId}/kanban`, () => ({ tagId: 2147483648 })),
  'PUT /ticket-tags/:ticketId/:tagId 2147483648': send('PUT', () => `/ticket-tags/${ticketId}/2147483648`, () => ({})),
  'PUT /tags/kanban/order 2147483648': send('PUT', '/tags/kanban/order', () => ({ tagIds: [2147483648] })),
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t);
  const sandbox = await connectSandbox(t.api, a.admin.token);
  whatsappId = sandbox.id;
  await customerSays(t.api, a.admin.token, whatsappId, { from: '5511977776666', body: 'oi', name: 'Customer' });
  const ticket = await ticketOf(t.api, a.admin.token, '5511977776666');
  ticketId = ticket.id;
  contactId = ticket.contact.id;
  const tag = await t.api.post('/tags', { name: 'Existing', color: '#112233' }, a.admin.token);
  tagId = tag.body.id;
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

describe('bad input on every listed route', () => {
  it('answers a 4xx with an error code and changes nothing', async () => {
    const tokens: Record<Who, string> = { admin: a.admin.token, agent: a.agent.token, super: t.superToken };
    const before = await fingerprint();
    const outboxBefore = (await outbox(t.api, a.admin.token, whatsappId)).length;
    const failures: string[] = [];
    for (const [name, probe] of Object.entries(PROBES)) {
      const res = await t.api.request(probe.method, probe.url(), { token: tokens[probe.as ?? 'admin'], body: probe.body?.() });
      const ok = res.status >= 400 && res.status < 500 && typeof res.body?.error === 'string' && res.body.error.startsWith('ERR_');
      if (!ok) failures.push(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(failures).toEqual([]);
    expect(await fingerprint()).toEqual(before);
    expect((await outbox(t.api, a.admin.token, whatsappId)).length).toBe(outboxBefore);
  });

  it('still takes the same routes with good input (the probes are not refused for another reason)', async () => {
    expect((await t.api.get('/tickets?searchParam=Customer&date=2024-02-29&queueIds=2147483647', a.admin.token)).status).toBe(200);
    expect((await t.api.get('/contacts?dateStart=2024-02-29&dateEnd=2024-03-01', a.admin.token)).status).toBe(200);
    const note = await t.api.post('/ticket-notes', { note: 'hello', ticketId, contactId }, a.admin.token);
    expect(note.status).toBeLessThan(300);
    const schedule = await t.api.post('/schedules', { body: 'Hello there', contactId, sendAt: '2031-02-28T10:00:00Z' }, a.admin.token);
    expect(schedule.status).toBeLessThan(300);
    const sent = await t.api.post(`/messages/${ticketId}`, { body: 'hi there' }, a.admin.token);
    expect(sent.status).toBeLessThan(300);
  });
});
