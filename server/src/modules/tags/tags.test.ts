import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvents } from '../../events/bus.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { expectError, expectInvalid } from '../../../testing/expect.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;
/** A pending, queue-less ticket of company A, from a customer's message; read, never changed. */
let ticketA: any;
const ticketEvents: DomainEvents['ticket.changed'][] = [];

const uid = () => randomBytes(4).toString('hex');

const makeTag = async (tenant: Tenant, body: Record<string, unknown> = {}, token = tenant.admin.token) => {
  const res = await t.api.post('/tags', { name: `Tag ${uid()}`, ...body }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const readTag = async (tenant: Tenant, id: number) => {
  const res = await t.api.get(`/tags/${id}`, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const allTags = async (tenant: Tenant) => (await t.api.get('/tags/list', tenant.admin.token)).body as any[];
/** An agent of the company's own, for a test that changes what an agent may do. */
const newAgent = async (tenant: Tenant) => {
  const email = `agent-${uid()}@example.com`;
  const res = await t.api.post('/users', { name: 'Own Agent', email, password: tenant.agent.password, profile: 'user' }, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const login = await t.api.login(email, tenant.agent.password);
  return { id: login.user.id as number, token: login.token as string };
};
const tagsOfTicket = async (tenant: Tenant, ticketId: number) => {
  const res = await t.api.get(`/tickets/${ticketId}`, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.tags as { id: number; name: string }[]).map((x) => x.name).sort();
};

/** One sandbox phone per company, connected on first use. */
const phones = new Map<number, number>();
const phoneOf = async (tenant: Tenant) => {
  const known = phones.get(tenant.companyId);
  if (known) return known;
  const conn = await t.api.post('/whatsapp', { name: `Phone ${uid()}`, provider: 'sandbox' }, tenant.admin.token);
  expect(conn.status, JSON.stringify(conn.body)).toBe(201);
  expect((await t.api.post(`/sandbox/${conn.body.id}/scan`, {}, tenant.admin.token)).status).toBe(200);
  phones.set(tenant.companyId, conn.body.id);
  return conn.body.id as number;
};
let customerSeq = 0;

/**
 * A new customer's message: a pending ticket without a queue, of the caller's own, so that the tags a test
 * sets or asserts on are never another test's.
 */
const incomingTicket = async (tenant: Tenant, from = `55119999${String(++customerSeq).padStart(5, '0')}`) => {
  const phone = await phoneOf(tenant);
  expect((await t.api.post(`/sandbox/${phone}/messages`, { from, name: 'Ana', body: 'hi' }, tenant.admin.token)).status).toBe(201);
  return eventually(async () => {
    const list = await t.api.get('/tickets?status=pending', tenant.admin.token);
    return list.body.tickets.find((x: any) => x.contact.number === from) ?? false;
  });
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'TagA');
  b = await createTenant(t, 'TagB');
  ticketA = await incomingTicket(a);
  t.app.events.on('ticket.changed', (e) => {
    ticketEvents.push(e);
  });
});
afterAll(() => t?.stop());

describe('authentication', () => {
  const endpoints: [string, string][] = [
    ['GET', '/tags'],
    ['GET', '/tags/list'],
    ['GET', '/tags/kanban'],
    ['GET', '/tags/1'],
    ['POST', '/tags'],
    ['POST', '/tags/sync'],
    ['PUT', '/tags/1'],
    ['DELETE', '/tags/1'],
  ];
  it.each(endpoints)('%s %s answers 401 without a token', async (method, url) => {
    expectError(await t.api.request(method, url, { body: method === 'GET' ? undefined : {} }), 401, 'ERR_SESSION_EXPIRED');
  });
});

describe('POST /tags', () => {
  it('creates a tag with the default colour, kanban 0 and the caller as creator', async () => {
    const res = await t.api.post('/tags', { name: `  Urgent ${uid()} ` }, a.agent.token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ color: '#A4CCCC', kanban: 0, userId: a.agent.id, companyId: a.companyId, ticketsCount: 0 });
    expect(res.body.name).toMatch(/^Urgent [0-9a-f]{8}$/);
    expect(await readTag(a, res.body.id)).toEqual(res.body);
  });

  it('lets admins create a kanban lane with a colour (boolean or 0/1)', async () => {
    const res = await t.api.post('/tags', { name: `Lane ${uid()}`, color: '#ff0000', kanban: 1 }, a.admin.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ color: '#ff0000', kanban: 1 });
    expect((await t.api.post('/tags', { name: `Lane ${uid()}`, kanban: true }, a.admin.token)).body.kanban).toBe(1);
  });

  it('refuses a kanban lane from an agent (the switch is for admins) and creates nothing', async () => {
    const name = `AgentLane ${uid()}`;
    expectError(await t.api.post('/tags', { name, kanban: 1 }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expect((await allTags(a)).some((x) => x.name === name)).toBe(false);
  });

  it('lists every failing field', async () => {
    const before = (await allTags(a)).length;
    expectInvalid(await t.api.post('/tags', {}, a.admin.token), 'name');
    expectInvalid(await t.api.post('/tags', { name: 'ab' }, a.admin.token), 'name');
    expectInvalid(await t.api.post('/tags', { name: '  ab  ' }, a.admin.token), 'name');
    expectInvalid(await t.api.post('/tags', { name: 'Valid name', color: 'red', kanban: 2 }, a.admin.token), 'color', 'kanban');
    expect((await allTags(a)).length).toBe(before);
  });

  it('refuses a name the company already has, in any case, with ERR_TAG_ALREADY_EXISTS', async () => {
    const tag = await makeTag(a);
    const before = (await allTags(a)).length;
    expectError(await t.api.post('/tags', { name: tag.name }, a.agent.token), 409, 'ERR_TAG_ALREADY_EXISTS');
    expectError(await t.api.post('/tags', { name: tag.name.toUpperCase(), color: '#000000' }, a.agent.token), 409, 'ERR_TAG_ALREADY_EXISTS');
    expect((await allTags(a)).length).toBe(before);
    // Another company may use the same name.
    expect((await t.api.post('/tags', { name: tag.name }, b.agent.token)).status).toBe(201);
  });
});

describe('GET /tags, /tags/list, /tags/kanban, /tags/{id}', () => {
  it('pages 20 by name with a ticket count, searching name or colour', async () => {
    const marker = uid();
    for (let i = 0; i < 22; i++) await makeTag(a, { name: `Paged ${marker} ${String(i).padStart(2, '0')}` });
    const first = await t.api.get(`/tags?searchParam=${marker}`, a.agent.token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ count: 22, hasMore: true });
    expect(first.body.tags).toHaveLength(20);
    expect(first.body.tags[0]).toMatchObject({ name: `Paged ${marker} 00`, ticketsCount: 0 });
    const second = await t.api.get(`/tags/?searchParam=${marker}&pageNumber=2`, a.agent.token);
    expect(second.body).toMatchObject({ count: 22, hasMore: false });
    expect(second.body.tags.map((x: any) => x.name)).toEqual([`Paged ${marker} 20`, `Paged ${marker} 21`]);
    const colour = await makeTag(a, { color: '#123abc' });
    expect((await t.api.get('/tags?searchParam=123ABC', a.agent.token)).body.tags.map((x: any) => x.id)).toEqual([colour.id]);
    expect((await t.api.get(`/tags?searchParam=${marker}`, b.admin.token)).body).toMatchObject({ tags: [], count: 0 });
    expectInvalid(await t.api.get('/tags?pageNumber=-1', a.agent.token), 'pageNumber');
  });

  it('counts the tickets carrying each tag', async () => {
    const tag = await makeTag(a);
    const ticket = await incomingTicket(a);
    expect((await t.api.post('/tags/sync', { ticketId: ticket.id, tags: [{ id: tag.id }] }, a.admin.token)).status).toBe(200);
    const res = await t.api.get(`/tags?searchParam=${encodeURIComponent(tag.name)}`, a.agent.token);
    expect(res.body.tags).toEqual([expect.objectContaining({ id: tag.id, ticketsCount: 1 })]);
    expect((await readTag(a, tag.id)).ticketsCount).toBe(1);
  });

  it('lists all tags of the company; another company only for super users', async () => {
    const tag = await makeTag(a);
    const list = await t.api.get('/tags/list', a.agent.token);
    expect(list.status).toBe(200);
    expect(list.body.find((x: any) => x.id === tag.id)).toMatchObject({ name: tag.name, color: tag.color, kanban: 0 });
    expect((await allTags(b)).some((x) => x.id === tag.id)).toBe(false);
    expectError(await t.api.get(`/tags/list?companyId=${b.companyId}`, a.admin.token), 403, 'ERR_NO_SUPER');
    expect((await t.api.get(`/tags/list?companyId=${a.companyId}`, t.superToken)).body.some((x: any) => x.id === tag.id)).toBe(true);
  });

  it('answers the kanban lanes as {lista}, in creation order', async () => {
    const lane1 = await makeTag(a, { kanban: 1 });
    const plain = await makeTag(a);
    const lane2 = await makeTag(a, { kanban: 1 });
    const res = await t.api.get('/tags/kanban', a.agent.token);
    expect(res.status).toBe(200);
    const ids = res.body.lista.map((x: any) => x.id);
    expect(ids).toContain(lane1.id);
    expect(ids).not.toContain(plain.id);
    expect(ids.indexOf(lane1.id)).toBeLessThan(ids.indexOf(lane2.id));
    expect(res.body.lista.every((x: any) => x.kanban === 1)).toBe(true);
    expect((await t.api.get('/tags/kanban', b.admin.token)).body.lista.some((x: any) => x.id === lane1.id)).toBe(false);
  });

  it("answers 404 for another company's tag", async () => {
    const tag = await makeTag(a);
    expectError(await t.api.get(`/tags/${tag.id}`, b.admin.token), 404, 'ERR_NO_TAG_FOUND');
    expectError(await t.api.get('/tags/999999', a.admin.token), 404, 'ERR_NO_TAG_FOUND');
  });
});

describe('PUT /tags/{id}', () => {
  it('lets admins change name, colour and kanban; the creator stays', async () => {
    const tag = await makeTag(a, {}, a.agent.token);
    const name = `Edited ${uid()}`;
    const res = await t.api.put(`/tags/${tag.id}`, { name, color: '#00ff00', kanban: 1, userId: a.admin.id }, a.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name, color: '#00ff00', kanban: 1, userId: a.agent.id });
    expect(await readTag(a, tag.id)).toEqual(res.body);
    // Only what is sent changes.
    expect((await t.api.put(`/tags/${tag.id}`, { kanban: 0 }, a.admin.token)).body).toMatchObject({ name, color: '#00ff00', kanban: 0 });
  });

  it('is refused to agents, changing nothing', async () => {
    const tag = await makeTag(a, {}, a.agent.token);
    expectError(await t.api.put(`/tags/${tag.id}`, { name: 'Agent edit' }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expect((await readTag(a, tag.id)).name).toBe(tag.name);
  });

  it('refuses a duplicate name and invalid fields, changing nothing', async () => {
    const one = await makeTag(a);
    const two = await makeTag(a);
    expectError(await t.api.put(`/tags/${two.id}`, { name: one.name.toLowerCase() }, a.admin.token), 409, 'ERR_TAG_ALREADY_EXISTS');
    expectInvalid(await t.api.put(`/tags/${two.id}`, { name: 'no', color: '#12' }, a.admin.token), 'name', 'color');
    expect((await readTag(a, two.id)).name).toBe(two.name);
    // Keeping its own name is fine.
    expect((await t.api.put(`/tags/${two.id}`, { name: two.name }, a.admin.token)).status).toBe(200);
  });

  it("cannot reach another company's tag", async () => {
    const tag = await makeTag(a);
    expectError(await t.api.put(`/tags/${tag.id}`, { name: 'Hijacked' }, b.admin.token), 404, 'ERR_NO_TAG_FOUND');
    expect((await readTag(a, tag.id)).name).toBe(tag.name);
  });
});

describe('DELETE /tags/{id}', () => {
  it('lets any user of the company delete a tag, which leaves its tickets', async () => {
    const tag = await makeTag(a);
    const ticket = await incomingTicket(a);
    await t.api.post('/tags/sync', { ticketId: ticket.id, tags: [{ id: tag.id }] }, a.admin.token);
    expect(await tagsOfTicket(a, ticket.id)).toEqual([tag.name]);
    const res = await t.api.del(`/tags/${tag.id}`, a.agent.token);
    expect(res.status).toBe(200);
    expectError(await t.api.get(`/tags/${tag.id}`, a.admin.token), 404, 'ERR_NO_TAG_FOUND');
    expect(await tagsOfTicket(a, ticket.id)).toEqual([]);
  });

  it("cannot delete another company's tag", async () => {
    const tag = await makeTag(a);
    expectError(await t.api.del(`/tags/${tag.id}`, b.admin.token), 404, 'ERR_NO_TAG_FOUND');
    await readTag(a, tag.id);
  });
});

describe('POST /tags/sync', () => {
  it('sets exactly the tags sent, creating unknown names, and tells the ticket lists', async () => {
    const ticket = await incomingTicket(a);
    const keep = await makeTag(a);
    const drop = await makeTag(a);
    await t.api.post('/tags/sync', { ticketId: ticket.id, tags: [{ id: keep.id }, { id: drop.id }] }, a.admin.token);
    expect(await tagsOfTicket(a, ticket.id)).toEqual([keep.name, drop.name].sort());

    const created = `New ${uid()}`;
    ticketEvents.length = 0;
    const res = await t.api.post(
      '/tags/sync',
      { ticketId: ticket.id, tags: [{ id: keep.id, name: keep.name }, { name: created, color: '#abcdef' }] },
      a.admin.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toBe(ticket.id);
    expect(res.body.tags.map((x: any) => x.name).sort()).toEqual([keep.name, created].sort());
    expect(await tagsOfTicket(a, ticket.id)).toEqual([keep.name, created].sort());
    expect((await allTags(a)).find((x) => x.name === created)).toMatchObject({ color: '#abcdef', kanban: 0, userId: a.admin.id });
    const event = ticketEvents.find((e) => e.ticket.id === ticket.id)!;
    expect(event.companyId).toBe(a.companyId);
    expect((event.ticket.tags as any[]).map((x) => x.name).sort()).toEqual([keep.name, created].sort());

    // A name the company has (in another case) is that tag, not a new one.
    const count = (await allTags(a)).length;
    await t.api.post('/tags/sync', { ticketId: ticket.id, tags: [{ name: keep.name.toUpperCase() }] }, a.admin.token);
    expect((await allTags(a)).length).toBe(count);
    expect(await tagsOfTicket(a, ticket.id)).toEqual([keep.name]);

    // Nothing sent: no tags.
    await t.api.post('/tags/sync', { ticketId: ticket.id, tags: [] }, a.admin.token);
    expect(await tagsOfTicket(a, ticket.id)).toEqual([]);
  });

  it('needs a ticket the caller may see: agents without allTicket do not see queue-less tickets', async () => {
    // Its own ticket, and its own agent since it grants them allTicket.
    const ticket = await incomingTicket(a);
    const agent = await newAgent(a);
    const tag = await makeTag(a);
    expectError(await t.api.post('/tags/sync', { ticketId: ticket.id, tags: [{ id: tag.id }] }, agent.token), 403, 'ERR_NO_PERMISSION');
    expect(await tagsOfTicket(a, ticket.id)).toEqual([]);
    const enabled = await t.api.put(`/users/${agent.id}`, { allTicket: 'enabled' }, a.admin.token);
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect((await t.api.post('/tags/sync', { ticketId: ticket.id, tags: [{ id: tag.id }] }, agent.token)).status).toBe(200);
    expect(await tagsOfTicket(a, ticket.id)).toEqual([tag.name]);
  });

  it("refuses another company's ticket or tag, changing nothing", async () => {
    const ticket = await incomingTicket(a);
    const ticketB = await incomingTicket(b);
    const tagA = await makeTag(a);
    const tagB = await makeTag(b);
    await t.api.post('/tags/sync', { ticketId: ticketB.id, tags: [{ id: tagB.id }] }, b.admin.token);
    expectError(await t.api.post('/tags/sync', { ticketId: ticketB.id, tags: [{ id: tagA.id }] }, a.admin.token), 404, 'ERR_NO_TICKET_FOUND');
    expectError(await t.api.post('/tags/sync', { ticketId: ticket.id, tags: [{ id: tagB.id }] }, a.admin.token), 404, 'ERR_NO_TAG_FOUND');
    expect(await tagsOfTicket(b, ticketB.id)).toEqual([tagB.name]);
    expect(await tagsOfTicket(a, ticket.id)).toEqual([]);
    // A name-created tag lands in the caller's company only, and a failed sync creates none.
    const name = `Rolled back ${uid()}`;
    expectError(
      await t.api.post('/tags/sync', { ticketId: ticket.id, tags: [{ name }, { id: tagB.id }] }, a.admin.token),
      404,
      'ERR_NO_TAG_FOUND',
    );
    expect((await allTags(a)).some((x) => x.name === name)).toBe(false);
  });

  it('lists invalid fields', async () => {
    expectInvalid(await t.api.post('/tags/sync', {}, a.admin.token), 'ticketId', 'tags');
    expectInvalid(await t.api.post('/tags/sync', { ticketId: ticketA.id, tags: [{ name: 'ab' }] }, a.admin.token), 'tags.0.name');
    expectInvalid(await t.api.post('/tags/sync', { ticketId: 'x', tags: 'all' }, a.admin.token), 'ticketId', 'tags');
  });
});
