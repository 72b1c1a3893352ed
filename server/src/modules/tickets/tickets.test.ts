import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, customerSays, ticketOf } from '../../../testing/conversation.js';
import { rooms } from '@atrium/shared';
import { connectSocket, createTenant, eventually, joined, nextEvent, serverRooms, startTestApp, watch, type Tenant, type TestApp } from '../../../testing/helpers.js';

/**
 * Who sees which tickets (spec 01 section 6, spec 03 section 1 with its notes): admins everything,
 * agents their queues' tickets and their own, queue-less ones only with allTicket; filters narrow,
 * never widen; nothing crosses companies.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let wa: number;
let q1: number;
let q2: number;
let ids: Tickets;

type Tickets = Record<'inQ1' | 'inQ2' | 'noQueue' | 'agentsOpen', number>;

const list = async (token: string, query: string) => {
  const res = await t.api.get(`/tickets?${query}`, token);
  expect(res.status).toBe(200);
  return (res.body.tickets as any[]).map((x) => x.id);
};

/**
 * A company with a sandbox connection, two queues (its agent serves the first) and four tickets: waiting in
 * each queue, waiting without one, and open with the agent in the second queue.
 */
const seedCompany = async (label: string) => {
  const tenant = await createTenant(t, label);
  const whatsappId = (await connectSandbox(t.api, tenant.admin.token)).id;
  const queue1 = (await t.api.post('/queue', { name: 'Vendas', color: '#ff0000', greetingMessage: 'Olá' }, tenant.admin.token)).body.id as number;
  const queue2 = (await t.api.post('/queue', { name: 'Suporte', color: '#00ff00', greetingMessage: 'Olá' }, tenant.admin.token)).body.id as number;
  expect((await t.api.put(`/users/${tenant.agent.id}`, { queueIds: [queue1] }, tenant.admin.token)).status).toBe(200);

  const open = async (from: string, name: string) => {
    await customerSays(t.api, tenant.admin.token, whatsappId, { from, name, body: `mensagem de ${name}` });
    return (await ticketOf(t.api, tenant.admin.token, from)).id as number;
  };
  const tickets: Tickets = {
    inQ1: await open('5511900000001', 'Cliente Um'),
    inQ2: await open('5511900000002', 'Cliente Dois'),
    noQueue: await open('5511900000003', 'Cliente Tres'),
    agentsOpen: await open('5511900000004', 'Cliente Quatro'),
  };
  await t.api.put(`/tickets/${tickets.inQ1}`, { queueId: queue1 }, tenant.admin.token);
  await t.api.put(`/tickets/${tickets.inQ2}`, { queueId: queue2 }, tenant.admin.token);
  await t.api.put(`/tickets/${tickets.agentsOpen}`, { queueId: queue2, userId: tenant.agent.id, status: 'open' }, tenant.admin.token);
  return { tenant, whatsappId, queue1, queue2, tickets };
};

beforeAll(async () => {
  t = await startTestApp();
  ({ tenant: a, whatsappId: wa, queue1: q1, queue2: q2, tickets: ids } = await seedCompany('Vis'));
  b = await createTenant(t, 'Other');
});
afterAll(() => t?.stop());

/**
 * A sentinel: an update of the tenant's agent that changes nothing, announced as company-{id}-user to every
 * socket of that company while the request runs, so after any event an earlier request caused.
 */
const touchAgent = async (tenant: Tenant) =>
  expect((await t.api.put(`/users/${tenant.agent.id}`, {}, tenant.admin.token)).status).toBe(200);

describe('GET /tickets for an agent of one queue', () => {
  it('pending: the queue’s tickets only, not another queue’s nor queue-less ones', async () => {
    const seen = await list(a.agent.token, 'status=pending');
    expect(seen).toContain(ids.inQ1);
    expect(seen).not.toContain(ids.inQ2);
    expect(seen).not.toContain(ids.noQueue);
  });

  it('open: their own tickets, even in a queue they do not serve', async () => {
    expect(await list(a.agent.token, 'status=open')).toEqual([ids.agentsOpen]);
  });

  it('showAll is an admin’s switch: it changes nothing for an agent', async () => {
    expect((await list(a.agent.token, 'status=pending&showAll=true')).sort()).toEqual((await list(a.agent.token, 'status=pending')).sort());
  });

  it('a search never reveals tickets they may not see', async () => {
    expect(await list(a.agent.token, 'searchParam=Cliente')).not.toContain(ids.inQ2);
    expect(await list(a.agent.token, 'searchParam=Cliente Um')).toEqual([ids.inQ1]);
    expect(await list(a.agent.token, 'searchParam=mensagem de Cliente Dois')).toEqual([]);
  });

  it('asking for another queue’s tickets gives nothing more', async () => {
    expect(await list(a.agent.token, `status=pending&queueIds=[${q2}]`)).not.toContain(ids.inQ2);
  });

  it('with allTicket enabled, queue-less pending tickets appear too', async () => {
    await t.api.put(`/users/${a.agent.id}`, { allTicket: 'enabled' }, a.admin.token);
    expect(await list(a.agent.token, 'status=pending')).toContain(ids.noQueue);
    await t.api.put(`/users/${a.agent.id}`, { allTicket: 'desabled' }, a.admin.token);
    expect(await list(a.agent.token, 'status=pending')).not.toContain(ids.noQueue);
  });

  it('GET /tickets/{id} and /tickets/u/{uuid}: 403 outside their queues, 200 inside', async () => {
    expect(await t.api.get(`/tickets/${ids.inQ2}`, a.agent.token)).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await t.api.get(`/tickets/${ids.inQ1}`, a.agent.token)).status).toBe(200);
    const uuid = (await t.api.get(`/tickets/${ids.inQ2}`, a.admin.token)).body.uuid;
    expect((await t.api.get(`/tickets/u/${uuid}`, a.agent.token)).status).toBe(403);
    expect((await t.api.get(`/messages/${ids.inQ2}`, a.agent.token)).status).toBe(403);
  });

  it('a new ticket needs a queue of theirs', async () => {
    const contactId = (await t.api.get(`/tickets/${ids.noQueue}`, a.admin.token)).body.contactId;
    const noQueue = await t.api.post('/tickets', { contactId, whatsappId: wa }, a.agent.token);
    expect(noQueue).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    expect((await t.api.post('/tickets', { contactId, whatsappId: wa, queueId: q2 }, a.agent.token)).status).toBe(403);
  });
});

describe('GET /tickets for an admin and its filters', () => {
  // Whole-company lists: a company of its own, where no other test adds or moves tickets.
  let c: Awaited<ReturnType<typeof seedCompany>>;
  beforeAll(async () => {
    c = await seedCompany('VisAdmin');
  });

  it('pending: every pending ticket; open: their own unless showAll', async () => {
    expect((await list(c.tenant.admin.token, 'status=pending')).sort()).toEqual([c.tickets.inQ1, c.tickets.inQ2, c.tickets.noQueue].sort());
    expect(await list(c.tenant.admin.token, 'status=open')).toEqual([]);
    expect(await list(c.tenant.admin.token, 'status=open&showAll=true')).toEqual([c.tickets.agentsOpen]);
  });

  it('queueIds keeps those queues (and queue-less tickets)', async () => {
    expect((await list(c.tenant.admin.token, `status=pending&queueIds=[${c.queue2}]`)).sort()).toEqual([c.tickets.inQ2, c.tickets.noQueue].sort());
    expect((await list(c.tenant.admin.token, `status=pending&queueIds=${c.queue1}`)).sort()).toEqual([c.tickets.inQ1, c.tickets.noQueue].sort());
  });

  it('users is a union of the chosen agents', async () => {
    expect(await list(c.tenant.admin.token, `showAll=true&users=[${c.tenant.agent.id}]`)).toEqual([c.tickets.agentsOpen]);
    expect(await list(c.tenant.admin.token, `showAll=true&users=[${c.tenant.agent.id},${c.tenant.admin.id}]`)).toEqual([c.tickets.agentsOpen]);
  });

  it('tags: a ticket must carry all the chosen tags', async () => {
    const vip = (await t.api.post('/tags', { name: 'VIP' }, c.tenant.admin.token)).body.id;
    const urgent = (await t.api.post('/tags', { name: 'Urgente' }, c.tenant.admin.token)).body.id;
    await t.api.post('/tags/sync', { ticketId: c.tickets.inQ1, tags: [{ id: vip }, { id: urgent }] }, c.tenant.admin.token);
    await t.api.post('/tags/sync', { ticketId: c.tickets.inQ2, tags: [{ id: vip }] }, c.tenant.admin.token);
    expect((await list(c.tenant.admin.token, `showAll=true&tags=[${vip}]`)).sort()).toEqual([c.tickets.inQ1, c.tickets.inQ2].sort());
    expect(await list(c.tenant.admin.token, `showAll=true&tags=[${vip},${urgent}]`)).toEqual([c.tickets.inQ1]);
  });

  it('date and updatedAt narrow to a day in the company’s time zone', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    expect((await list(c.tenant.admin.token, `showAll=true&date=${today}`)).length).toBe(4);
    expect(await list(c.tenant.admin.token, 'showAll=true&date=2001-01-01')).toEqual([]);
    expect((await list(c.tenant.admin.token, `showAll=true&updatedAt=${today}`)).length).toBe(4);
  });

  it('withUnreadMessages lists the tickets with unread messages', async () => {
    // Every agent action on a ticket marks it read; a new customer message makes it unread again.
    await customerSays(t.api, c.tenant.admin.token, c.whatsappId, { from: '5511900000001', body: 'ainda aí?' });
    await t.api.get(`/messages/${c.tickets.inQ2}`, c.tenant.admin.token);
    const unread = await list(c.tenant.admin.token, 'withUnreadMessages=true');
    expect(unread).toContain(c.tickets.inQ1);
    expect(unread).not.toContain(c.tickets.inQ2);
  });

  it('a search finds tickets by contact name, number and message text', async () => {
    expect(await list(c.tenant.admin.token, 'searchParam=tres')).toEqual([c.tickets.noQueue]);
    expect(await list(c.tenant.admin.token, 'searchParam=5511900000002')).toEqual([c.tickets.inQ2]);
    expect(await list(c.tenant.admin.token, 'searchParam=mensagem de Cliente Um')).toEqual([c.tickets.inQ1]);
    expect(await list(c.tenant.admin.token, 'searchParam=%25')).toEqual([]);
  });

  it('bad parameters are refused with the failing fields', async () => {
    const res = await t.api.get('/tickets?status=archived&pageNumber=0', c.tenant.admin.token);
    expect(res.status).toBe(400);
    expect(res.body.fields.map((f: any) => f.path).sort()).toEqual(['pageNumber', 'status']);
  });
});

describe('GET /tickets at the speed of the database', () => {
  /** Statements the server runs while answering one request (the least of three, so a job's work beside it never counts). */
  const statementsOf = async (request: () => Promise<unknown>) => {
    const knex = t.app.orm.em.getConnection().getKnex();
    const counts: number[] = [];
    for (let run = 0; run < 3; run++) {
      let n = 0;
      const count = () => void n++;
      knex.on('query', count);
      try {
        await request();
      } finally {
        knex.off('query', count);
      }
      counts.push(n);
    }
    return Math.min(...counts);
  };

  it('answers a page in a fixed number of statements, however many tickets it shows', async () => {
    const one = await statementsOf(() => t.api.get(`/tickets?status=pending&queueIds=[${q2}]`, a.agent.token));
    const all = await statementsOf(async () => {
      const res = await t.api.get('/tickets?status=pending&showAll=true', a.admin.token);
      expect(res.body.tickets.length).toBeGreaterThan(1);
    });
    // Session, viewer (user and queues), page, count, and the page's tickets with everything they show.
    expect(all).toBeLessThanOrEqual(6);
    expect(one).toBeLessThanOrEqual(6);
  });
});

describe('realtime delivery follows visibility', () => {
  it('an agent hears messages of their queue’s tickets, not of another queue’s; another company hears nothing', async () => {
    const agent = await connectSocket(t.app.url, a.agent.token);
    const other = await connectSocket(t.app.url, b.admin.token);
    try {
      await joined(agent, 'joinNotification');
      await joined(other, 'joinNotification');
      const event = `company-${a.companyId}-appMessage`;
      const agentHears = watch(agent, event);
      const otherHears = watch(other, event);
      await customerSays(t.api, a.admin.token, wa, { from: '5511900000002', body: 'fila dois' });
      // The next message, in the agent's own queue, goes out through the same listener after the first one's.
      await customerSays(t.api, a.admin.token, wa, { from: '5511900000001', body: 'fila um' });
      expect(await agentHears.before(event, (p) => p.message?.body === 'fila um')).toEqual([]);
      await touchAgent(b);
      expect(await otherHears.before(`company-${b.companyId}-user`)).toEqual([]);
    } finally {
      agent.close();
      other.close();
    }
  });

  it('an agent taken off a queue stops hearing its tickets at once, list and open conversation alike', async () => {
    const agent = await connectSocket(t.app.url, a.agent.token);
    try {
      await joined(agent, 'joinNotification');
      await joined(agent, 'joinTickets', 'pending');
      await joined(agent, 'joinChatBox', String(ids.inQ1));
      const event = `company-${a.companyId}-appMessage`;
      const before = nextEvent(agent, event);
      await customerSays(t.api, a.admin.token, wa, { from: '5511900000001', body: 'ainda na fila' });
      await before;

      expect((await t.api.put(`/users/${a.agent.id}`, { queueIds: [] }, a.admin.token)).status).toBe(200);
      // The server has taken the socket out of the queue's rooms and the conversation's.
      await eventually(() => ![...serverRooms(t.app, agent)].some((r) => r.includes(`-queue-${q1}-`) || r === rooms.ticket(a.companyId, ids.inQ1)));
      const after = watch(agent, [event, `company-${a.companyId}-ticket`]);
      await customerSays(t.api, a.admin.token, wa, { from: '5511900000001', body: 'fora da fila' });
      await touchAgent(a);
      expect(await after.before(`company-${a.companyId}-user`)).toEqual([]);
    } finally {
      agent.close();
      expect((await t.api.put(`/users/${a.agent.id}`, { queueIds: [q1] }, a.admin.token)).status).toBe(200);
    }
  });

  it('an agent whose conversation is transferred away stops hearing it, though it was open on their screen', async () => {
    const from = '5511900000009';
    await customerSays(t.api, a.admin.token, wa, { from, name: 'Cliente Nove', body: 'oi' });
    const ticket = await ticketOf(t.api, a.admin.token, from);
    expect((await t.api.put(`/tickets/${ticket.id}`, { queueId: q2, userId: a.agent.id, status: 'open' }, a.admin.token)).status).toBe(200);
    const agent = await connectSocket(t.app.url, a.agent.token);
    try {
      await joined(agent, 'joinChatBox', String(ticket.id));
      const event = `company-${a.companyId}-appMessage`;
      const before = nextEvent(agent, event);
      await customerSays(t.api, a.admin.token, wa, { from, body: 'ainda comigo' });
      await before;

      expect((await t.api.put(`/tickets/${ticket.id}`, { userId: a.admin.id }, a.admin.token)).status).toBe(200);
      await eventually(() => !serverRooms(t.app, agent).has(rooms.ticket(a.companyId, ticket.id)));
      const after = watch(agent, event);
      await customerSays(t.api, a.admin.token, wa, { from, body: 'agora com outro' });
      await touchAgent(a);
      expect(await after.before(`company-${a.companyId}-user`)).toEqual([]);
    } finally {
      agent.close();
    }
  });

  it('a deleted ticket’s conversation room is left by the sockets that had it open', async () => {
    const from = '5511900000010';
    await customerSays(t.api, a.admin.token, wa, { from, name: 'Cliente Dez', body: 'oi' });
    const ticket = await ticketOf(t.api, a.admin.token, from);
    const room = `company-${a.companyId}-ticket-${ticket.id}`;
    const members = () => t.app.realtime.io.sockets.adapter.rooms.get(room)?.size ?? 0;
    const admin = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(admin, 'joinChatBox', String(ticket.id));
      await eventually(() => expect(members()).toBe(1));
      expect((await t.api.del(`/tickets/${ticket.id}`, a.admin.token)).status).toBe(200);
      await eventually(() => expect(members()).toBe(0));
    } finally {
      admin.close();
    }
  });

  it('joinChatBox is refused for a ticket the socket’s user may not see', async () => {
    const agent = await connectSocket(t.app.url, a.agent.token);
    try {
      await joined(agent, 'joinChatBox', String(ids.inQ2));
      const heard = watch(agent, `company-${a.companyId}-appMessage`);
      await customerSays(t.api, a.admin.token, wa, { from: '5511900000002', body: 'segredo' });
      await touchAgent(a);
      expect(await heard.before(`company-${a.companyId}-user`)).toEqual([]);
    } finally {
      agent.close();
    }
  });
});

describe('tenant isolation', () => {
  it('another company’s admin can neither read nor change these tickets and messages', async () => {
    const uuid = (await t.api.get(`/tickets/${ids.inQ1}`, a.admin.token)).body.uuid;
    const before = (await t.api.get(`/tickets/${ids.inQ1}`, a.admin.token)).body;
    expect((await t.api.get(`/tickets/${ids.inQ1}`, b.admin.token)).status).toBe(404);
    expect((await t.api.get(`/tickets/u/${uuid}`, b.admin.token)).status).toBe(404);
    expect((await t.api.put(`/tickets/${ids.inQ1}`, { status: 'closed' }, b.admin.token)).status).toBe(404);
    expect((await t.api.del(`/tickets/${ids.inQ1}`, b.admin.token)).status).toBe(404);
    expect((await t.api.get(`/messages/${ids.inQ1}`, b.admin.token)).status).toBe(404);
    expect((await t.api.post(`/messages/${ids.inQ1}`, { body: 'intruso' }, b.admin.token)).status).toBe(404);
    const message = (await t.api.get(`/messages/${ids.inQ1}`, a.admin.token)).body.messages[0];
    expect((await t.api.del(`/messages/${message.id}`, b.admin.token)).status).toBe(404);
    expect(await list(b.admin.token, 'showAll=true')).toEqual([]);
    expect(await list(b.admin.token, 'searchParam=Cliente')).toEqual([]);
    const after = (await t.api.get(`/tickets/${ids.inQ1}`, a.admin.token)).body;
    expect(after.status).toBe(before.status);
    // Nor through the sandbox phone of another company.
    expect((await t.api.post(`/sandbox/${wa}/messages`, { from: '5511911112222', body: 'x' }, b.admin.token)).status).toBe(404);
    expect((await t.api.get(`/sandbox/${wa}/outbox`, b.admin.token)).status).toBe(404);
  });
});
