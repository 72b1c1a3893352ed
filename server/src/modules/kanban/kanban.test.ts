import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KANBAN_PAGE_SIZE } from '@atrium/shared';
import { connectSandbox, customerSays, ticketOf } from '../../../testing/conversation.js';
import {
  connectSocket,
  createTenant,
  joined,
  nextEvent,
  startTestApp,
  watch,
  type Tenant,
  type TestApp,
} from '../../../testing/helpers.js';
import { expectError } from '../../../testing/expect.js';

/**
 * The kanban board (spec 02 sections 2, 4, 6 and 7; spec 04 section 4 with its Notes): lanes in the admin's
 * order, the ticket list's visibility, paged lanes with counts, unique links, one atomic move, realtime to
 * whoever may see the ticket, nothing across companies.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let wa: number;
let waB: number;
let q1: number;
let q2: number;
let agent2: { id: number; token: string };
const ids = { inQ1: 0, inQ2: 0, noQueue: 0, agentsOpen: 0, othersOpen: 0, closed: 0, ofB: 0 };
let lane1: any;
let lane2: any;
let lane3: any;
let plain: any;
let laneB: any;

const uid = () => randomBytes(4).toString('hex');

const board = async (token: string, query = '') => {
  const res = await t.api.get(`/ticket/kanban${query ? `?${query}` : ''}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { tickets: any[]; lanes: { tagId: number | null; tag: any; count: number; hasMore: boolean }[] };
};
const boardIds = async (token: string, query = '') => (await board(token, query)).tickets.map((x) => x.id).sort((x, y) => x - y);
/** The ticket's tag names, sorted. */
const tagsOf = async (ticketId: number) => {
  const res = await t.api.get(`/tickets/${ticketId}`, a.admin.token);
  expect(res.status).toBe(200);
  return (res.body.tags as { name: string }[]).map((x) => x.name).sort();
};
const move = (ticketId: number, tagId: number | null, token = a.admin.token) => t.api.put(`/ticket/${ticketId}/kanban`, { tagId }, token);
const makeTag = async (tenant: Tenant, body: Record<string, unknown>) => {
  const res = await t.api.post('/tags', { name: `Lane ${uid()}`, ...body }, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const open = async (from: string, name: string, whatsappId = wa, token = a.admin.token) => {
  await customerSays(t.api, token, whatsappId, { from, name, body: `mensagem de ${name}` });
  return (await ticketOf(t.api, token, from)).id as number;
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'Kan');
  b = await createTenant(t, 'KanOther');
  wa = (await connectSandbox(t.api, a.admin.token)).id;
  waB = (await connectSandbox(t.api, b.admin.token)).id;
  q1 = (await t.api.post('/queue', { name: 'Vendas', color: '#ff0000', greetingMessage: 'Olá' }, a.admin.token)).body.id;
  q2 = (await t.api.post('/queue', { name: 'Suporte', color: '#00ff00', greetingMessage: 'Olá' }, a.admin.token)).body.id;
  expect((await t.api.put(`/users/${a.agent.id}`, { queueIds: [q1] }, a.admin.token)).status).toBe(200);
  const email = `agent2-${uid()}@example.com`;
  const created = await t.api.post('/users', { name: 'Agent Two', email, password: a.agent.password, profile: 'user', queueIds: [q1] }, a.admin.token);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const login = await t.api.login(email, a.agent.password);
  agent2 = { id: login.user.id, token: login.token };

  ids.inQ1 = await open('5511910000001', 'Cliente Um');
  ids.inQ2 = await open('5511910000002', 'Cliente Dois');
  ids.noQueue = await open('5511910000003', 'Cliente Tres');
  ids.agentsOpen = await open('5511910000004', 'Cliente Quatro');
  ids.othersOpen = await open('5511910000005', 'Cliente Cinco');
  ids.closed = await open('5511910000006', 'Cliente Seis');
  ids.ofB = await open('5511910000007', 'Cliente B', waB, b.admin.token);
  await t.api.put(`/tickets/${ids.inQ1}`, { queueId: q1 }, a.admin.token);
  await t.api.put(`/tickets/${ids.inQ2}`, { queueId: q2 }, a.admin.token);
  await t.api.put(`/tickets/${ids.agentsOpen}`, { queueId: q2, userId: a.agent.id, status: 'open' }, a.admin.token);
  await t.api.put(`/tickets/${ids.othersOpen}`, { queueId: q1, userId: agent2.id, status: 'open' }, a.admin.token);
  await t.api.put(`/tickets/${ids.closed}`, { status: 'closed' }, a.admin.token);

  lane1 = await makeTag(a, { kanban: 1 });
  lane2 = await makeTag(a, { kanban: 1 });
  lane3 = await makeTag(a, { kanban: 1 });
  plain = await makeTag(a, {});
  laneB = await makeTag(b, { kanban: 1 });
});
afterAll(() => t?.stop());

describe('authentication and plan', () => {
  const endpoints: [string, string][] = [
    ['GET', '/ticket/kanban'],
    ['PUT', '/ticket/1/kanban'],
    ['PUT', '/ticket-tags/1/1'],
    ['DELETE', '/ticket-tags/1'],
    ['PUT', '/tags/kanban/order'],
  ];
  it.each(endpoints)('%s %s answers 401 without a token', async (method, url) => {
    expectError(await t.api.request(method, url, { body: method === 'GET' || method === 'DELETE' ? undefined : {} }), 401, 'ERR_SESSION_EXPIRED');
  });

  it("is refused (403) when the company's plan has no kanban", async () => {
    const plan = await t.api.post('/plans', { name: `No kanban ${uid()}`, users: 5, connections: 5, queues: 5, useKanban: false }, t.superToken);
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const c = await createTenant(t, 'KanNoPlan', plan.body.id);
    expectError(await t.api.get('/ticket/kanban', c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await t.api.get('/tags/kanban', c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await t.api.put('/tags/kanban/order', { tagIds: [] }, c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await t.api.put('/ticket/1/kanban', { tagId: null }, c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await t.api.put('/ticket-tags/1/1', {}, c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await t.api.del('/ticket-tags/1', c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
  });
});

describe('GET /ticket/kanban: who sees which cards', () => {
  it('an admin: pending tickets and their own; with showAll every open and pending ticket; never closed ones', async () => {
    expect(await boardIds(a.admin.token)).toEqual([ids.inQ1, ids.inQ2, ids.noQueue].sort((x, y) => x - y));
    expect(await boardIds(a.admin.token, 'showAll=true')).toEqual(
      [ids.inQ1, ids.inQ2, ids.noQueue, ids.agentsOpen, ids.othersOpen].sort((x, y) => x - y),
    );
  });

  it('an agent sees exactly what their ticket list shows, and showAll changes nothing for them', async () => {
    const listed = async (token: string) => {
      const ids = [];
      for (const status of ['pending', 'open']) {
        ids.push(...((await t.api.get(`/tickets?status=${status}`, token)).body.tickets as any[]).map((x) => x.id));
      }
      return ids.sort((x, y) => x - y);
    };
    const seen = await boardIds(a.agent.token);
    expect(seen).toEqual([ids.inQ1, ids.agentsOpen].sort((x, y) => x - y));
    expect(seen).toEqual(await listed(a.agent.token));
    expect(await boardIds(a.agent.token, 'showAll=true')).toEqual(seen);
    // Another agent of the same queue sees the queue's waiting ticket and their own, not the first agent's.
    expect(await boardIds(agent2.token)).toEqual([ids.inQ1, ids.othersOpen].sort((x, y) => x - y));
    expect(await boardIds(agent2.token)).toEqual(await listed(agent2.token));
  });

  it('queueIds (JSON) narrows to those queues and queue-less tickets; an agent cannot widen it', async () => {
    expect(await boardIds(a.admin.token, `queueIds=${encodeURIComponent(JSON.stringify([q1]))}`)).toEqual(
      [ids.inQ1, ids.noQueue].sort((x, y) => x - y),
    );
    expect(await boardIds(a.admin.token, `showAll=true&queueIds=[${q2}]`)).toEqual(
      [ids.inQ2, ids.noQueue, ids.agentsOpen].sort((x, y) => x - y),
    );
    expect(await boardIds(a.agent.token, `queueIds=[${q2}]`)).toEqual([ids.agentsOpen]);
  });

  it("never shows another company's tickets or lanes", async () => {
    const other = await board(b.admin.token, 'showAll=true');
    expect(other.tickets.map((x) => x.id)).toEqual([ids.ofB]);
    expect(other.lanes.map((l) => l.tagId)).toEqual([null, laneB.id]);
  });

  it('answers 400 for bad input', async () => {
    for (const query of ['queueIds=abc', 'queueIds=[0]', 'showAll=maybe', 'lane=first', 'pageNumber=0']) {
      expectError(await t.api.get(`/ticket/kanban?${query}`, a.admin.token), 400, 'ERR_VALIDATION');
    }
  });
});

describe('lanes', () => {
  it('one lane for tickets without a kanban tag, then one per kanban tag, each with its count', async () => {
    const res = await board(a.admin.token, 'showAll=true');
    expect(res.lanes.map((l) => l.tagId)).toEqual([null, lane1.id, lane2.id, lane3.id]);
    expect(res.lanes[1].tag).toMatchObject({ id: lane1.id, name: lane1.name, color: lane1.color, kanban: 1 });
    expect(res.lanes.map((l) => l.count)).toEqual([5, 0, 0, 0]);
    expect(res.lanes.every((l) => l.hasMore === false)).toBe(true);
    expect(res.tickets[0]).toMatchObject({ uuid: expect.any(String), contact: expect.objectContaining({ name: expect.any(String), number: expect.any(String) }) });
    expect(res.tickets[0]).toHaveProperty('lastMessage');
    expect(res.tickets[0]).toHaveProperty('unreadMessages');
  });

  it('pages a lane: the first page on the board, the next ones by lane and pageNumber, newest activity first', async () => {
    const lane = await makeTag(a, { kanban: 1 });
    const extra = KANBAN_PAGE_SIZE + 3;
    const mine: number[] = [];
    for (let i = 0; i < extra; i++) {
      const id = await open(`55119200${String(i).padStart(5, '0')}`, `Pagina ${i}`);
      expect((await t.api.put(`/ticket-tags/${id}/${lane.id}`, {}, a.admin.token)).status).toBe(201);
      mine.push(id);
    }
    try {
      const full = await board(a.admin.token);
      const laneView = full.lanes.find((l) => l.tagId === lane.id)!;
      expect(laneView).toMatchObject({ count: extra, hasMore: true });
      const inLane = full.tickets.filter((x) => x.tags.some((g: any) => g.id === lane.id));
      expect(inLane).toHaveLength(KANBAN_PAGE_SIZE);
      const first = await t.api.get(`/ticket/kanban?lane=${lane.id}`, a.admin.token);
      expect(first.body).toMatchObject({ count: extra, hasMore: true });
      expect(first.body.tickets.map((x: any) => x.id)).toEqual(inLane.map((x) => x.id));
      const times = first.body.tickets.map((x: any) => Date.parse(x.updatedAt));
      expect([...times].sort((x, y) => y - x)).toEqual(times);
      const second = await t.api.get(`/ticket/kanban?lane=${lane.id}&pageNumber=2`, a.admin.token);
      expect(second.body).toMatchObject({ count: extra, hasMore: false });
      expect(second.body.tickets).toHaveLength(3);
      const all = [...first.body.tickets, ...second.body.tickets].map((x: any) => x.id).sort((x: number, y: number) => x - y);
      expect(all).toEqual([...mine].sort((x, y) => x - y));
      // The lane without a kanban tag pages the same way.
      const none = await t.api.get('/ticket/kanban?lane=none', a.admin.token);
      expect(none.body.tickets.map((x: any) => x.id).sort((x: number, y: number) => x - y)).toEqual(
        [ids.inQ1, ids.inQ2, ids.noQueue].sort((x, y) => x - y),
      );
      // A tag that is no lane, or another company's, is no lane here.
      expectError(await t.api.get(`/ticket/kanban?lane=${plain.id}`, a.admin.token), 404, 'ERR_NO_TAG_FOUND');
      expectError(await t.api.get(`/ticket/kanban?lane=${laneB.id}`, a.admin.token), 404, 'ERR_NO_TAG_FOUND');
    } finally {
      for (const id of mine) await t.api.put(`/tickets/${id}`, { status: 'closed' }, a.admin.token);
      await t.api.del(`/tags/${lane.id}`, a.admin.token);
    }
  });

  it('GET /tags/kanban and the board follow the order an admin sets by dragging lanes', async () => {
    const order = await t.api.put('/tags/kanban/order', { tagIds: [lane3.id, lane1.id] }, a.admin.token);
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    expect(order.body.lista.map((x: any) => x.id)).toEqual([lane3.id, lane1.id, lane2.id]);
    expect((await t.api.get('/tags/kanban', a.agent.token)).body.lista.map((x: any) => x.id)).toEqual([lane3.id, lane1.id, lane2.id]);
    expect((await board(a.agent.token)).lanes.map((l) => l.tagId)).toEqual([null, lane3.id, lane1.id, lane2.id]);
    // A new lane goes last.
    const late = await makeTag(a, { kanban: 1 });
    expect((await t.api.get('/tags/kanban', a.admin.token)).body.lista.map((x: any) => x.id)).toEqual([lane3.id, lane1.id, lane2.id, late.id]);
    await t.api.del(`/tags/${late.id}`, a.admin.token);
    expect((await t.api.put('/tags/kanban/order', { tagIds: [lane1.id, lane2.id, lane3.id] }, a.admin.token)).status).toBe(200);
  });

  it('reordering is for admins, with lanes of their company only', async () => {
    const before = (await t.api.get('/tags/kanban', a.admin.token)).body.lista.map((x: any) => x.id);
    expectError(await t.api.put('/tags/kanban/order', { tagIds: [lane2.id] }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.put('/tags/kanban/order', { tagIds: [lane2.id, laneB.id] }, a.admin.token), 404, 'ERR_NO_TAG_FOUND');
    expectError(await t.api.put('/tags/kanban/order', { tagIds: [lane2.id, plain.id] }, a.admin.token), 404, 'ERR_NO_TAG_FOUND');
    expectError(await t.api.put('/tags/kanban/order', { tagIds: [lane2.id, lane2.id] }, a.admin.token), 400, 'ERR_VALIDATION');
    expectError(await t.api.put('/tags/kanban/order', { tagIds: 'all' }, a.admin.token), 400, 'ERR_VALIDATION');
    expect((await t.api.get('/tags/kanban', a.admin.token)).body.lista.map((x: any) => x.id)).toEqual(before);
  });
});

describe('moving a card: PUT /ticket/{ticketId}/kanban', () => {
  it('swaps the kanban tag in one step and keeps the other tags', async () => {
    await t.api.post('/tags/sync', { ticketId: ids.inQ1, tags: [{ id: plain.id }] }, a.admin.token);
    const res = await move(ids.inQ1, lane1.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toBe(ids.inQ1);
    expect(res.body.tags.map((x: any) => x.id).sort()).toEqual([plain.id, lane1.id].sort());
    expect((await move(ids.inQ1, lane2.id)).status).toBe(200);
    expect(await tagsOf(ids.inQ1)).toEqual([plain.name, lane2.name].sort());
    const lanes = (await board(a.admin.token)).lanes;
    expect(lanes.find((l) => l.tagId === lane2.id)!.count).toBe(1);
    expect(lanes.find((l) => l.tagId === lane1.id)!.count).toBe(0);
    // Back to the lane without a kanban tag.
    expect((await move(ids.inQ1, null)).status).toBe(200);
    expect(await tagsOf(ids.inQ1)).toEqual([plain.name]);
    await t.api.post('/tags/sync', { ticketId: ids.inQ1, tags: [] }, a.admin.token);
  });

  it('a card carrying two kanban tags shows in both lanes and leaves both on a move', async () => {
    await t.api.put(`/ticket-tags/${ids.inQ2}/${lane1.id}`, {}, a.admin.token);
    await t.api.put(`/ticket-tags/${ids.inQ2}/${lane2.id}`, {}, a.admin.token);
    const lanes = (await board(a.admin.token)).lanes;
    expect(lanes.find((l) => l.tagId === lane1.id)!.count).toBe(1);
    expect(lanes.find((l) => l.tagId === lane2.id)!.count).toBe(1);
    expect((await move(ids.inQ2, lane3.id)).status).toBe(200);
    expect(await tagsOf(ids.inQ2)).toEqual([lane3.name]);
    await move(ids.inQ2, null);
  });

  it('concurrent moves of one card end with the card in exactly one lane', async () => {
    const results = await Promise.all([lane1, lane2, lane3, lane1, lane2, lane3].map((lane) => move(ids.noQueue, lane.id)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const tags = await tagsOf(ids.noQueue);
    expect(tags).toHaveLength(1);
    expect([lane1.name, lane2.name, lane3.name]).toContain(tags[0]);
    await move(ids.noQueue, null);
  });

  it("refuses another company's ticket or lane, a tag that is no lane, and changes nothing", async () => {
    await move(ids.inQ1, lane1.id);
    expectError(await move(ids.inQ1, laneB.id), 404, 'ERR_NO_TAG_FOUND');
    expectError(await move(ids.inQ1, plain.id), 404, 'ERR_NO_TAG_FOUND');
    expectError(await move(ids.inQ1, 999999), 404, 'ERR_NO_TAG_FOUND');
    expectError(await move(ids.ofB, lane1.id), 404, 'ERR_NO_TICKET_FOUND');
    expectError(await move(ids.ofB, laneB.id), 404, 'ERR_NO_TICKET_FOUND');
    expect(await tagsOf(ids.inQ1)).toEqual([lane1.name]);
    const ofB = await t.api.get(`/tickets/${ids.ofB}`, b.admin.token);
    expect(ofB.body.tags).toEqual([]);
    await move(ids.inQ1, null);
  });

  it('an agent moves the cards they may see, not a ticket outside their queues', async () => {
    try {
      expect((await move(ids.inQ1, lane2.id, a.agent.token)).status).toBe(200);
      // Their own ticket in a queue they do not serve.
      expect((await move(ids.agentsOpen, lane2.id, a.agent.token)).status).toBe(200);
      expectError(await move(ids.inQ2, lane2.id, a.agent.token), 403, 'ERR_NO_PERMISSION');
      expectError(await move(ids.noQueue, lane2.id, a.agent.token), 403, 'ERR_NO_PERMISSION');
      expect(await tagsOf(ids.inQ2)).toEqual([]);
      expect(await tagsOf(ids.noQueue)).toEqual([]);
    } finally {
      await move(ids.inQ1, null);
      await move(ids.agentsOpen, null);
    }
  });

  it('answers 400 for bad input', async () => {
    expectError(await t.api.put(`/ticket/${ids.inQ1}/kanban`, {}, a.admin.token), 400, 'ERR_VALIDATION');
    expectError(await t.api.put(`/ticket/${ids.inQ1}/kanban`, { tagId: 'x' }, a.admin.token), 400, 'ERR_VALIDATION');
    expectError(await t.api.put(`/ticket/abc/kanban`, { tagId: null }, a.admin.token), 400, 'ERR_VALIDATION');
  });
});

describe('PUT /ticket-tags/{ticketId}/{tagId} and DELETE /ticket-tags/{ticketId}', () => {
  it('adds a link once (201), however often it is asked', async () => {
    const first = await t.api.put(`/ticket-tags/${ids.inQ1}/${plain.id}`, {}, a.admin.token);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ ticketId: ids.inQ1, tagId: plain.id });
    expect((await t.api.put(`/ticket-tags/${ids.inQ1}/${plain.id}`, {}, a.admin.token)).status).toBe(201);
    expect((await t.api.get(`/tags/${plain.id}`, a.admin.token)).body.ticketsCount).toBe(1);
    expect(await tagsOf(ids.inQ1)).toEqual([plain.name]);
  });

  it('DELETE removes only the kanban tags', async () => {
    await t.api.put(`/ticket-tags/${ids.inQ1}/${lane1.id}`, {}, a.admin.token);
    await t.api.put(`/ticket-tags/${ids.inQ1}/${lane3.id}`, {}, a.admin.token);
    expect(await tagsOf(ids.inQ1)).toEqual([plain.name, lane1.name, lane3.name].sort());
    const res = await t.api.del(`/ticket-tags/${ids.inQ1}`, a.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await tagsOf(ids.inQ1)).toEqual([plain.name]);
    await t.api.post('/tags/sync', { ticketId: ids.inQ1, tags: [] }, a.admin.token);
  });

  it("refuses another company's ticket or tag and a ticket outside the agent's queues", async () => {
    expectError(await t.api.put(`/ticket-tags/${ids.inQ1}/${laneB.id}`, {}, a.admin.token), 404, 'ERR_NO_TAG_FOUND');
    expectError(await t.api.put(`/ticket-tags/${ids.ofB}/${lane1.id}`, {}, a.admin.token), 404, 'ERR_NO_TICKET_FOUND');
    expectError(await t.api.put(`/ticket-tags/${ids.ofB}/${laneB.id}`, {}, a.admin.token), 404, 'ERR_NO_TICKET_FOUND');
    expectError(await t.api.del(`/ticket-tags/${ids.ofB}`, a.admin.token), 404, 'ERR_NO_TICKET_FOUND');
    expectError(await t.api.put(`/ticket-tags/${ids.inQ2}/${lane1.id}`, {}, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.del(`/ticket-tags/${ids.inQ2}`, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.put(`/ticket-tags/x/${lane1.id}`, {}, a.admin.token), 400, 'ERR_VALIDATION');
    expect(await tagsOf(ids.inQ1)).toEqual([]);
    expect((await t.api.get(`/tickets/${ids.ofB}`, b.admin.token)).body.tags).toEqual([]);
  });
});

describe('realtime', () => {
  it('a moved card reaches, at once, every board that shows the ticket, and no other company', async () => {
    const admin = await connectSocket(t.app.url, a.admin.token);
    const agent = await connectSocket(t.app.url, a.agent.token);
    const other = await connectSocket(t.app.url, b.admin.token);
    try {
      for (const status of ['pending', 'open']) {
        await joined(admin, 'joinTickets', status);
        await joined(agent, 'joinTickets', status);
        await joined(other, 'joinTickets', status);
      }
      const event = `company-${a.companyId}-ticket`;
      const otherWatch = watch(other, [event, `company-${b.companyId}-ticket`]);
      const seenByAdmin = nextEvent(admin, event);
      const seenByAgent = nextEvent(agent, event);
      expect((await move(ids.inQ1, lane2.id, agent2.token)).status).toBe(200);
      for (const payload of [await seenByAdmin, await seenByAgent]) {
        expect(payload.action).toBe('update');
        expect(payload.ticket.id).toBe(ids.inQ1);
        expect(payload.ticket.tags.map((x: any) => x.id)).toEqual([lane2.id]);
      }
      // The other company hears nothing of it: its own sentinel comes first.
      const sentinel = `company-${b.companyId}-tag`;
      await makeTag(b, {});
      expect(await otherWatch.before(sentinel)).toEqual([]);
      await move(ids.inQ1, null);
    } finally {
      admin.close();
      agent.close();
      other.close();
    }
  });

  it("an agent does not hear of cards moved outside their queues", async () => {
    const agent = await connectSocket(t.app.url, a.agent.token);
    try {
      for (const status of ['pending', 'open']) await joined(agent, 'joinTickets', status);
      const event = `company-${a.companyId}-ticket`;
      const heard = watch(agent, event);
      expect((await move(ids.inQ2, lane1.id)).status).toBe(200);
      // The sentinel: a card of the agent's queue moved after it.
      expect((await move(ids.inQ1, lane1.id)).status).toBe(200);
      const before = await heard.before(event, (p) => p.ticket?.id === ids.inQ1);
      expect(before).toEqual([]);
      await move(ids.inQ2, null);
      await move(ids.inQ1, null);
    } finally {
      agent.close();
    }
  });

  it('lane changes reach the company as company-{id}-tag, and not another company', async () => {
    const admin = await connectSocket(t.app.url, a.agent.token);
    const other = await connectSocket(t.app.url, b.admin.token);
    try {
      const event = `company-${a.companyId}-tag`;
      const otherWatch = watch(other, event);
      const updates: any[] = [];
      admin.on(event, (p) => updates.push(p));
      const done = new Promise<void>((resolve) => admin.on(event, () => updates.length >= 2 && resolve()));
      expect((await t.api.put('/tags/kanban/order', { tagIds: [lane2.id, lane1.id, lane3.id] }, a.admin.token)).status).toBe(200);
      await done;
      expect(updates.map((p) => [p.action, p.tag.id, p.tag.position])).toEqual(
        expect.arrayContaining([
          ['update', lane2.id, 1],
          ['update', lane1.id, 2],
        ]),
      );
      const created = nextEvent(admin, event);
      const tag = await makeTag(a, { kanban: 1 });
      expect(await created).toMatchObject({ action: 'create', tag: { id: tag.id, kanban: 1, position: null } });
      const deleted = nextEvent(admin, event);
      await t.api.del(`/tags/${tag.id}`, a.admin.token);
      expect(await deleted).toEqual({ action: 'delete', tagId: tag.id });
      await makeTag(b, {});
      expect(await otherWatch.before(`company-${b.companyId}-tag`)).toEqual([]);
      await t.api.put('/tags/kanban/order', { tagIds: [lane1.id, lane2.id, lane3.id] }, a.admin.token);
    } finally {
      admin.close();
      other.close();
    }
  });
});
