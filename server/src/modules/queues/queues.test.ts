import { randomBytes } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, customerSays, ticketOf } from '../../../testing/conversation.js';
import {
  connectSocket,
  createTenant,
  eventually,
  joined,
  nextEvent,
  startTestApp,
  watch,
  type Tenant,
  type TestApp,
} from '../../../testing/helpers.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;
let planId: number;
const sockets: Socket[] = [];

const hex = (bytes = 3) => randomBytes(bytes).toString('hex');
/** With more than one queue a greeting is required, so the helper sends one unless told otherwise. */
const newQueue = (token: string, body: Record<string, unknown> = {}) =>
  t.api.post('/queue', { name: `Queue ${hex()}`, color: `#${hex()}`, greetingMessage: 'Olá!', ...body }, token);
/**
 * A sentinel: the tenant's admin saves their agent, unchanged; company-{id}-user goes out to the company's
 * sockets while that request runs, so after any event an earlier request caused.
 */
const userSaved = async (tenant: Tenant) => {
  expect((await t.api.put(`/users/${tenant.agent.id}`, {}, tenant.admin.token)).status).toBe(200);
  return `company-${tenant.companyId}-user`;
};
const queuesOf = async (token: string, query = '') => {
  const res = await t.api.get(`/queue${query}`, token);
  expect(res.status).toBe(200);
  return res.body as any[];
};
const socketFor = async (token: string) => {
  const socket = await connectSocket(t.app.url, token);
  sockets.push(socket);
  return socket;
};

const DEFAULT_SCHEDULES = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
  { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
];

beforeAll(async () => {
  t = await startTestApp();
  const plan = await t.api.post('/plans', { name: `Queues ${hex()}`, users: 20, connections: 10, queues: 100 }, t.superToken);
  expect(plan.status).toBe(201);
  planId = plan.body.id;
  a = await createTenant(t, 'QueuesA', planId);
  b = await createTenant(t, 'QueuesB', planId);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('POST /queue', () => {
  it('creates a queue with the default weekly hours when none are sent', async () => {
    // A company's first queue: no greeting needed.
    const first = await createTenant(t, 'QFirst', planId);
    const res = await t.api.post('/queue', { name: '  Suporte  ', color: '#ff0000' }, first.admin.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Suporte',
      color: '#ff0000',
      greetingMessage: '',
      outOfHoursMessage: '',
      orderQueue: null,
      integrationId: null,
      promptId: null,
      companyId: first.companyId,
    });
    expect(res.body.schedules).toEqual(DEFAULT_SCHEDULES);
    const read = await t.api.get(`/queue/${res.body.id}`, first.admin.token);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('stores every field; the days sent replace those days, the others keep the defaults', async () => {
    const bot = await t.api.post('/queueIntegration', { type: 'typebot', name: 'Bot financeiro', urlN8N: 'https://typebot.example.com', typebotSlug: 'fin' }, a.admin.token);
    expect(bot.status, JSON.stringify(bot.body)).toBe(201);
    // A prompt row as the prompts module stores it (its key check would call the AI provider).
    const [prompt] = await t.app.orm.em.fork().getConnection().execute(
      `insert into prompts (company_id, name, prompt, model, max_tokens, temperature, max_messages, api_key_sealed, created_at, updated_at)
       values (?, 'Assistente', 'x', 'gpt-4.1-mini', 100, 1, 10, '', now(), now()) returning id`,
      [a.companyId],
    );
    const res = await newQueue(a.admin.token, {
      greetingMessage: 'Bem-vindo ao financeiro',
      outOfHoursMessage: 'Estamos fechados',
      orderQueue: 3,
      integrationId: bot.body.id,
      promptId: String(prompt.id),
      schedules: [
        { weekday: 'Quarta', weekdayEn: 'wednesday', startTime: '09:30', endTime: '17:45' },
        { weekdayEn: 'sunday', startTime: '', endTime: '' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      greetingMessage: 'Bem-vindo ao financeiro',
      outOfHoursMessage: 'Estamos fechados',
      orderQueue: 3,
      integrationId: bot.body.id,
      promptId: prompt.id,
    });
    expect(res.body.schedules).toEqual(
      DEFAULT_SCHEDULES.map((d) =>
        d.weekdayEn === 'wednesday'
          ? { ...d, startTime: '09:30', endTime: '17:45' }
          : d.weekdayEn === 'sunday'
            ? { ...d, startTime: '', endTime: '' }
            : d,
      ),
    );
    expect((await t.api.get(`/queue/${res.body.id}`, a.agent.token)).body).toEqual(res.body);
  });

  it('takes the queue form’s empty strings as "none"', async () => {
    const res = await newQueue(a.admin.token, { orderQueue: '', integrationId: '', promptId: '' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ orderQueue: null, integrationId: null, promptId: null });
  });

  it('validates name (2-50), colour (3-9) and the weekly hours', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'A' }, 'name'],
      [{ name: 'x'.repeat(51) }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: undefined }, 'name'],
      [{ color: '#f' }, 'color'],
      [{ color: '#ff00aa112' + 'x' }, 'color'],
      [{ color: undefined }, 'color'],
      [{ orderQueue: 'first' }, 'orderQueue'],
      [{ schedules: [{ weekdayEn: 'monday', startTime: '25:00', endTime: '18:00' }] }, 'schedules.0.startTime'],
      [{ schedules: [{ weekdayEn: 'monday', startTime: '8:00', endTime: '18:00' }] }, 'schedules.0.startTime'],
      [{ schedules: [{ weekdayEn: 'funday', startTime: '08:00', endTime: '18:00' }] }, 'schedules.0.weekdayEn'],
      [
        {
          schedules: [
            { weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
            { weekdayEn: 'monday', startTime: '09:00', endTime: '18:00' },
          ],
        },
        'schedules',
      ],
      [{ schedules: Array.from({ length: 8 }, () => DEFAULT_SCHEDULES[0]) }, 'schedules'],
    ];
    const before = (await queuesOf(a.admin.token)).length;
    for (const [body, field] of cases) {
      const res = await newQueue(a.admin.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.fields.map((f: any) => f.path), JSON.stringify(body)).toContain(field);
    }
    expect(await queuesOf(a.admin.token)).toHaveLength(before);
    // The bounds themselves are accepted.
    expect((await newQueue(a.admin.token, { name: 'Ab', color: `#${hex(1)}` })).status).toBe(201);
    expect((await newQueue(a.admin.token, { name: 'y'.repeat(50), color: `#${hex(4)}` })).status).toBe(201);
  });

  it('refuses a colour already used in the company, whatever its case, with 409', async () => {
    const first = await newQueue(a.admin.token, { color: '#00AA00' });
    expect(first.status).toBe(201);
    const before = (await queuesOf(a.admin.token)).length;
    expect(await newQueue(a.admin.token, { color: '#00AA00' })).toMatchObject({
      status: 409,
      body: { error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' },
    });
    expect(await newQueue(a.admin.token, { color: '#00aa00' })).toMatchObject({
      status: 409,
      body: { error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' },
    });
    expect(await queuesOf(a.admin.token)).toHaveLength(before);
    // Another company may use the same colour.
    expect((await newQueue(b.admin.token, { color: '#00AA00' })).status).toBe(201);
  });

  it('refuses a name already used in the company, whatever its case, with 409', async () => {
    expect((await newQueue(a.admin.token, { name: 'Comercial' })).status).toBe(201);
    expect(await newQueue(a.admin.token, { name: 'COMERCIAL' })).toMatchObject({
      status: 409,
      body: { error: 'ERR_QUEUE_NAME_ALREADY_EXISTS' },
    });
    expect((await queuesOf(a.admin.token)).filter((q) => q.name.toLowerCase() === 'comercial')).toHaveLength(1);
    expect((await newQueue(b.admin.token, { name: 'Comercial' })).status).toBe(201);
  });

  it('lets exactly one of two simultaneous creations with the same colour through, with the right code', async () => {
    const color = `#${hex()}`;
    const results = await Promise.all([newQueue(a.admin.token, { color }), newQueue(a.admin.token, { color })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    const name = `Twin ${hex()}`;
    const named = await Promise.all([newQueue(a.admin.token, { name }), newQueue(a.admin.token, { name })]);
    expect(named.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(named.find((r) => r.status === 409)!.body.error).toBe('ERR_QUEUE_NAME_ALREADY_EXISTS');
  });

  it('refuses an agent with 403 and creates nothing', async () => {
    const name = `Agent queue ${hex()}`;
    expect(await newQueue(a.agent.token, { name })).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await queuesOf(a.admin.token)).some((q) => q.name === name)).toBe(false);
    expect((await t.api.post('/queue', { name, color: '#123456' })).status).toBe(401);
  });
});

describe('greeting with several queues', () => {
  it('a second queue needs a greeting: 400 ERR_WAPP_GREETING_REQUIRED and nothing created', async () => {
    const c = await createTenant(t, 'QGreet', planId);
    const first = await newQueue(c.admin.token, { greetingMessage: '' });
    expect(first.status).toBe(201);
    for (const greetingMessage of [undefined, '', '   ']) {
      expect(await newQueue(c.admin.token, { greetingMessage })).toMatchObject({
        status: 400,
        body: { error: 'ERR_WAPP_GREETING_REQUIRED' },
      });
    }
    expect(await queuesOf(c.admin.token)).toHaveLength(1);
    expect((await newQueue(c.admin.token, { greetingMessage: 'Bem-vindo' })).status).toBe(201);
    expect(await queuesOf(c.admin.token)).toHaveLength(2);
  });

  it('an update may not blank the greeting while the company has several queues', async () => {
    const c = await createTenant(t, 'QGreetUpd', planId);
    const lone = await newQueue(c.admin.token, { greetingMessage: '' });
    // Alone, a queue may drop its greeting.
    expect((await t.api.put(`/queue/${lone.body.id}`, { greetingMessage: '' }, c.admin.token)).status).toBe(200);
    const second = await newQueue(c.admin.token, { greetingMessage: 'Oi' });
    expect(await t.api.put(`/queue/${second.body.id}`, { greetingMessage: ' ' }, c.admin.token)).toMatchObject({
      status: 400,
      body: { error: 'ERR_WAPP_GREETING_REQUIRED' },
    });
    expect((await t.api.get(`/queue/${second.body.id}`, c.admin.token)).body.greetingMessage).toBe('Oi');
    expect(await t.api.put(`/queue/${lone.body.id}`, { name: 'Renamed', greetingMessage: '' }, c.admin.token)).toMatchObject({
      status: 400,
      body: { error: 'ERR_WAPP_GREETING_REQUIRED' },
    });
    // A change that does not touch the greeting stays possible for the queue saved before the second one.
    expect(await t.api.put(`/queue/${lone.body.id}`, { name: 'Renamed' }, c.admin.token)).toMatchObject({ status: 200, body: { name: 'Renamed' } });
    expect((await t.api.put(`/queue/${lone.body.id}`, { greetingMessage: 'Agora sim' }, c.admin.token)).status).toBe(200);
  });
});

describe('plan limits', () => {
  it('refuses the queue beyond the plan’s allowance with 409 ERR_QUEUE_LIMIT_REACHED', async () => {
    const plan = await t.api.post('/plans', { name: `Two queues ${hex()}`, users: 5, connections: 1, queues: 2 }, t.superToken);
    const c = await createTenant(t, 'QLimit', plan.body.id);
    expect((await newQueue(c.admin.token)).status).toBe(201);
    const second = await newQueue(c.admin.token);
    expect(second.status).toBe(201);
    expect(await newQueue(c.admin.token)).toMatchObject({ status: 409, body: { error: 'ERR_QUEUE_LIMIT_REACHED' } });
    expect(await queuesOf(c.admin.token)).toHaveLength(2);
    // A freed place can be taken again.
    expect((await t.api.del(`/queue/${second.body.id}`, c.admin.token)).status).toBe(200);
    expect((await newQueue(c.admin.token)).status).toBe(201);
    expect(await newQueue(c.admin.token)).toMatchObject({ status: 409, body: { error: 'ERR_QUEUE_LIMIT_REACHED' } });
  });

  it('holds under concurrent creations', async () => {
    const plan = await t.api.post('/plans', { name: `Three queues ${hex()}`, users: 5, connections: 1, queues: 3 }, t.superToken);
    const c = await createTenant(t, 'QRace', plan.body.id);
    const results = await Promise.all(Array.from({ length: 6 }, () => newQueue(c.admin.token)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === 'ERR_QUEUE_LIMIT_REACHED')).toBe(true);
    expect(await queuesOf(c.admin.token)).toHaveLength(3);
  });
});

describe('GET /queue', () => {
  it('lists the company’s queues by orderQueue, then name, for agents too', async () => {
    const c = await createTenant(t, 'QOrder', planId);
    for (const [name, orderQueue] of [
      ['Alpha', 2],
      ['Zulu', 1],
      ['Beta', 1],
      ['Aaa', null],
    ] as const) {
      expect((await newQueue(c.admin.token, { name, orderQueue })).status).toBe(201);
    }
    const list = await queuesOf(c.agent.token);
    expect(list.map((q) => q.name)).toEqual(['Beta', 'Zulu', 'Alpha', 'Aaa']);
    expect(list.every((q) => q.companyId === c.companyId && q.schedules.length === 7)).toBe(true);
    // Also with the trailing slash the client uses.
    expect((await t.api.get('/queue/', c.agent.token)).body.map((q: any) => q.name)).toEqual(['Beta', 'Zulu', 'Alpha', 'Aaa']);
  });

  it('never lists another company’s queues; only a super user names another company', async () => {
    const own = await queuesOf(a.admin.token);
    const theirs = await queuesOf(b.admin.token);
    expect(own.every((q) => q.companyId === a.companyId)).toBe(true);
    expect(own.some((q) => theirs.some((o) => o.id === q.id))).toBe(false);
    expect(await t.api.get(`/queue?companyId=${b.companyId}`, a.admin.token)).toMatchObject({ status: 403, body: { error: 'ERR_NO_SUPER' } });
    expect((await t.api.get(`/queue?companyId=${b.companyId}`, a.agent.token)).status).toBe(403);
    const bySuper = await queuesOf(t.superToken, `?companyId=${b.companyId}`);
    expect(bySuper.map((q) => q.id).sort()).toEqual(theirs.map((q) => q.id).sort());
    expect(await queuesOf(a.agent.token, `?companyId=${a.companyId}`)).toHaveLength(own.length);
    expect((await t.api.get('/queue')).status).toBe(401);
  });

  it('answers 404 for an unknown id and another company’s queue', async () => {
    const theirs = await newQueue(b.admin.token);
    expect(await t.api.get(`/queue/${theirs.body.id}`, a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUEUE_FOUND' } });
    expect(await t.api.get('/queue/999999', a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUEUE_FOUND' } });
    expect(await t.api.get('/queue/abc', a.admin.token)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });
});

describe('PUT /queue/{id}', () => {
  it('changes only what is sent; schedules replace the days they name', async () => {
    const created = await newQueue(a.admin.token, { greetingMessage: 'Olá', orderQueue: 5 });
    const res = await t.api.put(
      `/queue/${created.body.id}`,
      { outOfHoursMessage: 'Volte amanhã', schedules: [{ weekdayEn: 'saturday', startTime: '10:00', endTime: '14:00' }] },
      a.admin.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: created.body.name,
      color: created.body.color,
      greetingMessage: 'Olá',
      outOfHoursMessage: 'Volte amanhã',
      orderQueue: 5,
    });
    expect(res.body.schedules).toEqual(
      DEFAULT_SCHEDULES.map((d) => (d.weekdayEn === 'saturday' ? { ...d, startTime: '10:00', endTime: '14:00' } : d)),
    );
    const bot = await t.api.post('/queueIntegration', { type: 'n8n', name: `n8n ${created.body.id}`, urlN8N: 'https://n8n.example.com/webhook/x' }, a.admin.token);
    const again = await t.api.put(
      `/queue/${created.body.id}`,
      { schedules: [{ weekdayEn: 'monday', startTime: '07:00', endTime: '19:00' }], orderQueue: null, integrationId: bot.body.id },
      a.admin.token,
    );
    expect(again.body.schedules.find((d: any) => d.weekdayEn === 'saturday')).toMatchObject({ startTime: '10:00', endTime: '14:00' });
    expect(again.body.schedules.find((d: any) => d.weekdayEn === 'monday')).toMatchObject({ startTime: '07:00', endTime: '19:00' });
    expect(again.body).toMatchObject({ orderQueue: null, integrationId: bot.body.id });
    // Another company's integration (or none at all) cannot be named.
    expect((await t.api.put(`/queue/${created.body.id}`, { integrationId: 999999 }, a.admin.token)).body).toEqual({ error: 'ERR_NO_INTEGRATION_FOUND' });
    expect((await t.api.get(`/queue/${created.body.id}`, a.admin.token)).body).toEqual(again.body);
  });

  it('keeps its own name and colour, and refuses another queue’s', async () => {
    const one = await newQueue(a.admin.token);
    const two = await newQueue(a.admin.token);
    const same = await t.api.put(`/queue/${one.body.id}`, { name: one.body.name.toUpperCase(), color: one.body.color }, a.admin.token);
    expect(same.status).toBe(200);
    expect(await t.api.put(`/queue/${one.body.id}`, { color: two.body.color }, a.admin.token)).toMatchObject({
      status: 409,
      body: { error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' },
    });
    expect(await t.api.put(`/queue/${one.body.id}`, { name: two.body.name }, a.admin.token)).toMatchObject({
      status: 409,
      body: { error: 'ERR_QUEUE_NAME_ALREADY_EXISTS' },
    });
    expect((await t.api.get(`/queue/${one.body.id}`, a.admin.token)).body).toMatchObject({ color: one.body.color });
  });

  it('validates the body and answers 404 for an unknown queue', async () => {
    const one = await newQueue(a.admin.token);
    expect(await t.api.put(`/queue/${one.body.id}`, { name: 'X' }, a.admin.token)).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    expect(await t.api.put(`/queue/${one.body.id}`, { color: 'ab' }, a.admin.token)).toMatchObject({ status: 400 });
    expect(await t.api.put('/queue/999999', { name: 'Ghost' }, a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUEUE_FOUND' } });
  });

  it('refuses an agent with 403 and changes nothing', async () => {
    const one = await newQueue(a.admin.token);
    expect(await t.api.put(`/queue/${one.body.id}`, { name: 'Agent Rename' }, a.agent.token)).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });
    expect((await t.api.get(`/queue/${one.body.id}`, a.admin.token)).body.name).toBe(one.body.name);
  });
});

describe('DELETE /queue/{id}', () => {
  it('removes the queue; its ticket stays without a queue; users and connections lose the link', async () => {
    const queue = await newQueue(a.admin.token, { name: `Doomed ${hex()}` });
    const keep = await newQueue(a.admin.token);
    const wa = await connectSandbox(t.api, a.admin.token);
    expect(
      (await t.api.put(`/whatsapp/${wa.id}`, { queueIds: [queue.body.id, keep.body.id], greetingMessage: 'Escolha' }, a.admin.token)).status,
    ).toBe(200);
    expect((await t.api.put(`/users/${a.agent.id}`, { queueIds: [queue.body.id, keep.body.id] }, a.admin.token)).status).toBe(200);
    const customer = `55119${Date.now().toString().slice(-8)}`;
    await customerSays(t.api, a.admin.token, wa.id, { from: customer, body: 'Oi' });
    const ticket = await ticketOf(t.api, a.admin.token, customer);
    expect(ticket).toBeDefined();
    const moved = await t.api.put(`/tickets/${ticket.id}`, { queueId: queue.body.id }, a.admin.token);
    expect(moved.body).toMatchObject({ queueId: queue.body.id });

    const watcher = await socketFor(a.admin.token);
    await joined(watcher, 'joinTickets', 'pending');
    const ticketEvents: any[] = [];
    watcher.on(`company-${a.companyId}-ticket`, (payload: any) => ticketEvents.push(payload));

    const res = await t.api.del(`/queue/${queue.body.id}`, a.admin.token);
    expect(res.status).toBe(200);
    // The waiting list hears that the ticket lost its queue.
    await eventually(() => ticketEvents.some((e) => e.action === 'update' && e.ticket.id === ticket.id));
    expect(ticketEvents.find((e) => e.action === 'update' && e.ticket.id === ticket.id).ticket).toMatchObject({
      queueId: null,
      queue: null,
      status: 'pending',
    });
    expect(await t.api.get(`/queue/${queue.body.id}`, a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUEUE_FOUND' } });
    expect((await queuesOf(a.admin.token)).some((q) => q.id === queue.body.id)).toBe(false);
    const after = await t.api.get(`/tickets/${ticket.id}`, a.admin.token);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ id: ticket.id, queueId: null, queue: null });
    expect((await t.api.get(`/users/${a.agent.id}`, a.admin.token)).body.queues.map((q: any) => q.id)).toEqual([keep.body.id]);
    expect((await t.api.get(`/whatsapp/${wa.id}`, a.admin.token)).body.queueIds).toEqual([keep.body.id]);
    expect(await t.api.del(`/queue/${queue.body.id}`, a.admin.token)).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUEUE_FOUND' } });
    await t.api.put(`/users/${a.agent.id}`, { queueIds: [] }, a.admin.token);
  });

  it('refuses an agent with 403 and keeps the queue', async () => {
    const one = await newQueue(a.admin.token);
    expect(await t.api.del(`/queue/${one.body.id}`, a.agent.token)).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await t.api.get(`/queue/${one.body.id}`, a.admin.token)).status).toBe(200);
  });
});

describe('realtime', () => {
  it('announces create, update and delete on company-{id}-queue to the company only', async () => {
    const agentA = await socketFor(a.agent.token);
    const adminB = await socketFor(b.admin.token);
    const eventA = `company-${a.companyId}-queue`;

    let heard = nextEvent<any>(agentA, eventA);
    const leaked = watch(adminB, eventA);
    const created = await newQueue(a.admin.token, { name: `Live ${hex()}` });
    expect(await heard).toEqual({ action: 'create', queue: created.body });

    heard = nextEvent<any>(agentA, eventA);
    const updated = await t.api.put(`/queue/${created.body.id}`, { greetingMessage: 'Novo' }, a.admin.token);
    expect(await heard).toEqual({ action: 'update', queue: updated.body });
    expect(updated.body.greetingMessage).toBe('Novo');

    heard = nextEvent<any>(agentA, eventA);
    await t.api.del(`/queue/${created.body.id}`, a.admin.token);
    expect(await heard).toEqual({ action: 'delete', queueId: created.body.id });
    expect(await leaked.before(await userSaved(b))).toEqual([]);

    // Nothing is announced for a refused change.
    const refused = watch(agentA, eventA);
    expect((await newQueue(a.agent.token)).status).toBe(403);
    expect(await refused.before(await userSaved(a))).toEqual([]);
  });
});

describe('tenant isolation', () => {
  it('company A cannot read, update or delete company B’s queues', async () => {
    const theirs = await newQueue(b.admin.token, { name: `Theirs ${hex()}`, greetingMessage: 'B' });
    for (const token of [a.admin.token, a.agent.token]) {
      expect((await t.api.get(`/queue/${theirs.body.id}`, token)).status).toBe(404);
      expect([403, 404]).toContain((await t.api.put(`/queue/${theirs.body.id}`, { name: 'Pwned', greetingMessage: 'x' }, token)).status);
      expect([403, 404]).toContain((await t.api.del(`/queue/${theirs.body.id}`, token)).status);
    }
    expect(await t.api.put(`/queue/${theirs.body.id}`, { name: 'Pwned' }, a.admin.token)).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_FOUND' },
    });
    expect((await t.api.get(`/queue/${theirs.body.id}`, b.admin.token)).body).toEqual(theirs.body);
  });

  it('a colour or name used by another company does not block this one', async () => {
    const theirs = await newQueue(b.admin.token);
    expect((await newQueue(a.admin.token, { name: theirs.body.name, color: theirs.body.color })).status).toBe(201);
  });
});
