import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, customerSays, outbox, ticketOf } from '../../../testing/conversation.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';

/**
 * The dashboard against the real server: conversations through the sandbox phone for the counters,
 * attendance cycles inserted with exact times where minutes and days matter. Company B holds data on
 * the same days throughout, so every exact figure below also shows that another company never counts.
 */
let t: TestApp;
let b: Tenant;

const db = (sql: string, params: unknown[] = []) => t.app.orm.em.fork().getConnection().execute(sql, params);

const contactIn = async (tenant: Tenant, name: string, number: string): Promise<number> => {
  const res = await t.api.post('/contacts', { name, number }, tenant.admin.token);
  if (res.status !== 200 && res.status !== 201) throw new Error(`contact: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
};

interface CycleTimes {
  queued?: string | null;
  started?: string | null;
  finished?: string | null;
  ratingAt?: string | null;
  /** Defaults to the queued time. */
  created?: string;
  userId?: number | null;
}

/** A closed ticket of the contact with one attendance cycle at exact times (ISO instants). */
const insertCycle = async (companyId: number, contactId: number, c: CycleTimes): Promise<number> => {
  const created = c.created ?? c.queued ?? new Date().toISOString();
  const [ticket] = await db(
    `insert into tickets (uuid, company_id, status, contact_id, whatsapp_id, user_id, queue_id, is_group, last_message,
       last_from_me, unread_messages, rating_attempts, created_at, updated_at)
     values (gen_random_uuid(), ?, 'closed', ?, null, ?, null, false, '', false, 0, 0, ?, ?) returning id`,
    [companyId, contactId, c.userId ?? null, created, created],
  );
  await db(
    `insert into ticket_trackings (company_id, ticket_id, user_id, queued_at, started_at, finished_at, rating_at, rated, created_at)
     values (?, ?, ?, ?, ?, ?, ?, false, ?)`,
    [companyId, ticket.id, c.userId ?? null, c.queued ?? null, c.started ?? null, c.finished ?? null, c.ratingAt ?? null, created],
  );
  return ticket.id;
};

const insertRating = async (companyId: number, ticketId: number, userId: number, rate: number, at: string) =>
  db('insert into user_ratings (company_id, ticket_id, user_id, rate, created_at) values (?, ?, ?, ?, ?)', [companyId, ticketId, userId, rate, at]);

const setTimezone = async (tenant: Tenant, timezone: string) => {
  const res = await t.api.put(`/companies/${tenant.companyId}`, { timezone }, t.superToken);
  if (res.status !== 200) throw new Error(`timezone: ${res.status} ${JSON.stringify(res.body)}`);
};

const dashboard = async (tenant: Tenant, query = '') => {
  const res = await t.api.get(`/dashboard${query ? `?${query}` : ''}`, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    counters: Record<string, number>;
    attendants: { id: number; name: string; rating: number; avgSupportTime: number; tickets: number; online: boolean }[];
  };
};
const attendant = (body: Awaited<ReturnType<typeof dashboard>>, userId: number) => body.attendants.find((a) => a.id === userId)!;

const chart = async (tenant: Tenant, which: 'ticketsUsers' | 'ticketsDay', initialDate: string, finalDate: string, token = tenant.admin.token) => {
  const res = await t.api.get(`/dashboard/${which}?initialDate=${initialDate}&finalDate=${finalDate}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: any[]; count: number };
};

beforeAll(async () => {
  t = await startTestApp();
  // Company B: live tickets, cycles and ratings on the very days the other companies use.
  b = await createTenant(t, 'DashB');
  await setTimezone(b, 'America/Sao_Paulo');
  const wa = await connectSandbox(t.api, b.admin.token);
  await customerSays(t.api, b.admin.token, wa.id, { from: '5521977770001', body: 'oi' });
  await customerSays(t.api, b.admin.token, wa.id, { from: '5521977770002', body: 'oi' });
  const open = await ticketOf(t.api, b.admin.token, '5521977770001');
  await t.api.put(`/tickets/${open.id}`, { status: 'open', userId: b.admin.id }, b.admin.token);
  const contact = await contactIn(b, 'Outsider', '5521977770003');
  for (const day of ['2024-03-09', '2024-03-10', '2024-03-11', '2024-03-20', '2024-02-25']) {
    const ticketId = await insertCycle(b.companyId, contact, {
      queued: `${day}T13:00:00Z`,
      started: `${day}T14:00:00Z`,
      finished: `${day}T17:00:00Z`,
      userId: b.admin.id,
    });
    await insertRating(b.companyId, ticketId, b.admin.id, 1, `${day}T17:00:00Z`);
  }
  await insertCycle(b.companyId, contact, { queued: new Date(Date.now() - 86400_000).toISOString(), started: new Date().toISOString(), userId: b.agent.id });
});
afterAll(() => t?.stop());

describe('access', () => {
  it('needs a token for every endpoint', async () => {
    for (const url of ['/dashboard?days=7', '/dashboard/ticketsUsers?initialDate=2024-03-01&finalDate=2024-03-02', '/dashboard/ticketsDay?initialDate=2024-03-01&finalDate=2024-03-02']) {
      expect((await t.api.get(url)).status, url).toBe(401);
    }
  });

  it('keeps the dashboard and its charts for admins: an agent gets ERR_NO_PERMISSION', async () => {
    for (const url of ['/dashboard?days=7', '/dashboard/ticketsUsers?initialDate=2024-03-01&finalDate=2024-03-31', '/dashboard/ticketsDay?initialDate=2024-03-01&finalDate=2024-03-31']) {
      expect(await t.api.get(url, b.agent.token), url).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    }
  });

  it('lets an admin read the charts of their own company', async () => {
    const users = await chart(b, 'ticketsUsers', '2024-03-01', '2024-03-31', b.admin.token);
    expect(users.count).toBe(4);
    expect((await chart(b, 'ticketsDay', '2024-03-01', '2024-03-31', b.admin.token)).count).toBe(4);
  });

  it('refuses bad parameters with ERR_VALIDATION', async () => {
    const bad = [
      '/dashboard?days=-1',
      '/dashboard?days=abc',
      '/dashboard?days=2.5',
      '/dashboard?date_from=2024-13-01',
      '/dashboard?date_from=2024-02-30',
      '/dashboard?date_to=yesterday',
      '/dashboard?date_from=2024-03-10&date_to=2024-03-09',
      '/dashboard/ticketsUsers',
      '/dashboard/ticketsUsers?initialDate=2024-03-01',
      '/dashboard/ticketsUsers?initialDate=2024-03-02&finalDate=2024-03-01',
      "/dashboard/ticketsDay?initialDate=2024-03-01'--&finalDate=2024-03-02",
      '/dashboard/ticketsDay?initialDate=01/03/2024&finalDate=02/03/2024',
    ];
    for (const url of bad) {
      expect(await t.api.get(url, b.admin.token), url).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    }
  });
});

// Steps of one story: one company's conversation, counted as it goes (each step builds on the tickets and
// cycles the steps before it made), then compared with what the query and company B see.
describe('counters and averages of a conversation through the sandbox phone', { shuffle: false }, () => {
  let a: Tenant;
  let wa: { id: number; number: string };
  const C1 = '5511966660001';
  const C2 = '5511966660002';
  const C3 = '5511966660003';
  let first: { c1: number; c2: number };

  beforeAll(async () => {
    a = await createTenant(t, 'DashA');
    wa = await connectSandbox(t.api, a.admin.token);
  });

  it('starts at zero, listing every user of the company', async () => {
    const body = await dashboard(a, 'days=7');
    expect(body.counters).toEqual({ supportHappening: 0, supportPending: 0, supportFinished: 0, leads: 0, avgSupportTime: 0, avgWaitTime: 0 });
    expect(body.attendants.map((x) => x.id).sort()).toEqual([a.admin.id, a.agent.id].sort());
    for (const x of body.attendants) expect(x).toMatchObject({ rating: 0, avgSupportTime: 0, tickets: 0 });
  });

  it('counts open and pending tickets now, finished cycles, and contacts with one cycle as leads', async () => {
    for (const from of [C1, C2, C3]) await customerSays(t.api, a.admin.token, wa.id, { from, body: 'Olá' });
    const t1 = await ticketOf(t.api, a.admin.token, C1);
    const t2 = await ticketOf(t.api, a.admin.token, C2);
    expect((await t.api.put(`/tickets/${t1.id}`, { status: 'open', userId: a.admin.id }, a.admin.token)).status).toBe(200);
    expect((await t.api.put(`/tickets/${t2.id}`, { status: 'open', userId: a.agent.id }, a.admin.token)).status).toBe(200);
    expect((await t.api.put(`/tickets/${t1.id}`, { status: 'closed' }, a.admin.token)).status).toBe(200);

    const body = await dashboard(a, 'days=7');
    expect(body.counters).toMatchObject({ supportHappening: 1, supportPending: 1, supportFinished: 1, leads: 3 });
    expect(attendant(body, a.admin.id).tickets).toBe(1);
    expect(attendant(body, a.agent.id).tickets).toBe(1);

    // C1 writes again: a new ticket and a second cycle, so C1 is no longer a new contact.
    await customerSays(t.api, a.admin.token, wa.id, { from: C1, body: 'Voltei' });
    const again = await dashboard(a, 'days=7');
    expect(again.counters).toMatchObject({ supportHappening: 1, supportPending: 2, supportFinished: 1, leads: 2 });
    first = { c1: t1.id, c2: t2.id };
  });

  it('averages support (start → finish) and wait (queued → start) in minutes, over cycles that have them', async () => {
    // Exact times on the cycles the conversation made: C1 waited 10 min and was served 30; C2 waited 20, still open.
    await db(
      `update ticket_trackings set queued_at = now() - interval '60 minutes', started_at = now() - interval '50 minutes',
         finished_at = now() - interval '20 minutes' where ticket_id = ?`,
      [first.c1],
    );
    await db(`update ticket_trackings set queued_at = now() - interval '60 minutes', started_at = now() - interval '40 minutes' where ticket_id = ?`, [
      first.c2,
    ]);
    const body = await dashboard(a, 'days=7');
    expect(body.counters).toMatchObject({ avgWaitTime: 15, avgSupportTime: 30 });
    expect(attendant(body, a.admin.id)).toMatchObject({ tickets: 1, avgSupportTime: 30 });
    expect(attendant(body, a.agent.id)).toMatchObject({ tickets: 1, avgSupportTime: 0 });
  });

  it('a rating given on the phone counts for the agent who closed, and support time ends at the rating request', async () => {
    expect((await t.api.put('/settings/userRating', { value: 'enabled' }, a.admin.token)).status).toBe(200);
    expect((await t.api.put(`/tickets/${first.c2}`, { status: 'closed' }, a.agent.token)).status).toBe(200);
    await eventually(async () => expect((await outbox(t.api, a.admin.token, wa.id)).at(-1)!.body).toContain('*1*'));
    await customerSays(t.api, a.admin.token, wa.id, { from: C2, body: '2' });
    await eventually(async () => expect((await db('select rate from user_ratings where ticket_id = ?', [first.c2])).length).toBe(1));

    const body = await dashboard(a, 'days=7');
    expect(body.counters).toMatchObject({ supportHappening: 0, supportPending: 2, supportFinished: 2 });
    const agent = attendant(body, a.agent.id);
    expect(agent.rating).toBe(2);
    expect(agent.avgSupportTime).toBeGreaterThanOrEqual(39.9);
    expect(agent.avgSupportTime).toBeLessThan(41);
    expect(attendant(body, a.admin.id).rating).toBe(0);
  });

  it('ignores a companyId in the query: the token’s company is the one counted', async () => {
    const mine = await dashboard(a, 'days=7');
    const asked = await dashboard(a, `days=7&companyId=${b.companyId}`);
    expect(asked).toEqual(mine);
    expect(asked.attendants.map((x) => x.id)).not.toContain(b.admin.id);
    const users = await t.api.get(`/dashboard/ticketsUsers?initialDate=2024-03-01&finalDate=2024-03-31&companyId=${b.companyId}`, a.admin.token);
    expect(users.body.count).toBe(0);
    expect(users.body.data.map((r: any) => r.nome).sort()).toEqual(mine.attendants.map((x) => x.name).sort());
    const days = await t.api.get(`/dashboard/ticketsDay?initialDate=2024-03-01&finalDate=2024-03-31&companyId=${b.companyId}`, a.admin.token);
    expect(days.body).toEqual({ data: [], count: 0 });
  });

  it('company B sees its own figures, never A’s', async () => {
    const body = await dashboard(b);
    expect(body.counters).toMatchObject({ supportHappening: 1, supportPending: 1, supportFinished: 5 });
    expect(body.attendants.map((x) => x.id).sort()).toEqual([b.admin.id, b.agent.id].sort());
    expect(attendant(body, b.admin.id)).toMatchObject({ rating: 1, avgSupportTime: 180 });
  });
});

describe('period filters, day boundaries in the company’s time zone, ratings of the period', () => {
  let p: Tenant;
  let third: number;

  beforeAll(async () => {
    p = await createTenant(t, 'DashP');
    // São Paulo is UTC-3 all year: 02:30Z on the 10th is still the 9th there.
    await setTimezone(p, 'America/Sao_Paulo');
    const third_ = await t.api.post('/users', { name: 'Zed Never Logged', email: `zed-${p.companyId}@example.com`, password: 'Passw0rd-zed', profile: 'user' }, p.admin.token);
    third = third_.body.id;
    const k1 = await contactIn(p, 'Karla', '5511955550001');
    const k2 = await contactIn(p, 'Kaio', '5511955550002');
    const k3 = await contactIn(p, 'Kelly', '5511955550003');
    // a: 9th local, 5 min wait, 20 min support.
    const a = await insertCycle(p.companyId, k1, {
      queued: '2024-03-10T02:30:00Z', started: '2024-03-10T02:35:00Z', finished: '2024-03-10T02:55:00Z', userId: p.admin.id,
    });
    // b: 10th local (00:30), 10 min wait, 60 min support.
    const b_ = await insertCycle(p.companyId, k2, {
      queued: '2024-03-10T03:30:00Z', started: '2024-03-10T03:40:00Z', finished: '2024-03-10T04:40:00Z', userId: p.agent.id,
    });
    // c: 11th, 30 min wait, still unfinished.
    await insertCycle(p.companyId, k2, { queued: '2024-03-11T12:00:00Z', started: '2024-03-11T12:30:00Z', userId: p.agent.id });
    // d: 20th, 6 min wait, 10 min to the rating request (finished later, at 12:30).
    await insertCycle(p.companyId, k3, {
      queued: '2024-03-20T12:00:00Z', started: '2024-03-20T12:06:00Z', ratingAt: '2024-03-20T12:16:00Z', finished: '2024-03-20T12:30:00Z', userId: p.admin.id,
    });
    // A negative span (clock skew) counts for neither average.
    await insertCycle(p.companyId, k3, {
      queued: '2024-05-01T12:00:00Z', started: '2024-05-01T11:00:00Z', finished: '2024-05-01T10:00:00Z', userId: p.admin.id,
    });
    await insertRating(p.companyId, a, p.admin.id, 3, '2024-03-10T12:00:00Z');
    await insertRating(p.companyId, a, p.admin.id, 2, '2024-03-12T12:00:00Z');
    await insertRating(p.companyId, a, p.admin.id, 1, '2024-02-01T12:00:00Z');
    await insertRating(p.companyId, b_, p.agent.id, 3, '2024-04-02T12:00:00Z');
  });

  it('date_from and date_to: one local day', async () => {
    const body = await dashboard(p, 'date_from=2024-03-10&date_to=2024-03-10');
    expect(body.counters).toEqual({ supportHappening: 0, supportPending: 0, supportFinished: 1, leads: 1, avgSupportTime: 60, avgWaitTime: 10 });
  });

  it('date_from alone: queued from that day on, unfinished cycles included', async () => {
    const body = await dashboard(p, 'date_from=2024-03-10&date_to=');
    // b, c, d and the skewed May cycle (finished, but in neither average); Kaio and Kelly have two cycles each.
    expect(body.counters).toMatchObject({ supportFinished: 3, leads: 0, avgWaitTime: 15.33, avgSupportTime: 35 });
    const april = await dashboard(p, 'date_from=2024-03-10&date_to=2024-04-30');
    expect(april.counters).toMatchObject({ supportFinished: 2, leads: 2, avgWaitTime: 8, avgSupportTime: 35 });
  });

  it('date_to alone: finished by the end of that local day, unfinished cycles dropped', async () => {
    const body = await dashboard(p, 'date_to=2024-03-09');
    expect(body.counters).toMatchObject({ supportFinished: 1, leads: 1, avgWaitTime: 5, avgSupportTime: 20 });
  });

  it('a month: attendants’ cycles, average support time and the mean of their ratings in the period', async () => {
    const body = await dashboard(p, 'date_from=2024-03-01&date_to=2024-03-31');
    expect(body.counters).toMatchObject({ supportFinished: 3, leads: 3, avgWaitTime: 7, avgSupportTime: 30 });
    expect(attendant(body, p.admin.id)).toMatchObject({ tickets: 2, avgSupportTime: 15, rating: 2.5, online: true });
    expect(attendant(body, p.agent.id)).toMatchObject({ tickets: 1, avgSupportTime: 60, rating: 0, online: true });
    expect(attendant(body, third)).toEqual({ id: third, name: 'Zed Never Logged', tickets: 0, avgSupportTime: 0, rating: 0, online: false });
    expect(body.attendants).toHaveLength(3);

    const wider = await dashboard(p, 'date_from=2024-02-01&date_to=2024-04-30');
    expect(attendant(wider, p.admin.id).rating).toBe(2);
    expect(attendant(wider, p.agent.id).rating).toBe(3);
  });

  it('a period without cycles gives zeros', async () => {
    const body = await dashboard(p, 'date_from=2025-01-01&date_to=2025-01-31');
    expect(body.counters).toEqual({ supportHappening: 0, supportPending: 0, supportFinished: 0, leads: 0, avgSupportTime: 0, avgWaitTime: 0 });
    for (const x of body.attendants) expect(x).toMatchObject({ tickets: 0, rating: 0, avgSupportTime: 0 });
  });

  it('follows the company’s time zone: in Tokyo the same instants fall on other days', async () => {
    await setTimezone(p, 'Asia/Tokyo');
    try {
      // UTC+9: a (02:30Z) and b (03:30Z) are both on the 10th.
      const body = await dashboard(p, 'date_from=2024-03-10&date_to=2024-03-10');
      expect(body.counters).toMatchObject({ supportFinished: 2, leads: 2 });
    } finally {
      await setTimezone(p, 'America/Sao_Paulo');
    }
  });
});

describe('days: the last N calendar days', () => {
  let q: Tenant;

  beforeAll(async () => {
    q = await createTenant(t, 'DashQ');
    const k = await contactIn(q, 'Quitéria', '5511944440001');
    const k2 = await contactIn(q, 'Quirino', '5511944440002');
    const at = (daysAgo: number, minutes = 0) => new Date(Date.now() - daysAgo * 86400_000 + minutes * 60_000).toISOString();
    await insertCycle(q.companyId, k, { queued: at(1), started: at(1, 4), finished: at(1, 14), userId: q.admin.id });
    await insertCycle(q.companyId, k2, { queued: at(10), started: at(10, 8), finished: at(10, 28), userId: q.agent.id });
    await insertRating(q.companyId, (await db('select id from tickets where company_id = ? limit 1', [q.companyId]))[0].id, q.agent.id, 3, at(10, 30));
  });

  it('counts cycles queued in the period only', async () => {
    expect((await dashboard(q, 'days=3')).counters).toMatchObject({ supportFinished: 1, leads: 1, avgWaitTime: 4, avgSupportTime: 10 });
    expect((await dashboard(q, 'days=15')).counters).toMatchObject({ supportFinished: 2, leads: 2, avgWaitTime: 6, avgSupportTime: 15 });
    expect(attendant(await dashboard(q, 'days=3'), q.agent.id)).toMatchObject({ tickets: 0, rating: 0 });
    expect(attendant(await dashboard(q, 'days=15'), q.agent.id)).toMatchObject({ tickets: 1, rating: 3 });
  });

  it('0 (or none) is no period: everything', async () => {
    expect((await dashboard(q, 'days=0')).counters).toMatchObject({ supportFinished: 2 });
    expect((await dashboard(q)).counters).toMatchObject({ supportFinished: 2 });
  });

  it('combined with date_from, the narrower start wins', async () => {
    const [{ day }] = await db(`select to_char((now() at time zone c.timezone)::date - 5, 'YYYY-MM-DD') as day from companies c where id = ?`, [q.companyId]);
    expect((await dashboard(q, `days=15&date_from=${day}`)).counters).toMatchObject({ supportFinished: 1 });
    expect((await dashboard(q, `days=1&date_from=${day}`)).counters).toMatchObject({ supportFinished: 0 });
  });
});

describe('charts', () => {
  let c: Tenant;

  beforeAll(async () => {
    c = await createTenant(t, 'DashC');
    await setTimezone(c, 'America/Sao_Paulo');
    const k = await contactIn(c, 'Carmem', '5511933330001');
    const cycle = (created: string, finished: string | null, userId: number | null) =>
      insertCycle(c.companyId, k, { queued: created, started: created, finished, userId });
    await cycle('2024-02-25T15:00:00Z', null, null); // 25/02
    await cycle('2024-03-10T02:30:00Z', '2024-03-10T02:50:00Z', c.admin.id); // 09/03 local, finished on the 9th
    await cycle('2024-03-10T03:30:00Z', '2024-03-10T05:00:00Z', c.agent.id); // 10/03 00h
    await cycle('2024-03-10T14:15:00Z', '2024-03-10T15:00:00Z', c.agent.id); // 10/03 11h
    await cycle('2024-03-10T14:45:00Z', '2024-03-12T15:00:00Z', c.admin.id); // 10/03 11h, finished on the 12th
    await cycle('2024-03-20T12:00:00Z', '2024-04-01T12:00:00Z', c.agent.id); // 20/03, finished in April
  });

  it('tickets per user: cycles finished in the period, every user listed (0 when none)', async () => {
    const march = await chart(c, 'ticketsUsers', '2024-03-10', '2024-03-31');
    const name = async (id: number) => (await t.api.get(`/users/${id}`, c.admin.token)).body.name;
    expect(march).toEqual({
      data: [
        { nome: await name(c.agent.id), quantidade: 2 },
        { nome: await name(c.admin.id), quantidade: 1 },
      ],
      count: 3,
    });
    const ninth = await chart(c, 'ticketsUsers', '2024-03-09', '2024-03-09');
    expect(ninth.count).toBe(1);
    expect(ninth.data).toContainEqual({ nome: await name(c.admin.id), quantidade: 1 });
    expect(ninth.data).toContainEqual({ nome: await name(c.agent.id), quantidade: 0 });
  });

  it('tickets per day: cycles created, dd/mm/yyyy in date order across months', async () => {
    expect(await chart(c, 'ticketsDay', '2024-02-01', '2024-03-31')).toEqual({
      data: [
        { data: '25/02/2024', total: 1 },
        { data: '09/03/2024', total: 1 },
        { data: '10/03/2024', total: 3 },
        { data: '20/03/2024', total: 1 },
      ],
      count: 6,
    });
  });

  it('tickets per hour when the period is one day, in local hours', async () => {
    expect(await chart(c, 'ticketsDay', '2024-03-10', '2024-03-10')).toEqual({
      data: [
        { horario: 0, total: 1 },
        { horario: 11, total: 2 },
      ],
      count: 3,
    });
  });
});
