import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthStore } from '../../channels/auth-store.js';
import { ChannelManager } from '../../channels/manager.js';
import { createSandboxProvider, type SandboxSession } from '../../channels/sandbox/sandbox.provider.js';
import type { ChannelEvents, OutboundText } from '../../channels/types.js';
import { forCompany, forSystem } from '../../db/tenant.js';
import type { DomainEvents } from '../../events/bus.js';
import { connectSandbox } from '../../../testing/conversation.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { queueBulk, type BulkRow } from './index.js';
import { LANE_BATCH, OutboxSender } from './outbox.sender.js';

/**
 * The sender's batches: a lane claims many due rows in one statement and settles their outcomes in one
 * statement. Each row still settles by its own outcome, a chat's rows still leave in order, and a batch cut
 * off between its claim and its settle is settled by the message ids, each message on the phone once.
 */
let t: TestApp;
let a: Tenant;
let seq = 0;
const heard: DomainEvents['outbox.settled'][] = [];

beforeAll(async () => {
  t = await startTestApp();
  t.app.events.on('outbox.settled', (e) => {
    heard.push(e);
  });
  a = await createTenant(t, 'Batch');
});
afterAll(async () => {
  await t?.stop();
});

const em = () => forCompany(t.app.orm.em.fork(), a.companyId);
const sql = <T = any>(query: string, params: unknown[] = []) => forSystem(t.app.orm.em).execute<T[]>(query, params);
const deps = () => ({ media: t.app.media, events: t.app.events });
const number = () => `55117${String(++seq).padStart(8, '0')}`;

interface Settled {
  wid: string;
  status: string;
  attempts: number;
  last_error: string | null;
  /** When its settle ran (seconds, to the microsecond): one statement, one time. */
  settled_at: number | null;
  ack: number | null;
  send_error: string | null;
}
/** The rows of these ids with their history copy, in the order given. */
const rowsOf = async (wids: string[]): Promise<Settled[]> => {
  const rows = await sql<Settled>(
    `select o.wid, o.status, o.attempts, o.last_error, extract(epoch from coalesce(o.sent_at, o.failed_at))::float8 as settled_at, m.ack, m.send_error
       from outbound_messages o left join messages m on m.id = o.message_id where o.wid = any(?::text[])`,
    [`{${wids.join(',')}}`],
  );
  return wids.map((wid) => rows.find((r) => r.wid === wid)!);
};
/** What the phone received of these ids, in the order it received them, with how often each came. */
const onPhone = (whatsappId: number) =>
  sql<{ wid: string; to: string; deliveries: number }>(`select wid, "to", deliveries from sandbox_outbox where whatsapp_id = ? order by id`, [whatsappId]);

/** A connection whose rows are written while it is down: the first claim then finds them all due. */
const queuedWhileDown = async (rows: BulkRow[]) => {
  const wa = await connectSandbox(t.api, a.admin.token);
  await t.app.channels.stop(wa.id);
  const { queued } = await queueBulk(deps(), em(), { whatsappId: wa.id, rows });
  return { whatsappId: wa.id, wids: queued.map((q) => q.wid) };
};
const startHere = (whatsappId: number) => t.app.channels.start({ id: whatsappId, companyId: a.companyId, provider: 'sandbox' });

describe('a batch', () => {
  it('where one send fails for good and one for now, settles each by its own outcome', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ number: number(), body: `lote ${i}`, source: { kind: 'api' as const, id: 7000 + i } }));
    const { whatsappId, wids } = await queuedWhileDown(rows);
    await startHere(whatsappId);
    const phone = t.app.channels.find(whatsappId) as SandboxSession;
    // The phone refuses the first send of the batch (not on WhatsApp) and the next one fails in transit.
    phone.fault = { code: 'ERR_WAPP_INVALID_CONTACT', count: 1 };
    const refuse = phone.sendText.bind(phone);
    let calls = 0;
    phone.sendText = (message: OutboundText) => {
      calls += 1;
      if (calls === 2) phone.fault = { code: 'ERR_SENDING_WAPP_MSG', count: 1 };
      return refuse(message);
    };
    t.app.outbox.kick(whatsappId);

    const settled = await eventually(async () => {
      const now = await rowsOf(wids);
      expect(now.filter((r) => r.status === 'sent')).toHaveLength(10);
      expect(now.filter((r) => r.status === 'failed')).toHaveLength(1);
      expect(now.filter((r) => r.status === 'pending')).toHaveLength(1);
      return now;
    });
    // One claim and one settle: the ten sent and the failed one share the settle's time.
    const batch = settled.filter((r) => r.status !== 'pending');
    expect(new Set(batch.map((r) => r.settled_at!)).size).toBe(1);
    expect(settled.find((r) => r.status === 'failed')).toMatchObject({ attempts: 1, last_error: 'ERR_WAPP_INVALID_CONTACT', ack: 0, send_error: 'ERR_WAPP_INVALID_CONTACT' });
    // The transient one waits its backoff, its copy still waiting, then goes once.
    const retried = settled.find((r) => r.status === 'pending')!;
    expect(retried).toMatchObject({ attempts: 1, last_error: 'ERR_SENDING_WAPP_MSG', ack: null });
    for (const row of settled.filter((r) => r.status === 'sent')) expect(row).toMatchObject({ attempts: 1, ack: 1, send_error: null, last_error: null });
    await eventually(async () => expect((await rowsOf([retried.wid]))[0]).toMatchObject({ status: 'sent', attempts: 2, ack: 1 }), 15_000);

    const phoneGot = await onPhone(whatsappId);
    const failed = settled.find((r) => r.status === 'failed')!.wid;
    expect(phoneGot.map((m) => m.wid).sort()).toEqual(wids.filter((w) => w !== failed).sort());
    expect(phoneGot.every((m) => m.deliveries === 1)).toBe(true);
    // Each outcome announced once, with its own status.
    for (const wid of wids) expect(heard.filter((e) => e.wid === wid).map((e) => e.status)).toEqual([wid === failed ? 'failed' : 'sent']);
  });

  it('keeps each chat’s order: a chat’s next row waits for the batch that took its last one', async () => {
    const [first, second] = [number(), number()];
    const rows: BulkRow[] = [
      { number: first, body: 'A1' },
      { number: second, body: 'B1' },
      ...Array.from({ length: 10 }, (_, i) => ({ number: number(), body: `outro ${i}` })),
      { number: first, body: 'A2' },
      { number: second, body: 'B2' },
      { number: first, body: 'A3' },
      ...Array.from({ length: 10 }, (_, i) => ({ number: number(), body: `mais ${i}` })),
    ];
    const { whatsappId, wids } = await queuedWhileDown(rows);
    await startHere(whatsappId);
    // Settled, not only on the phone (it has a message a moment before its row says so).
    await eventually(async () => expect((await rowsOf(wids)).every((r) => r.status === 'sent')).toBe(true));
    const widOf = (body: string) => wids[rows.findIndex((r) => r.body === body)];
    const order = (await onPhone(whatsappId)).map((m) => m.wid);
    const at = (body: string) => order.indexOf(widOf(body));
    expect(at('A1')).toBeLessThan(at('A2'));
    expect(at('A2')).toBeLessThan(at('A3'));
    expect(at('B1')).toBeLessThan(at('B2'));
    // Never two of a chat in one batch: each settled by a later statement than the one before it.
    const [a1, a2, a3, b1, b2] = await rowsOf(['A1', 'A2', 'A3', 'B1', 'B2'].map(widOf));
    expect(a1.settled_at!).toBeLessThan(a2.settled_at!);
    expect(a2.settled_at!).toBeLessThan(a3.settled_at!);
    expect(b1.settled_at!).toBeLessThan(b2.settled_at!);
    // And the others went many at a claim: the first batch took every chat's first row.
    const firstBatch = (await rowsOf(wids)).filter((r) => r.settled_at! === a1.settled_at!);
    expect(firstBatch.length).toBe(Math.min(LANE_BATCH, 22));
  });

  it('whose settle fails (a database error) is settled at the lane’s next run: each message once, none left sending', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => ({ number: number(), body: `tropeço ${i}`, source: { kind: 'api' as const, id: 9000 + i } }));
    const { whatsappId, wids } = await queuedWhileDown(rows);
    // The first settle of this connection's rows fails: a real error from the database (a sequence is not
    // rolled back with the statement, so only the first one fails).
    const blip = `outbox_blip_${whatsappId}`;
    await sql(`create sequence ${blip}`);
    await sql(
      `create function ${blip}() returns trigger language plpgsql as $$ begin if nextval('${blip}') = 1 then raise exception 'blip'; end if; return new; end $$`,
    );
    await sql(
      `create trigger ${blip} before update on outbound_messages for each row
         when (old.whatsapp_id = ${whatsappId} and old.status = 'sending' and new.status <> 'sending') execute function ${blip}()`,
    );
    try {
      await startHere(whatsappId);
      t.app.outbox.kick(whatsappId);
      // The batch reached the phone and its settle failed: the lane stopped with the rows still sending.
      await eventually(async () => expect(await onPhone(whatsappId)).toHaveLength(6));
      await eventually(async () => expect(await sql(`select last_value from ${blip}`)).toEqual([{ last_value: '1' }]));
      await t.app.outbox.idle(whatsappId);
      expect((await rowsOf(wids)).map((r) => r.status)).toEqual(Array(6).fill('sending'));

      // The next run (the sweep wakes a lane with rows sending) settles them by their ids: sent, none again.
      t.app.outbox.kick(whatsappId);
      await eventually(async () => expect((await rowsOf(wids)).every((r) => r.status === 'sent')).toBe(true));
    } finally {
      await sql(`drop trigger ${blip} on outbound_messages`);
      await sql(`drop function ${blip}()`);
      await sql(`drop sequence ${blip}`);
    }
    const phoneGot = await onPhone(whatsappId);
    expect(phoneGot.map((m) => m.wid).sort()).toEqual([...wids].sort());
    expect(phoneGot.every((m) => m.deliveries === 1)).toBe(true);
  });

  it('cut off between its claim and its settle (the process died) is settled by the message ids: each message once', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ number: number(), name: `Cliente ${i}`, body: `cortado ${i}`, source: { kind: 'campaign' as const, id: 8000 + i } }));
    const { whatsappId, wids } = await queuedWhileDown(rows);
    // Another server process runs the connection and dies mid-batch: half of its sends reached the phone,
    // none came back (no settle ever runs).
    const systemEm = () => forSystem(t.app.orm.em);
    const quiet: ChannelEvents = { qr() {}, status() {}, async message() {}, async messageUpdate() {}, async contactUpdate() {} };
    const channels = new ChannelManager(
      { sandbox: createSandboxProvider(systemEm) },
      { events: () => quiet, auth: (c) => createAuthStore(systemEm, c.companyId, c.id), logger: t.app.logger },
    );
    const dying = new OutboxSender({ systemEm, channels, media: t.app.media, events: t.app.events, logger: t.app.logger });
    await channels.start({ id: whatsappId, companyId: a.companyId, provider: 'sandbox' });
    const session = channels.find(whatsappId) as SandboxSession;
    const deliver = session.sendText.bind(session);
    let sends = 0;
    session.sendText = async (message: OutboundText) => {
      if (sends++ % 2 === 0) await deliver(message);
      return new Promise(() => {});
    };
    dying.kick(whatsappId);
    await eventually(async () => expect((await rowsOf(wids)).every((r) => r.status === 'sending')).toBe(true));
    await eventually(async () => expect(await onPhone(whatsappId)).toHaveLength(5));
    expect(await sql(`select count(*)::int as n from messages where wid = any(?::text[])`, [`{${wids.join(',')}}`])).toEqual([{ n: 0 }]);

    // The connection starts again here: the cut-off batch is settled first, the missing half goes once.
    await startHere(whatsappId);
    t.app.outbox.kick(whatsappId);
    await eventually(async () => expect((await rowsOf(wids)).every((r) => r.status === 'sent' && r.ack === 1)).toBe(true));
    const phoneGot = await onPhone(whatsappId);
    expect(phoneGot.map((m) => m.wid).sort()).toEqual([...wids].sort());
    expect(phoneGot.every((m) => m.deliveries === 1)).toBe(true);
    // Each contact and history copy written once, as the rows settled.
    const copies = await sql<{ n: number; contacts: number }>(
      `select count(*)::int as n, count(distinct chat_contact_id)::int as contacts from messages where wid = any(?::text[])`,
      [`{${wids.join(',')}}`],
    );
    expect(copies).toEqual([{ n: 10, contacts: 10 }]);
    for (const wid of wids) expect(heard.filter((e) => e.wid === wid).map((e) => e.status)).toEqual(['sent']);
  });
});
