import { randomBytes } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_SETTING_DEFAULTS } from '@atrium/shared';
import type { SandboxSession } from '../../channels/sandbox/sandbox.provider.js';
import { forSystem } from '../../db/tenant.js';
import {
  connectSocket,
  createTenant,
  eventually,
  startTestApp,
  type Tenant,
  type TestApp,
} from '../../../testing/helpers.js';
import { connectSandbox, outbox } from '../../../testing/conversation.js';
import { expectError } from '../../../testing/expect.js';
import {
  launchCampaign,
  pacingOf,
  pickVariant,
  plannedOffsetMs,
  renderCampaignMessage,
  sweepCampaigns,
  topUpCampaign,
  type EngineDeps,
} from './campaigns.engine.js';

let t: TestApp;
let a: Tenant;
let wa: { id: number };
const sockets: Socket[] = [];
const uid = () => randomBytes(3).toString('hex');
let numberSeq = 0;

const depsOf = (app: TestApp): EngineDeps => ({
  systemEm: () => forSystem(app.app.orm.em),
  media: app.app.media,
  events: app.app.events,
  logger: app.app.logger,
  outboxWindow: app.app.config.campaignOutboxWindow,
});
const db = () => t.app.orm.em.fork();

/** A list of `count` people with fresh numbers (none checked on WhatsApp yet), plus the numbers. */
const listOf = async (count: number, tenant = a) => {
  const list = (await t.api.post('/contact-lists', { name: `List ${uid()}` }, tenant.admin.token)).body;
  const numbers: string[] = [];
  for (let i = 0; i < count; i++) {
    const number = `55219${String(70000000 + ++numberSeq).padStart(8, '0')}`;
    numbers.push(number);
    const res = await t.api.post('/contact-list-items', { contactListId: list.id, name: `Pessoa ${numberSeq}`, number, email: `p${numberSeq}@example.com` }, tenant.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  return { id: list.id as number, numbers };
};

const settings = async (values: Record<string, unknown>) => {
  const res = await t.api.post('/campaign-settings', { settings: values }, a.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const NO_PACING = { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, sendWindowStart: '', sendWindowEnd: '', dailyLimit: 0 };

/** A campaign due now (PROGRAMADA, its time passed), its start job out of the way: the test starts it. */
const dueCampaign = async (contactListId: number, body: Record<string, unknown> = {}) => {
  const res = await t.api.post(
    '/campaigns',
    { name: `Camp ${uid()}`, message1: 'Oi {nome}!', whatsappId: wa.id, contactListId, scheduledAt: new Date(Date.now() + 3 * 3600_000).toISOString(), ...body },
    a.admin.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await t.app.scheduler.agenda.cancel({ name: 'campaigns:start', data: { companyId: a.companyId, campaignId: res.body.id } });
  await db().execute(`update campaigns set scheduled_at = now() - interval '1 second' where id = ?`, [res.body.id]);
  return res.body.id as number;
};

const campaign = async (id: number) => (await t.api.get(`/campaigns/${id}`, a.admin.token)).body;
const report = async (id: number) => (await t.api.get(`/campaigns/${id}/report`, a.admin.token)).body;
const finished = (id: number, timeoutMs = 20_000) =>
  eventually(async () => {
    const c = await campaign(id);
    return c.status === 'FINALIZADA' ? c : false;
  }, timeoutMs);
/** What the phone received for these numbers: number → how many messages. */
const received = async (numbers: string[]) => {
  const all = await outbox(t.api, a.admin.token, wa.id);
  return Object.fromEntries(numbers.map((n) => [n, all.filter((m) => m.to === n).length]));
};
/** The "typing…" step of each of a campaign's outbox rows. */
const presences = async (campaignId: number) =>
  (
    await db().execute<{ presence: string | null }[]>(
      `select o.presence from campaign_shipping s join outbound_messages o on o.id = s.outbox_id where s.campaign_id = ? order by s.id`,
      [campaignId],
    )
  ).map((r) => r.presence);
const once = (numbers: string[]) => Object.fromEntries(numbers.map((n) => [n, 1]));

/** A small window, so that every test's campaign goes through the outbox a few rows at a time. */
const WINDOW = 4;

beforeAll(async () => {
  t = await startTestApp({ CAMPAIGN_OUTBOX_WINDOW: String(WINDOW) });
  a = await createTenant(t, 'Engine');
  wa = await connectSandbox(t.api, a.admin.token);
  await settings(NO_PACING);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('pacing and messages (unit)', () => {
  it('reads the settings with their intended meaning (spec 04 note): seconds between sends, a long gap every N, 0 is off', () => {
    expect(pacingOf({ ...CAMPAIGN_SETTING_DEFAULTS })).toEqual({ name: 'campaigns', gapMs: 20_000, longGapEvery: 20, longGapMs: 60_000, dailyCap: 0, window: null });
    expect(pacingOf({ ...CAMPAIGN_SETTING_DEFAULTS, longerIntervalAfter: 0 })).toMatchObject({ longGapEvery: 0, longGapMs: 0 });
    expect(pacingOf({ ...CAMPAIGN_SETTING_DEFAULTS, messageInterval: 0, sendWindowStart: '08:00', sendWindowEnd: '18:30', dailyLimit: 200 })).toMatchObject({
      gapMs: 0,
      dailyCap: 200,
      window: { from: '08:00', to: '18:30' },
    });
  });

  it('plans the i-th send at i gaps, every Nth of them the long one', () => {
    const s = { messageInterval: 20, longerIntervalAfter: 3, greaterInterval: 60 };
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => plannedOffsetMs(i, s) / 1000)).toEqual([0, 20, 40, 100, 120, 140, 200, 220]);
    expect(plannedOffsetMs(10, { ...s, longerIntervalAfter: 0 })).toBe(200_000);
    // A "long" gap shorter than the ordinary one is the ordinary one.
    expect(plannedOffsetMs(4, { messageInterval: 10, longerIntervalAfter: 2, greaterInterval: 1 })).toBe(40_000);
    expect(plannedOffsetMs(5, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 })).toBe(0);
  });

  it('picks among the filled variants only, each about as often', () => {
    const c = { message1: 'a', message2: '', message3: 'c', message4: '  ', message5: 'e' };
    const seen: Record<number, number> = {};
    for (let i = 0; i < 3000; i++) seen[pickVariant(c)] = (seen[pickVariant(c)] ?? 0) + 1;
    expect(Object.keys(seen).sort()).toEqual(['1', '3', '5']);
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(800);
    expect(pickVariant({ message1: '', message2: '', message3: '', message4: '', message5: '' })).toBe(0);
  });

  it('fills {nome}, {email}, {numero} and the company variables literally, then {{...}} variables', () => {
    const text = renderCampaignMessage(
      'Oi {nome} ({numero}), {nome}! Cupom {cupom} em {site}. {{firstName}} {desconhecido} $& {a.b}',
      { name: 'Maria Silva', number: '5511999990000', email: 'm@x.com' },
      [
        { key: 'cupom', value: 'PROMO$&10' },
        { key: 'site', value: 'loja.com' },
      ],
      'America/Sao_Paulo',
    );
    expect(text).toBe('Oi Maria Silva (5511999990000), Maria Silva! Cupom PROMO$&10 em loja.com. Maria {desconhecido} $& {a.b}');
  });
});

describe('the engine', () => {
  it('sends each contact one message, picked and rendered at start, kept in its history without a ticket, then FINALIZADA', async () => {
    await settings({ ...NO_PACING, variables: [{ key: 'cupom', value: 'BEMVINDO' }] });
    const list = await listOf(4);
    // One number known not to be on WhatsApp is left out.
    await db().execute(`update contact_list_items set is_whatsapp_valid = false, checked_at = now() where contact_list_id = ? and number = ?`, [list.id, list.numbers[3]]);
    const id = await dueCampaign(list.id, { message1: 'Oi {nome}, cupom {cupom}', message2: 'Olá {{firstName}}, use {cupom}' });
    expect(await launchCampaign(depsOf(t), a.companyId, id, 'start')).toBe(3);
    const done = await finished(id);
    expect(done.completedAt).toEqual(expect.any(String));
    expect(done.counts).toMatchObject({ total: 3, pending: 0, sent: 3, failed: 0 });
    const sent = list.numbers.slice(0, 3);
    expect(await received(list.numbers)).toEqual({ ...once(sent), [list.numbers[3]]: 0 });

    const rows = (await t.api.get(`/campaigns/${id}/shipping`, a.admin.token)).body.records as any[];
    const phone = await outbox(t.api, a.admin.token, wa.id);
    for (const row of rows) {
      expect([1, 2]).toContain(row.variant);
      expect(row.message).toBe(row.variant === 1 ? `Oi ${row.name}, cupom BEMVINDO` : `Olá ${row.name.split(' ')[0]}, use BEMVINDO`);
      expect(phone.find((m) => m.to === row.number)?.body).toBe(row.message);
      expect(row.sentAt).toEqual(expect.any(String));
    }
    // In the contact's history, and no ticket opened.
    const [history] = await db().execute<{ n: number; tickets: number }[]>(
      `select count(*)::int as n, (select count(*)::int from tickets t join contacts c on c.id = t.contact_id where c.number = any(?::text[])) as tickets
         from messages m join contacts c on c.id = m.chat_contact_id where c.number = any(?::text[]) and m.from_me and m.ticket_id is null`,
      [`{${sent.join(',')}}`, `{${sent.join(',')}}`],
    );
    expect(history).toEqual({ n: 3, tickets: 0 });
    // Pacing off: back to back, with no "typing…" step before each text.
    expect(await presences(id)).toEqual([null, null, null]);
  });

  it('makes every row at its start with its message id, keeps a window of them in the outbox, and sends each once', async () => {
    await settings(NO_PACING);
    const list = await listOf(10);
    const id = await dueCampaign(list.id);
    // The phone offline: nothing leaves, so nothing tops the window up while it is looked at.
    await t.app.channels.stop(wa.id);
    expect(await launchCampaign(depsOf(t), a.companyId, id, 'start')).toBe(10);
    const rows = await db().execute<{ wid: string; outbox_id: number | null; queued_wid: string | null; seq: number }[]>(
      `select s.wid, s.outbox_id, o.wid as queued_wid, s.seq from campaign_shipping s left join outbound_messages o on o.id = s.outbox_id
        where s.campaign_id = ? order by s.id`,
      [id],
    );
    expect(rows.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(new Set(rows.map((r) => r.wid)).size).toBe(10);
    // The first rows, in order, are in the outbox under the message id their row was made with.
    expect(rows.map((r) => r.outbox_id !== null)).toEqual(rows.map((_, i) => i < WINDOW));
    for (const r of rows.slice(0, WINDOW)) expect(r.queued_wid).toBe(r.wid);
    expect((await report(id)).pending).toBe(10);

    await t.app.channels.start({ id: wa.id, companyId: a.companyId, provider: 'sandbox' });
    const done = await finished(id);
    expect(done.counts).toMatchObject({ total: 10, sent: 10, pending: 0, failed: 0 });
    expect(await received(list.numbers)).toEqual(once(list.numbers));
    // Each went under the id its row was made with.
    const sent = await db().execute<{ same: boolean }[]>(
      `select s.wid = o.wid as same from campaign_shipping s join outbound_messages o on o.id = s.outbox_id where s.campaign_id = ?`,
      [id],
    );
    expect(sent.map((r) => r.same)).toEqual(Array(10).fill(true));
  });

  it('claims a campaign once, and queues each row once, when two schedulers (two server processes) race for it', async () => {
    const second = await startTestApp({ CAMPAIGN_OUTBOX_WINDOW: String(WINDOW) }, { sharedDatabaseUrl: t.app.config.databaseUrl! });
    try {
      const list = await listOf(12);
      const id = await dueCampaign(list.id);
      await Promise.all([sweepCampaigns(depsOf(t)), sweepCampaigns(depsOf(second)), launchCampaign(depsOf(second), a.companyId, id, 'start')]);
      // Both top the window up at once, while this process's own listener does as the first ones leave.
      await Promise.all([topUpCampaign(depsOf(t), a.companyId, id), topUpCampaign(depsOf(second), a.companyId, id), sweepCampaigns(depsOf(second))]);
      await finished(id);
      const [counts] = await db().execute<{ rows: number; outbox: number }[]>(
        `select (select count(*)::int from campaign_shipping where campaign_id = ?) as rows,
                (select count(*)::int from outbound_messages where source_kind = 'campaign' and source_id in (select id from campaign_shipping where campaign_id = ?)) as outbox`,
        [id, id],
      );
      expect(counts).toEqual({ rows: 12, outbox: 12 });
      expect(await received(list.numbers)).toEqual(once(list.numbers));
    } finally {
      await second.stop();
    }
  });

  it('starts an overdue campaign (its time long past, its job lost) at the next sweep', async () => {
    const list = await listOf(2);
    const id = await dueCampaign(list.id);
    await db().execute(`update campaigns set scheduled_at = now() - interval '3 hours' where id = ?`, [id]);
    await sweepCampaigns(depsOf(t));
    expect((await campaign(id)).status).not.toBe('PROGRAMADA');
    await finished(id);
    expect(await received(list.numbers)).toEqual(once(list.numbers));
  });

  it('fails a contact the network refuses, retries a transient error, and still finishes', async () => {
    const list = await listOf(3);
    const id = await dueCampaign(list.id);
    const session = t.app.channels.find(wa.id) as SandboxSession;
    // The first send: not a WhatsApp number (permanent); the second: a timeout (transient, retried).
    session.fault = { code: 'ERR_WAPP_INVALID_CONTACT', count: 1 };
    await launchCampaign(depsOf(t), a.companyId, id, 'start');
    await eventually(() => session.fault?.count === 0, 15_000);
    session.fault = { code: 'ERR_SENDING_WAPP_MSG', count: 1 };
    const done = await finished(id, 30_000);
    expect(done.counts).toMatchObject({ total: 3, sent: 2, failed: 1, pending: 0 });
    const failed = (await t.api.get(`/campaigns/${id}/shipping?status=failed`, a.admin.token)).body.records;
    expect(failed).toEqual([expect.objectContaining({ status: 'failed', error: 'ERR_WAPP_INVALID_CONTACT' })]);
    const got = await received(list.numbers);
    expect(Object.values(got).sort()).toEqual([0, 1, 1]);
  });

  // Paced sends (4 s apart, each after its "typing…") and a restart: a minute, not the default half, under load.
  it('pauses on cancel (nothing more leaves, rows stay pending) and restart sends the rest once, from now', async () => {
    await settings({ ...NO_PACING, messageInterval: 4 });
    const list = await listOf(4);
    const id = await dueCampaign(list.id);
    await launchCampaign(depsOf(t), a.companyId, id, 'start');
    // Paced: "typing…" before each text.
    expect(await presences(id)).toEqual(['composing', 'composing', 'composing', 'composing']);
    await eventually(async () => (await report(id)).sent >= 1, 10_000);
    expect((await t.api.post(`/campaigns/${id}/cancel`, {}, a.admin.token)).status).toBe(204);
    expect((await campaign(id)).status).toBe('CANCELADA');
    // Nothing of the campaign is left in the outbox to go: the pause holds.
    const [waiting] = await db().execute<{ n: number }[]>(
      `select count(*)::int as n from outbound_messages where source_kind = 'campaign' and status in ('pending', 'sending')
          and source_id in (select id from campaign_shipping where campaign_id = ?)`,
      [id],
    );
    expect(waiting.n).toBe(0);
    const paused = await report(id);
    expect(paused.sent + paused.pending).toBe(4);
    expect(paused.pending).toBeGreaterThanOrEqual(1);
    expectError(await t.api.post(`/campaigns/${id}/cancel`, {}, a.admin.token), 409, 'ERR_CAMPAIGN_STATUS');

    await settings(NO_PACING);
    // The phone offline while the campaign runs again: it stays running (nothing can leave) for the checks.
    await t.app.channels.stop(wa.id);
    expect((await t.api.post(`/campaigns/${id}/restart`, {}, a.admin.token)).status).toBe(204);
    expectError(await t.api.post(`/campaigns/${id}/restart`, {}, a.admin.token), 409, 'ERR_CAMPAIGN_STATUS');
    expectError(await t.api.del(`/campaigns/${id}`, a.admin.token), 409, 'ERR_CAMPAIGN_RUNNING');
    await t.app.channels.start({ id: wa.id, companyId: a.companyId, provider: 'sandbox' });
    const done = await finished(id, 30_000);
    expect(done.counts).toMatchObject({ total: 4, sent: 4, pending: 0 });
    expect(await received(list.numbers)).toEqual(once(list.numbers));
  }, 60_000);

  it('records delivery, read and reply per row; a reply opens the ticket as any message does', async () => {
    const list = await listOf(2);
    const id = await dueCampaign(list.id);
    await launchCampaign(depsOf(t), a.companyId, id, 'start');
    await finished(id);
    const rows = (await t.api.get(`/campaigns/${id}/shipping`, a.admin.token)).body.records as any[];
    const [first, second] = rows;
    const wid = async (shippingId: number) =>
      (await db().execute<{ wid: string }[]>(`select wid from campaign_shipping where id = ?`, [shippingId]))[0].wid;
    expect((await t.api.post(`/sandbox/${wa.id}/ack`, { id: await wid(first.id), ack: 2 }, a.admin.token)).status).toBeLessThan(300);
    await t.api.post(`/sandbox/${wa.id}/ack`, { id: await wid(second.id), ack: 3 }, a.admin.token);
    await t.api.post(`/sandbox/${wa.id}/messages`, { from: second.number, body: 'Quero saber mais' }, a.admin.token);
    const counts = await eventually(async () => {
      const r = await report(id);
      return r.delivered === 2 && r.read === 1 && r.replied === 1 ? r : false;
    }, 10_000);
    expect(counts).toMatchObject({ total: 2, sent: 2 });
    const replied = (await t.api.get(`/campaigns/${id}/shipping?status=replied`, a.admin.token)).body.records;
    expect(replied).toEqual([expect.objectContaining({ number: second.number, repliedAt: expect.any(String), readAt: expect.any(String) })]);
    const ticket = await eventually(async () => {
      const res = await t.api.get(`/tickets?showAll=true&searchParam=${second.number}`, a.admin.token);
      return res.body.tickets[0] ?? false;
    });
    expect(ticket.status).toBe('pending');

    const exported = await fetch(`${t.app.url}/campaigns/${id}/shipping/export?status=replied`, { headers: { authorization: `Bearer ${a.admin.token}` } });
    expect(exported.headers.get('content-type')).toContain('text/csv');
    const lines = (await exported.text()).replace(/^\ufeff/, '').split('\r\n');
    expect(lines[0]).toBe('"name";"number";"variant";"message";"status";"error";"plannedAt";"sentAt";"deliveredAt";"readAt";"repliedAt"');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"${second.number}"`);
  });

  it('announces progress at most once a second per campaign, with counts and status only', async () => {
    const socket = await connectSocket(t.app.url, a.admin.token);
    sockets.push(socket);
    const list = await listOf(25);
    const id = await dueCampaign(list.id);
    const heard: { at: number; payload: any }[] = [];
    socket.on(`company-${a.companyId}-campaign`, (payload) => payload.record?.id === id && heard.push({ at: Date.now(), payload }));
    await launchCampaign(depsOf(t), a.companyId, id, 'start');
    await finished(id);
    await eventually(() => heard.some((h) => !('name' in h.payload.record) && h.payload.record.counts.pending === 0));
    const progress = heard.filter((h) => !('name' in h.payload.record));
    expect(progress.length).toBeGreaterThanOrEqual(1);
    for (const h of progress) expect(Object.keys(h.payload.record).sort()).toEqual(['completedAt', 'counts', 'id', 'status']);
    for (let i = 1; i < progress.length; i++) expect(progress[i].at - progress[i - 1].at).toBeGreaterThanOrEqual(900);
    // The status change itself (FINALIZADA) comes as the whole record (it is said after the status is stored).
    await eventually(() => heard.some((h) => h.payload.record.name && h.payload.record.status === 'FINALIZADA'));
  });

  // Six paced sends about two seconds apart (the gap after each "typing…"): a minute under load.
  it('interleaves two campaigns on one number at the connection pace instead of doubling it', async () => {
    await settings({ ...NO_PACING, messageInterval: 1 });
    const one = await listOf(3);
    const two = await listOf(3);
    const first = await dueCampaign(one.id);
    const second = await dueCampaign(two.id);
    await Promise.all([launchCampaign(depsOf(t), a.companyId, first, 'start'), launchCampaign(depsOf(t), a.companyId, second, 'start')]);
    await finished(first, 30_000);
    await finished(second, 30_000);
    // When the gate let each row's "typing…" go (its claim's time: the message was planned that claim's time
    // plus the typing's pause). Not sent_at: under load, a message sent late comes close to the next one,
    // which its gate still held back the gap.
    const times = await db().execute<{ gap_ms: number | null; campaign_id: number }[]>(
      `select extract(epoch from taken_at - lag(taken_at) over (order by taken_at)) * 1000 as gap_ms, campaign_id
         from (select o.planned_at - make_interval(secs => o.presence_ms / 1000.0) as taken_at, s.campaign_id
                 from campaign_shipping s join outbound_messages o on o.id = s.outbox_id
                where s.campaign_id in (?, ?) and o.presence_sent) taken
        order by taken_at`,
      [first, second],
    );
    expect(times).toHaveLength(6);
    // One gate for the number: consecutive "typing…" at least 700 ms apart (the 1 s gap spread ±30%; counted
    // by the database, to the microsecond), whichever campaign; two gates would let pairs go at once.
    for (const { gap_ms } of times.slice(1)) expect(Number(gap_ms)).toBeGreaterThanOrEqual(700);
    // Taking turns: neither campaign sends all of its rows before the other starts.
    expect(new Set(times.slice(0, 3).map((r) => r.campaign_id)).size).toBe(2);
    await settings(NO_PACING);
  }, 60_000);
});
