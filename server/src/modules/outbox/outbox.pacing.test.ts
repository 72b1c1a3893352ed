import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forCompany, forSystem } from '../../db/tenant.js';
import { connectSandbox, outbox } from '../../../testing/conversation.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { applyPacing, queueBulk, queueToNumber, type PacingPolicy } from './index.js';

/**
 * Pacing is the outbox's: a connection's paced rows pass one gate when the sender takes them, whatever
 * their planned time or their caller. The gaps here are a minute long, so a closed gate stays closed for
 * the whole test; "time passing" is the test opening the gate (next_at = now) and waking the lane, and
 * what the lane did is read once it is idle — no test waits for a gap.
 */
let t: TestApp;
let a: Tenant;
let seq = 0;

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'Pacing');
});
afterAll(async () => {
  await t?.stop();
});

const em = () => forCompany(t.app.orm.em.fork(), a.companyId);
const sql = <T = any>(query: string, params: unknown[] = []) => forSystem(t.app.orm.em).execute<T[]>(query, params);
const deps = () => ({ media: t.app.media, events: t.app.events });
const MINUTE = 60_000;

const numbers = (n: number) => Array.from({ length: n }, () => `55117${String(++seq).padStart(8, '0')}`);
const rows = (n: number, label: string) => numbers(n).map((number, i) => ({ number, body: `${label} ${i}` }));

const statusOf = async (wids: string[]) => {
  const found = await sql<{ wid: string; status: string }>(`select wid, status from outbound_messages where wid = any(?::text[])`, [`{${wids.join(',')}}`]);
  const by = new Map(found.map((r) => [r.wid, r.status]));
  return wids.map((w) => by.get(w));
};
const gateOf = async (whatsappId: number) =>
  (
    await sql<{ gap_ms: number; streak: number; day_count: number; today: boolean }>(
      `select (extract(epoch from next_at - last_at) * 1000)::float8 as gap_ms, streak, day_count,
              day = (now() at time zone co.timezone)::date as today
         from outbox_pacing_state g join companies co on co.id = g.company_id where g.whatsapp_id = ?`,
      [whatsappId],
    )
  )[0];
/** What the lane did once it has nothing left to try now. */
const settle = async (whatsappId: number) => {
  await t.app.outbox.idle(whatsappId);
};
/** The gap has passed: the gate opens and the lane looks again. */
const gapPasses = async (whatsappId: number) => {
  await sql(`update outbox_pacing_state set next_at = now() where whatsapp_id = ?`, [whatsappId]);
  t.app.outbox.kick(whatsappId);
  await settle(whatsappId);
};
const phoneOrder = async (whatsappId: number) => (await outbox(t.api, a.admin.token, whatsappId)).map((m) => m.id);

describe('a pacing policy', () => {
  it('spaces a connection’s paced sends by its gap, spread ±30% at random', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    const pacing: PacingPolicy = { name: 'campaigns', gapMs: MINUTE };
    const { queued } = await queueBulk(deps(), em(), { whatsappId: wa.id, pacing, rows: rows(10, 'espaçada') });
    const wids = queued.map((q) => q.wid);
    await eventually(async () => (await statusOf(wids))[0] === 'sent');
    await settle(wa.id);
    // One went; the gate holds the rest for a gap.
    expect(await statusOf(wids)).toEqual(['sent', ...Array(9).fill('pending')]);
    const gaps = [(await gateOf(wa.id)).gap_ms];
    for (let i = 1; i < 10; i++) {
      await gapPasses(wa.id);
      expect((await statusOf(wids)).filter((s) => s === 'sent')).toHaveLength(i + 1);
      gaps.push((await gateOf(wa.id)).gap_ms);
    }
    expect(await phoneOrder(wa.id)).toEqual(wids);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(0.7 * MINUTE);
      expect(gap).toBeLessThanOrEqual(1.3 * MINUTE);
    }
    // Spread: not one fixed gap.
    expect(new Set(gaps.map((g) => Math.round(g))).size).toBeGreaterThan(1);
  });

  it('takes a longer gap every N sends; 0 turns the plain gap off', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    const pacing: PacingPolicy = { name: 'campaigns', gapMs: 0, longGapEvery: 3, longGapMs: MINUTE };
    const { queued } = await queueBulk(deps(), em(), { whatsappId: wa.id, pacing, rows: rows(5, 'em lotes') });
    const wids = queued.map((q) => q.wid);
    await eventually(async () => (await statusOf(wids))[2] === 'sent');
    await settle(wa.id);
    expect(await statusOf(wids)).toEqual(['sent', 'sent', 'sent', 'pending', 'pending']);
    const gate = await gateOf(wa.id);
    expect(gate.gap_ms).toBeGreaterThanOrEqual(0.7 * MINUTE);
    expect(gate.streak).toBe(0);
    await gapPasses(wa.id);
    expect(await statusOf(wids)).toEqual(Array(5).fill('sent'));
  });

  it('two campaigns on one number take turns through one gate: the number’s rate never doubles', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    await t.app.channels.stop(wa.id);
    const first = await queueBulk(deps(), em(), { whatsappId: wa.id, pacing: { name: 'campaign-a', gapMs: MINUTE }, rows: rows(3, 'A') });
    const second = await queueBulk(deps(), em(), { whatsappId: wa.id, pacing: { name: 'campaign-b', gapMs: MINUTE }, rows: rows(3, 'B') });
    await t.app.channels.start({ id: wa.id, companyId: a.companyId, provider: 'sandbox' });
    const all = [...first.queued, ...second.queued].map((q) => q.wid);
    await eventually(async () => (await statusOf(all)).includes('sent'));
    await settle(wa.id);
    expect((await statusOf(all)).filter((s) => s === 'sent')).toHaveLength(1);
    for (let opened = 2; opened <= 6; opened++) {
      await gapPasses(wa.id);
      // One send per opening of the gate, whichever campaign it is.
      expect((await statusOf(all)).filter((s) => s === 'sent')).toHaveLength(opened);
    }
    const [a0, a1, a2] = first.queued.map((q) => q.wid);
    const [b0, b1, b2] = second.queued.map((q) => q.wid);
    expect(await phoneOrder(wa.id)).toEqual([a0, b0, a1, b1, a2, b2]);
  });

  it('after an outage, overdue paced rows still go one gap apart, not back to back', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    await t.app.channels.stop(wa.id);
    const anHourAgo = new Date(Date.now() - 3_600_000);
    const { queued } = await queueBulk(deps(), em(), {
      whatsappId: wa.id,
      pacing: { name: 'campaigns', gapMs: MINUTE },
      plannedAt: anHourAgo,
      rows: rows(3, 'atrasada'),
    });
    const wids = queued.map((q) => q.wid);
    await t.app.channels.start({ id: wa.id, companyId: a.companyId, provider: 'sandbox' });
    await eventually(async () => (await statusOf(wids))[0] === 'sent');
    await settle(wa.id);
    expect(await statusOf(wids)).toEqual(['sent', 'pending', 'pending']);
  });

  it('paces any caller that names a policy (a single send to a number), and never holds a conversation’s reply', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    const pacing: PacingPolicy = { name: 'api', gapMs: MINUTE };
    const [n1, n2, n3] = numbers(3);
    const one = await queueToNumber(deps(), em(), { whatsappId: wa.id, number: n1, body: 'api 1', pacing, priority: 'bulk', source: { kind: 'api', id: 1 } });
    const two = await queueToNumber(deps(), em(), { whatsappId: wa.id, number: n2, body: 'api 2', pacing, priority: 'bulk', source: { kind: 'api', id: 2 } });
    await eventually(async () => (await statusOf([one.message.wid!]))[0] === 'sent');
    await settle(wa.id);
    expect(await statusOf([two.message.wid!])).toEqual(['pending']);
    // Not paced: goes while the gate is closed.
    const reply = await queueToNumber(deps(), em(), { whatsappId: wa.id, number: n3, body: 'resposta' });
    await eventually(async () => (await statusOf([reply.message.wid!]))[0] === 'sent');
    await settle(wa.id);
    expect(await statusOf([two.message.wid!])).toEqual(['pending']);
  });

  it('stops at its daily cap (the company’s day) and goes on the next day', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    const { queued } = await queueBulk(deps(), em(), { whatsappId: wa.id, pacing: { name: 'campaigns', gapMs: 0, dailyCap: 2 }, rows: rows(3, 'limitada') });
    const wids = queued.map((q) => q.wid);
    await eventually(async () => (await statusOf(wids))[1] === 'sent');
    await settle(wa.id);
    expect(await statusOf(wids)).toEqual(['sent', 'sent', 'pending']);
    expect(await gateOf(wa.id)).toMatchObject({ day_count: 2, today: true });
    // Midnight passes (the count is of a day gone).
    await sql(`update outbox_pacing_state set day = day - 1 where whatsapp_id = ?`, [wa.id]);
    t.app.outbox.kick(wa.id);
    await settle(wa.id);
    expect(await statusOf(wids)).toEqual(['sent', 'sent', 'sent']);
    expect(await gateOf(wa.id)).toMatchObject({ day_count: 1, today: true });
  });

  it('sends only inside its window (the company’s time zone, across midnight too)', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    const [{ now }] = await sql<{ now: number }>(
      `select (extract(hour from now() at time zone timezone) * 60 + extract(minute from now() at time zone timezone))::int as now from companies where id = ?`,
      [a.companyId],
    );
    const at = (minutes: number) => {
      const m = (((now + minutes) % 1440) + 1440) % 1440;
      return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    };
    const later = { name: 'campaigns', gapMs: MINUTE, window: { from: at(120), to: at(180) } };
    const { queued } = await queueBulk(deps(), em(), { whatsappId: wa.id, pacing: later, rows: rows(2, 'na janela') });
    const wids = queued.map((q) => q.wid);
    await settle(wa.id);
    expect(await statusOf(wids)).toEqual(['pending', 'pending']);
    // The campaign's settings change to a window around now (wrapping midnight): the waiting rows follow them.
    await queueBulk(deps(), em(), { whatsappId: wa.id, pacing: { ...later, window: { from: at(-60), to: at(-120) } }, rows: [] });
    t.app.outbox.kick(wa.id);
    await settle(wa.id);
    expect(await statusOf(wids)).toEqual(['sent', 'pending']);
  });

  it('refuses settings that are not whole numbers of 0 or more, or times that are not HH:MM', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    const row = rows(1, 'x');
    await expect(queueBulk(deps(), em(), { whatsappId: wa.id, pacing: { name: 'bad', gapMs: -1 }, rows: row })).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    await expect(
      queueBulk(deps(), em(), { whatsappId: wa.id, pacing: { name: 'bad', gapMs: 1, window: { from: '25:00', to: '08:00' } }, rows: row }),
    ).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    expect(await sql(`select count(*)::int as n from outbound_messages where whatsapp_id = ?`, [wa.id])).toEqual([{ n: 0 }]);
  });

  it('is a policy of the company’s own connection: another company’s cannot be set', async () => {
    const other = await createTenant(t, 'PacingOther');
    const theirs = await connectSandbox(t.api, other.admin.token);
    await applyPacing(forCompany(t.app.orm.em.fork(), other.companyId), theirs.id, { name: 'campaigns', gapMs: 5_000 });
    await expect(applyPacing(em(), theirs.id, { name: 'campaigns', gapMs: 0 })).rejects.toMatchObject({ code: 'ERR_NO_WAPP_FOUND' });
    expect(await sql(`select company_id, gap_ms from outbox_pacing where whatsapp_id = ?`, [theirs.id])).toEqual([{ company_id: other.companyId, gap_ms: 5_000 }]);
  });
});
