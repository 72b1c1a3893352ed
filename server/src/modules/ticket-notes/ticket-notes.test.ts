import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { expectError, expectInvalid } from '../../../testing/expect.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;
/** Company A: a pending queue-less ticket the agent cannot see, and an open one assigned to the agent. */
let hidden: any;
let assigned: any;
let ticketB: any;
/** A second agent of company A. */
let otherAgent: { id: number; token: string };

const uid = () => randomBytes(4).toString('hex');

const connect = async (tenant: Tenant) => {
  const conn = await t.api.post('/whatsapp', { name: `Phone ${uid()}`, provider: 'sandbox' }, tenant.admin.token);
  expect(conn.status, JSON.stringify(conn.body)).toBe(201);
  expect((await t.api.post(`/sandbox/${conn.body.id}/scan`, {}, tenant.admin.token)).status).toBe(200);
  return conn.body.id as number;
};
const incomingTicket = async (tenant: Tenant, whatsappId: number, from: string) => {
  expect((await t.api.post(`/sandbox/${whatsappId}/messages`, { from, name: 'Ana', body: 'hi' }, tenant.admin.token)).status).toBe(201);
  return eventually(async () => {
    const list = await t.api.get('/tickets?status=pending', tenant.admin.token);
    return list.body.tickets.find((x: any) => x.contact.number === from) ?? false;
  });
};
/** The notes as the admin sees them. */
const notesOf = async (tenant: Tenant, ticket: any) => {
  const res = await t.api.get(`/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as any[];
};
const addNote = async (ticket: any, token: string, note = `Note ${uid()}`) => {
  const res = await t.api.post('/ticket-notes', { note, ticketId: ticket.id, contactId: ticket.contactId }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'NoteA');
  b = await createTenant(t, 'NoteB');
  const whatsappA = await connect(a);
  hidden = await incomingTicket(a, whatsappA, '5511999990001');
  const contact = await t.api.post('/contacts', { name: 'Assigned Customer', number: '5511999990003' }, a.admin.token);
  expect(contact.status).toBe(201);
  const ticket = await t.api.post('/tickets', { contactId: contact.body.id, whatsappId: whatsappA, userId: a.agent.id }, a.admin.token);
  expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
  assigned = ticket.body;
  ticketB = await incomingTicket(b, await connect(b), '5511999990002');
  const email = `second-${uid()}@example.com`;
  const created = await t.api.post('/users', { name: 'Second Agent', email, password: 'Passw0rd-x', profile: 'user' }, a.admin.token);
  expect(created.status).toBe(201);
  otherAgent = { id: created.body.id, token: (await t.api.login(email, 'Passw0rd-x')).token };
});
afterAll(() => t?.stop());

describe('authentication', () => {
  it.each([
    ['GET', '/ticket-notes/list?ticketId=1'],
    ['POST', '/ticket-notes'],
    ['DELETE', '/ticket-notes/1'],
  ])('%s %s answers 401 without a token', async (method, url) => {
    expectError(await t.api.request(method, url, { body: method === 'GET' ? undefined : {} }), 401, 'ERR_SESSION_EXPIRED');
  });
});

describe('POST /ticket-notes', () => {
  it("adds a note by the caller on the ticket and its contact", async () => {
    const res = await t.api.post('/ticket-notes', { note: '  Called back  ', ticketId: hidden.id, contactId: hidden.contactId }, a.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      note: 'Called back',
      ticketId: hidden.id,
      contactId: hidden.contactId,
      userId: a.admin.id,
      user: { id: a.admin.id, name: expect.any(String) },
    });
    expect(res.body.createdAt).toBeTruthy();
    expect((await notesOf(a, hidden)).find((n) => n.id === res.body.id)).toEqual(res.body);
  });

  it('lets an agent note a ticket assigned to them', async () => {
    const note = await addNote(assigned, a.agent.token);
    expect(note.user.id).toBe(a.agent.id);
  });

  it('lists every failing field and stores nothing', async () => {
    const before = (await notesOf(a, hidden)).length;
    expectInvalid(await t.api.post('/ticket-notes', {}, a.admin.token), 'note', 'ticketId', 'contactId');
    expectInvalid(await t.api.post('/ticket-notes', { note: 'a', ticketId: hidden.id, contactId: hidden.contactId }, a.admin.token), 'note');
    expectInvalid(await t.api.post('/ticket-notes', { note: '   x   ', ticketId: hidden.id, contactId: hidden.contactId }, a.admin.token), 'note');
    expectInvalid(await t.api.post('/ticket-notes', { note: 'fine note', ticketId: 'one', contactId: 0 }, a.admin.token), 'ticketId', 'contactId');
    // The contact must be the ticket's.
    expectInvalid(await t.api.post('/ticket-notes', { note: 'wrong contact', ticketId: hidden.id, contactId: assigned.contactId }, a.admin.token), 'contactId');
    expect((await notesOf(a, hidden)).length).toBe(before);
  });

  it('refuses a ticket the agent may not see (queue-less, allTicket off)', async () => {
    const before = (await notesOf(a, hidden)).length;
    expectError(
      await t.api.post('/ticket-notes', { note: 'peeking', ticketId: hidden.id, contactId: hidden.contactId }, a.agent.token),
      403,
      'ERR_NO_PERMISSION',
    );
    expect((await notesOf(a, hidden)).length).toBe(before);
  });

  it("cannot note another company's ticket", async () => {
    const before = (await notesOf(b, ticketB)).length;
    expectError(
      await t.api.post('/ticket-notes', { note: 'cross company', ticketId: ticketB.id, contactId: ticketB.contactId }, a.admin.token),
      404,
      'ERR_NO_TICKET_FOUND',
    );
    expect((await notesOf(b, ticketB)).length).toBe(before);
  });
});

describe('GET /ticket-notes/list', () => {
  it('lists the notes of a ticket, newest first, with their author', async () => {
    const first = await addNote(assigned, a.agent.token, 'first');
    const second = await addNote(assigned, a.admin.token, 'second');
    const res = await t.api.get(`/ticket-notes/list?ticketId=${assigned.id}&contactId=${assigned.contactId}`, a.agent.token);
    expect(res.status).toBe(200);
    const ids = res.body.map((n: any) => n.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(res.body.find((n: any) => n.id === first.id).user).toEqual({ id: a.agent.id, name: 'Agent NoteA' });
    // Only this ticket's notes.
    expect(res.body.every((n: any) => n.ticketId === assigned.id)).toBe(true);
    // contactId is optional.
    expect((await t.api.get(`/ticket-notes/list?ticketId=${assigned.id}`, a.agent.token)).body).toEqual(res.body);
  });

  it('refuses tickets the caller may not see, and mismatched or missing parameters', async () => {
    await addNote(hidden, a.admin.token);
    expectError(await t.api.get(`/ticket-notes/list?ticketId=${hidden.id}&contactId=${hidden.contactId}`, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectInvalid(await t.api.get(`/ticket-notes/list?ticketId=${hidden.id}&contactId=${assigned.contactId}`, a.admin.token), 'contactId');
    expectInvalid(await t.api.get('/ticket-notes/list', a.admin.token), 'ticketId');
  });

  it("cannot read another company's notes", async () => {
    await addNote(ticketB, b.admin.token, 'secret of B');
    expectError(await t.api.get(`/ticket-notes/list?ticketId=${ticketB.id}&contactId=${ticketB.contactId}`, a.admin.token), 404, 'ERR_NO_TICKET_FOUND');
  });
});

describe('DELETE /ticket-notes/{id}', () => {
  it('lets the author delete their note', async () => {
    const note = await addNote(assigned, a.agent.token);
    expect((await t.api.del(`/ticket-notes/${note.id}`, a.agent.token)).status).toBe(200);
    expect((await notesOf(a, assigned)).some((n) => n.id === note.id)).toBe(false);
    expectError(await t.api.del(`/ticket-notes/${note.id}`, a.agent.token), 404, 'ERR_NO_TICKET_NOTE_FOUND');
  });

  it("refuses another agent's note to an agent, and lets an admin delete it", async () => {
    const note = await addNote(assigned, a.agent.token);
    expectError(await t.api.del(`/ticket-notes/${note.id}`, otherAgent.token), 403, 'ERR_NO_PERMISSION');
    expect((await notesOf(a, assigned)).some((n) => n.id === note.id)).toBe(true);
    expect((await t.api.del(`/ticket-notes/${note.id}`, a.admin.token)).status).toBe(200);
    expect((await notesOf(a, assigned)).some((n) => n.id === note.id)).toBe(false);
  });

  it("cannot delete another company's note", async () => {
    const note = await addNote(ticketB, b.admin.token);
    expectError(await t.api.del(`/ticket-notes/${note.id}`, a.admin.token), 404, 'ERR_NO_TICKET_NOTE_FOUND');
    expect((await notesOf(b, ticketB)).some((n) => n.id === note.id)).toBe(true);
  });

  it('validates the id', async () => {
    expectInvalid(await t.api.del('/ticket-notes/abc', a.admin.token), 'id');
  });
});
