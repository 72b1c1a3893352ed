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
import type { Socket } from 'socket.io-client';

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
let customerSeq = 0;
/**
 * A ticket of the test's own in company A (a new customer's message, then the queue, agent and status
 * asked for): the tags a test sets or asserts on are then never another test's.
 */
const ownTicket = async (changes: { queueId?: number; userId?: number; status?: string } = {}) => {
  const n = ++customerSeq;
  const id = await open(`55119300${String(n).padStart(5, '0')}`, `Proprio ${n}`);
  if (Object.keys(changes).length > 0) {
    const res = await t.api.put(`/tickets/${id}`, changes, a.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return id;
};
/** A company of the test's own with a sandbox phone, for a test about the company's whole board. */
const ownCompany = async (label: string) => {
  const c = await createTenant(t, label);
  return { ...c, wa: (await connectSandbox(t.api, c.admin.token)).id as number };
};
/** The next `event` whose payload matches: a card opened just before may still be heard of first. */
const nextMatching = (socket: Socket, event: string, match: (payload: any) => boolean) =>
  new Promise<any>((resolve, reject) => {
    const heard = (payload: any) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      socket.off(event, heard);
      resolve(payload);
    };
    const timer = setTimeout(() => {
      socket.off(event, heard);
      reject(new Error(`no matching ${event} within 5000 ms`));
    }, 5000);
    socket.on(event, heard);
  });
/** Of a board's ticket ids, those of the fixtures above: other tests open tickets of their own in A. */
const ofFixtures = (list: number[]) => list.filter((id) => Object.values(ids).includes(id));

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
    expect(ofFixtures(await boardIds(a.admin.token))).toEqual([ids.inQ1, ids.inQ2, ids.noQueue].sort((x, y) => x - y));
    expect(ofFixtures(await boardIds(a.admin.token, 'showAll=true'))).toEqual(
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
    expect(ofFixtures(seen)).toEqual([ids.inQ1, ids.agentsOpen].sort((x, y) => x - y));
    expect(seen).toEqual(await listed(a.agent.token));
    expect(await boardIds(a.agent.token, 'showAll=true')).toEqual(seen);
    // Another agent of the same queue sees the queue's waiting ticket and their own, not the first agent's.
    const seen2 = await boardIds(agent2.token);
    expect(ofFixtures(seen2)).toEqual([ids.inQ1, ids.othersOpen].sort((x, y) => x - y));
    expect(seen2).toEqual(await listed(agent2.token));
  });

  it('queueIds (JSON) narrows to those queues and queue-less tickets; an agent cannot widen it', async () => {
    expect(ofFixtures(await boardIds(a.admin.token, `queueIds=${encodeURIComponent(JSON.stringify([q1]))}`))).toEqual(
      [ids.inQ1, ids.noQueue].sort((x, y) => x - y),
    );
    expect(ofFixtures(await boardIds(a.admin.token, `showAll=true&queueIds=[${q2}]`))).toEqual(
      [ids.inQ2, ids.noQueue, ids.agentsOpen].sort((x, y) => x - y),
    );
    expect(ofFixtures(await boardIds(a.agent.token, `queueIds=[${q2}]`))).toEqual([ids.agentsOpen]);
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
    // A company of its own: the test asserts every lane and count, and other tests add lanes and cards to A.
    const c = await ownCompany('KanLanes');
    await open('5511940000001', 'Lane Um', c.wa, c.admin.token);
    await open('5511940000002', 'Lane Dois', c.wa, c.admin.token);
    const l1 = await makeTag(c, { kanban: 1 });
    const l2 = await makeTag(c, { kanban: 1 });
    const l3 = await makeTag(c, { kanban: 1 });
    await makeTag(c, {});
    const res = await board(c.admin.token, 'showAll=true');
    expect(res.lanes.map((l) => l.tagId)).toEqual([null, l1.id, l2.id, l3.id]);
    expect(res.lanes[1].tag).toMatchObject({ id: l1.id, name: l1.name, color: l1.color, kanban: 1 });
    expect(res.lanes.map((l) => l.count)).toEqual([2, 0, 0, 0]);
    expect(res.lanes.every((l) => l.hasMore === false)).toBe(true);
    expect(res.tickets[0]).toMatchObject({ uuid: expect.any(String), contact: expect.objectContaining({ name: expect.any(String), number: expect.any(String) }) });
    expect(res.tickets[0]).toHaveProperty('lastMessage');
    expect(res.tickets[0]).toHaveProperty('unreadMessages');
  });

  it('pages a lane: the first page on the board, the next ones by lane and pageNumber, newest activity first', async () => {
    // A company of its own: the test asserts the whole lane without a kanban tag.
    const c = await ownCompany('KanPages');
    const unlaned = [
      await open('5511950000001', 'Sem Raia Um', c.wa, c.admin.token),
      await open('5511950000002', 'Sem Raia Dois', c.wa, c.admin.token),
    ];
    const lane = await makeTag(c, { kanban: 1 });
    const notLane = await makeTag(c, {});
    const extra = KANBAN_PAGE_SIZE + 3;
    const mine: number[] = [];
    for (let i = 0; i < extra; i++) {
      const id = await open(`55119200${String(i).padStart(5, '0')}`, `Pagina ${i}`, c.wa, c.admin.token);
      expect((await t.api.put(`/ticket-tags/${id}/${lane.id}`, {}, c.admin.token)).status).toBe(201);
      mine.push(id);
    }
    const full = await board(c.admin.token);
    const laneView = full.lanes.find((l) => l.tagId === lane.id)!;
    expect(laneView).toMatchObject({ count: extra, hasMore: true });
    const inLane = full.tickets.filter((x) => x.tags.some((g: any) => g.id === lane.id));
    expect(inLane).toHaveLength(KANBAN_PAGE_SIZE);
    const first = await t.api.get(`/ticket/kanban?lane=${lane.id}`, c.admin.token);
    expect(first.body).toMatchObject({ count: extra, hasMore: true });
    expect(first.body.tickets.map((x: any) => x.id)).toEqual(inLane.map((x) => x.id));
    const times = first.body.tickets.map((x: any) => Date.parse(x.updatedAt));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const second = await t.api.get(`/ticket/kanban?lane=${lane.id}&pageNumber=2`, c.admin.token);
    expect(second.body).toMatchObject({ count: extra, hasMore: false });
    expect(second.body.tickets).toHaveLength(3);
    const all = [...first.body.tickets, ...second.body.tickets].map((x: any) => x.id).sort((x: number, y: number) => x - y);
    expect(all).toEqual([...mine].sort((x, y) => x - y));
    // The lane without a kanban tag pages the same way.
    const none = await t.api.get('/ticket/kanban?lane=none', c.admin.token);
    expect(none.body.tickets.map((x: any) => x.id).sort((x: number, y: number) => x - y)).toEqual(unlaned.sort((x, y) => x - y));
    // A tag that is no lane, or another company's, is no lane here.
    expectError(await t.api.get(`/ticket/kanban?lane=${notLane.id}`, c.admin.token), 404, 'ERR_NO_TAG_FOUND');
    expectError(await t.api.get(`/ticket/kanban?lane=${laneB.id}`, c.admin.token), 404, 'ERR_NO_TAG_FOUND');
  });

  it('GET /tags/kanban and the board follow the order an admin sets by dragging lanes', async () => {
    // A company of its own: the test asserts every lane, in order, and changes the order.
    const c = await createTenant(t, 'KanOrder');
    const l1 = await makeTag(c, { kanban: 1 });
    const l2 = await makeTag(c, { kanban: 1 });
    const l3 = await makeTag(c, { kanban: 1 });
    const order = await t.api.put('/tags/kanban/order', { tagIds: [l3.id, l1.id] }, c.admin.token);
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    expect(order.body.lista.map((x: any) => x.id)).toEqual([l3.id, l1.id, l2.id]);
    expect((await t.api.get('/tags/kanban', c.agent.token)).body.lista.map((x: any) => x.id)).toEqual([l3.id, l1.id, l2.id]);
    expect((await board(c.agent.token)).lanes.map((l) => l.tagId)).toEqual([null, l3.id, l1.id, l2.id]);
    // A new lane goes last.
    const late = await makeTag(c, { kanban: 1 });
    expect((await t.api.get('/tags/kanban', c.admin.token)).body.lista.map((x: any) => x.id)).toEqual([l3.id, l1.id, l2.id, late.id]);
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
    // Its own card, and its own lanes since it counts their cards.
    const id = await ownTicket();
    const from = await makeTag(a, { kanban: 1 });
    const to = await makeTag(a, { kanban: 1 });
    await t.api.post('/tags/sync', { ticketId: id, tags: [{ id: plain.id }] }, a.admin.token);
    const res = await move(id, from.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toBe(id);
    expect(res.body.tags.map((x: any) => x.id).sort()).toEqual([plain.id, from.id].sort());
    expect((await move(id, to.id)).status).toBe(200);
    expect(await tagsOf(id)).toEqual([plain.name, to.name].sort());
    const lanes = (await board(a.admin.token)).lanes;
    expect(lanes.find((l) => l.tagId === to.id)!.count).toBe(1);
    expect(lanes.find((l) => l.tagId === from.id)!.count).toBe(0);
    // Back to the lane without a kanban tag.
    expect((await move(id, null)).status).toBe(200);
    expect(await tagsOf(id)).toEqual([plain.name]);
  });

  it('a card carrying two kanban tags shows in both lanes and leaves both on a move', async () => {
    // Its own card, and its own lanes since it counts their cards.
    const id = await ownTicket();
    const one = await makeTag(a, { kanban: 1 });
    const two = await makeTag(a, { kanban: 1 });
    await t.api.put(`/ticket-tags/${id}/${one.id}`, {}, a.admin.token);
    await t.api.put(`/ticket-tags/${id}/${two.id}`, {}, a.admin.token);
    const lanes = (await board(a.admin.token)).lanes;
    expect(lanes.find((l) => l.tagId === one.id)!.count).toBe(1);
    expect(lanes.find((l) => l.tagId === two.id)!.count).toBe(1);
    expect((await move(id, lane3.id)).status).toBe(200);
    expect(await tagsOf(id)).toEqual([lane3.name]);
  });

  it('concurrent moves of one card end with the card in exactly one lane', async () => {
    const id = await ownTicket();
    const results = await Promise.all([lane1, lane2, lane3, lane1, lane2, lane3].map((lane) => move(id, lane.id)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const tags = await tagsOf(id);
    expect(tags).toHaveLength(1);
    expect([lane1.name, lane2.name, lane3.name]).toContain(tags[0]);
  });

  it("refuses another company's ticket or lane, a tag that is no lane, and changes nothing", async () => {
    const id = await ownTicket();
    await move(id, lane1.id);
    expectError(await move(id, laneB.id), 404, 'ERR_NO_TAG_FOUND');
    expectError(await move(id, plain.id), 404, 'ERR_NO_TAG_FOUND');
    expectError(await move(id, 999999), 404, 'ERR_NO_TAG_FOUND');
    expectError(await move(ids.ofB, lane1.id), 404, 'ERR_NO_TICKET_FOUND');
    expectError(await move(ids.ofB, laneB.id), 404, 'ERR_NO_TICKET_FOUND');
    expect(await tagsOf(id)).toEqual([lane1.name]);
    const ofB = await t.api.get(`/tickets/${ids.ofB}`, b.admin.token);
    expect(ofB.body.tags).toEqual([]);
  });

  it('an agent moves the cards they may see, not a ticket outside their queues', async () => {
    // Cards of its own, placed as the fixtures above: the agent serves Vendas (q1) only.
    const inQ1 = await ownTicket({ queueId: q1 });
    const agentsOpen = await ownTicket({ queueId: q2, userId: a.agent.id, status: 'open' });
    const inQ2 = await ownTicket({ queueId: q2 });
    const noQueue = await ownTicket();
    expect((await move(inQ1, lane2.id, a.agent.token)).status).toBe(200);
    // Their own ticket in a queue they do not serve.
    expect((await move(agentsOpen, lane2.id, a.agent.token)).status).toBe(200);
    expectError(await move(inQ2, lane2.id, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await move(noQueue, lane2.id, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expect(await tagsOf(inQ2)).toEqual([]);
    expect(await tagsOf(noQueue)).toEqual([]);
  });

  it('answers 400 for bad input', async () => {
    expectError(await t.api.put(`/ticket/${ids.inQ1}/kanban`, {}, a.admin.token), 400, 'ERR_VALIDATION');
    expectError(await t.api.put(`/ticket/${ids.inQ1}/kanban`, { tagId: 'x' }, a.admin.token), 400, 'ERR_VALIDATION');
    expectError(await t.api.put(`/ticket/abc/kanban`, { tagId: null }, a.admin.token), 400, 'ERR_VALIDATION');
  });
});

describe('PUT /ticket-tags/{ticketId}/{tagId} and DELETE /ticket-tags/{ticketId}', () => {
  it('adds a link once (201), however often it is asked', async () => {
    // Its own card, and its own tag since it counts the tag's tickets.
    const id = await ownTicket();
    const tag = await makeTag(a, {});
    const first = await t.api.put(`/ticket-tags/${id}/${tag.id}`, {}, a.admin.token);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ ticketId: id, tagId: tag.id });
    expect((await t.api.put(`/ticket-tags/${id}/${tag.id}`, {}, a.admin.token)).status).toBe(201);
    expect((await t.api.get(`/tags/${tag.id}`, a.admin.token)).body.ticketsCount).toBe(1);
    expect(await tagsOf(id)).toEqual([tag.name]);
  });

  it('DELETE removes only the kanban tags', async () => {
    const id = await ownTicket();
    await t.api.put(`/ticket-tags/${id}/${plain.id}`, {}, a.admin.token);
    await t.api.put(`/ticket-tags/${id}/${lane1.id}`, {}, a.admin.token);
    await t.api.put(`/ticket-tags/${id}/${lane3.id}`, {}, a.admin.token);
    expect(await tagsOf(id)).toEqual([plain.name, lane1.name, lane3.name].sort());
    const res = await t.api.del(`/ticket-tags/${id}`, a.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await tagsOf(id)).toEqual([plain.name]);
  });

  it("refuses another company's ticket or tag and a ticket outside the agent's queues", async () => {
    // Cards of its own: one without a queue, one of Suporte (q2), which the agent does not serve.
    const id = await ownTicket();
    const inQ2 = await ownTicket({ queueId: q2 });
    expectError(await t.api.put(`/ticket-tags/${id}/${laneB.id}`, {}, a.admin.token), 404, 'ERR_NO_TAG_FOUND');
    expectError(await t.api.put(`/ticket-tags/${ids.ofB}/${lane1.id}`, {}, a.admin.token), 404, 'ERR_NO_TICKET_FOUND');
    expectError(await t.api.put(`/ticket-tags/${ids.ofB}/${laneB.id}`, {}, a.admin.token), 404, 'ERR_NO_TICKET_FOUND');
    expectError(await t.api.del(`/ticket-tags/${ids.ofB}`, a.admin.token), 404, 'ERR_NO_TICKET_FOUND');
    expectError(await t.api.put(`/ticket-tags/${inQ2}/${lane1.id}`, {}, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.del(`/ticket-tags/${inQ2}`, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.put(`/ticket-tags/x/${lane1.id}`, {}, a.admin.token), 400, 'ERR_VALIDATION');
    expect(await tagsOf(id)).toEqual([]);
    expect(await tagsOf(inQ2)).toEqual([]);
    expect((await t.api.get(`/tickets/${ids.ofB}`, b.admin.token)).body.tags).toEqual([]);
  });
});

describe('realtime', () => {
  it('a moved card reaches, at once, every board that shows the ticket, and no other company', async () => {
    // Its own card, waiting in Vendas (q1), which both agents serve.
    const id = await ownTicket({ queueId: q1 });
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
      const moved = (p: any) => p.ticket?.id === id && p.ticket.tags.length > 0;
      const seenByAdmin = nextMatching(admin, event, moved);
      const seenByAgent = nextMatching(agent, event, moved);
      expect((await move(id, lane2.id, agent2.token)).status).toBe(200);
      for (const payload of [await seenByAdmin, await seenByAgent]) {
        expect(payload.action).toBe('update');
        expect(payload.ticket.id).toBe(id);
        expect(payload.ticket.tags.map((x: any) => x.id)).toEqual([lane2.id]);
      }
      // The other company hears nothing of it: its own sentinel comes first.
      const sentinel = `company-${b.companyId}-tag`;
      await makeTag(b, {});
      expect(await otherWatch.before(sentinel)).toEqual([]);
    } finally {
      admin.close();
      agent.close();
      other.close();
    }
  });

  it("an agent does not hear of cards moved outside their queues", async () => {
    // Cards of its own: one of Suporte (q2), which the agent does not serve, one of their Vendas (q1).
    const inQ2 = await ownTicket({ queueId: q2 });
    const inQ1 = await ownTicket({ queueId: q1 });
    const agent = await connectSocket(t.app.url, a.agent.token);
    try {
      for (const status of ['pending', 'open']) await joined(agent, 'joinTickets', status);
      const event = `company-${a.companyId}-ticket`;
      const heard = watch(agent, event);
      expect((await move(inQ2, lane1.id)).status).toBe(200);
      // The sentinel: a card of the agent's queue moved after it.
      expect((await move(inQ1, lane1.id)).status).toBe(200);
      const before = await heard.before(event, (p) => p.ticket?.id === inQ1 && p.ticket.tags.length > 0);
      // Only of the card outside their queues: their own card's opening may still be heard before.
      expect(before.filter((e: any) => e.payload.ticket?.id !== inQ1)).toEqual([]);
    } finally {
      agent.close();
    }
  });

  it('lane changes reach the company as company-{id}-tag, and not another company', async () => {
    // A company of its own: the test reorders every lane.
    const c = await createTenant(t, 'KanTagEvents');
    const l1 = await makeTag(c, { kanban: 1 });
    const l2 = await makeTag(c, { kanban: 1 });
    const l3 = await makeTag(c, { kanban: 1 });
    const admin = await connectSocket(t.app.url, c.agent.token);
    const other = await connectSocket(t.app.url, b.admin.token);
    try {
      const event = `company-${c.companyId}-tag`;
      const otherWatch = watch(other, event);
      const updates: any[] = [];
      admin.on(event, (p) => updates.push(p));
      const done = new Promise<void>((resolve) => admin.on(event, () => updates.length >= 2 && resolve()));
      expect((await t.api.put('/tags/kanban/order', { tagIds: [l2.id, l1.id, l3.id] }, c.admin.token)).status).toBe(200);
      await done;
      expect(updates.map((p) => [p.action, p.tag.id, p.tag.position])).toEqual(
        expect.arrayContaining([
          ['update', l2.id, 1],
          ['update', l1.id, 2],
        ]),
      );
      const created = nextEvent(admin, event);
      const tag = await makeTag(c, { kanban: 1 });
      expect(await created).toMatchObject({ action: 'create', tag: { id: tag.id, kanban: 1, position: null } });
      const deleted = nextEvent(admin, event);
      await t.api.del(`/tags/${tag.id}`, c.admin.token);
      expect(await deleted).toEqual({ action: 'delete', tagId: tag.id });
      await makeTag(b, {});
      expect(await otherWatch.before(`company-${b.companyId}-tag`)).toEqual([]);
    } finally {
      admin.close();
      other.close();
    }
  });
});
