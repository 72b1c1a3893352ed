import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forCompany, forSystem } from '../../db/tenant.js';
import { connectSandbox, outbox, ticketOf } from '../../../testing/conversation.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { applyPacing, queueBulk, withdrawQueued, type BulkRow } from './index.js';

/**
 * queueBulk: what a campaign (or a bulk API call) writes, a chunk of outbox rows per statement instead of a
 * contact upsert, a message and a flush per row; each row's contact and history copy come when it settles.
 */
let t: TestApp;
let a: Tenant;
let seq = 0;

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'Bulk');
});
afterAll(async () => {
  await t?.stop();
});

const em = () => forCompany(t.app.orm.em.fork(), a.companyId);
const sql = <T = any>(query: string, params: unknown[] = []) => forSystem(t.app.orm.em).execute<T[]>(query, params);
const deps = () => ({ media: t.app.media, events: t.app.events });
const number = () => `55116${String(++seq).padStart(8, '0')}`;

/** Counts the statements sent to PostgreSQL while `work` runs. */
const statementsOf = async <T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> => {
  const knex = t.app.orm.em.getConnection().getKnex();
  let statements = 0;
  const count = () => {
    statements += 1;
  };
  knex.on('query', count);
  try {
    const result = await work();
    return { result, statements };
  } finally {
    knex.off('query', count);
  }
};

describe('queueBulk', () => {
  it('writes 2,500 rows in a statement per 2,000: the outbox rows only; contacts and history copies come as each row settles', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    // Nothing leaves yet: the rows are read as written.
    await t.app.channels.stop(wa.id);
    const typed = number();
    const placeholder = number();
    const repeated = number();
    const known: Record<string, number> = {};
    for (const [name, n] of [
      ['Joana (nome do agente)', typed],
      [placeholder, placeholder],
    ]) {
      const created = await t.api.post('/contacts', { name, number: n }, a.admin.token);
      expect(created.status).toBe(201);
      known[n] = created.body.id;
    }
    const contactsBefore = (await sql<{ n: number }>(`select count(*)::int as n from contacts where company_id = ?`, [a.companyId]))[0].n;
    const rows: BulkRow[] = [
      { number: typed, name: 'Joana da lista', body: 'Olá Joana', source: { kind: 'campaign', id: 9001 } },
      { number: placeholder, name: 'Pedro da lista', body: 'Olá Pedro', source: { kind: 'campaign', id: 9002 } },
      { number: 'sem número', body: 'nunca', source: { kind: 'campaign', id: 9003 } },
      { number: `+${repeated.slice(0, 2)} (${repeated.slice(2, 4)}) ${repeated.slice(4)}`, name: 'Rita', body: 'primeira', source: { kind: 'campaign', id: 9004 } },
      { number: repeated, name: 'Rita', body: 'segunda', source: { kind: 'campaign', id: 9005 } },
      ...Array.from({ length: 2495 }, (_, i) => ({ number: number(), name: `Cliente ${i}`, body: `Promoção ${i}`, source: { kind: 'campaign' as const, id: 10_000 + i } })),
    ];
    const { result, statements } = await statementsOf(() =>
      queueBulk(deps(), em(), { whatsappId: wa.id, rows, pacing: { name: 'campaigns', gapMs: 20_000, longGapEvery: 20, longGapMs: 60_000 } }),
    );
    // The connection check, the transaction, the policy and two chunks: not three statements a row.
    expect(statements).toBeGreaterThanOrEqual(3);
    expect(statements).toBeLessThanOrEqual(10);
    expect(result.invalid).toEqual([2]);
    expect(result.queued).toHaveLength(2499);
    expect(result.queued.map((q) => q.index)).toEqual([0, 1, ...Array.from({ length: 2497 }, (_, i) => i + 3)]);
    // A known number's rows are its contact's chat; a new number's, its own until its contact exists.
    expect(result.queued.slice(0, 2).map((q) => q.contactId)).toEqual([known[typed], known[placeholder]]);
    expect(result.queued[2].contactId).toBeNull();

    const written = await sql<Record<string, unknown>>(
      `select o.to_number, o.to_name, o.body, o.status, o.priority, o.bulk_seq, o.source_kind, o.source_id, o.ticket_id, o.message_id, o.chat_key,
              p.name as pacing
         from outbound_messages o left join outbox_pacing p on p.id = o.pacing_id
        where o.whatsapp_id = ? order by o.bulk_seq`,
      [wa.id],
    );
    expect(written).toHaveLength(2499);
    expect(written.slice(0, 4)).toEqual([
      expect.objectContaining({ to_number: typed, to_name: 'Joana da lista', body: 'Olá Joana', bulk_seq: 0, source_id: 9001, chat_key: `c:${known[typed]}` }),
      expect.objectContaining({ to_number: placeholder, body: 'Olá Pedro', bulk_seq: 1, source_id: 9002, chat_key: `c:${known[placeholder]}` }),
      expect.objectContaining({ to_number: repeated, body: 'primeira', bulk_seq: 3, source_id: 9004, chat_key: `n:${repeated}` }),
      expect.objectContaining({ to_number: repeated, body: 'segunda', bulk_seq: 4, source_id: 9005, chat_key: `n:${repeated}` }),
    ]);
    for (const row of written) {
      expect(row).toMatchObject({ status: 'pending', priority: 1, source_kind: 'campaign', ticket_id: null, message_id: null, pacing: 'campaigns' });
    }
    expect(await sql(`select gap_ms, long_gap_every, long_gap_ms from outbox_pacing where whatsapp_id = ?`, [wa.id])).toEqual([
      { gap_ms: 20_000, long_gap_every: 20, long_gap_ms: 60_000 },
    ]);
    // Nothing else was written: no contact, no message yet.
    expect(await sql(`select count(*)::int as n from contacts where company_id = ?`, [a.companyId])).toEqual([{ n: contactsBefore }]);
    expect(await sql(`select count(*)::int as n from messages where whatsapp_id = ?`, [wa.id])).toEqual([{ n: 0 }]);

    // The first rows sent (the others withdrawn, and pacing off, not to wait 20 s a row): each row's contact
    // found or created and its copy kept in its history.
    expect(await withdrawQueued(em(), result.queued.slice(4).map((q) => q.outboxId))).toHaveLength(2495);
    await applyPacing(em(), wa.id, { name: 'campaigns', gapMs: 0 });
    await t.app.channels.start({ id: wa.id, companyId: a.companyId, provider: 'sandbox' });
    await eventually(async () => expect(await sql(`select count(*)::int as n from outbound_messages where whatsapp_id = ? and status = 'sent'`, [wa.id])).toEqual([{ n: 4 }]));
    const contacts = await sql<{ number: string; name: string; n: number }>(
      `select number, name, count(*) over (partition by number)::int as n from contacts where company_id = ? and number = any(?::text[])`,
      [a.companyId, `{${[typed, placeholder, repeated].join(',')}}`],
    );
    expect(contacts).toEqual(
      expect.arrayContaining([
        // A name an agent typed stays; a placeholder gives way to the list's.
        { number: typed, name: 'Joana (nome do agente)', n: 1 },
        { number: placeholder, name: 'Pedro da lista', n: 1 },
        { number: repeated, name: 'Rita', n: 1 },
      ]),
    );
    expect(await sql(`select count(*)::int as n from contacts where company_id = ?`, [a.companyId])).toEqual([{ n: contactsBefore + 1 }]);
    const copies = await sql<Record<string, unknown>>(
      `select o.to_number, o.contact_id = m.chat_contact_id as linked, m.ticket_id as message_ticket, m.from_me, m.ack, m.body = o.body as same_body,
              c.number as history_of
         from outbound_messages o join messages m on m.id = o.message_id join contacts c on c.id = m.chat_contact_id
        where o.whatsapp_id = ? order by o.bulk_seq`,
      [wa.id],
    );
    expect(copies.map((c) => c.to_number)).toEqual([typed, placeholder, repeated, repeated]);
    for (const row of copies) {
      expect(row).toMatchObject({ linked: true, message_ticket: null, from_me: true, ack: 1, same_body: true, history_of: row.to_number });
    }
    // No ticket opens for a campaign's message.
    expect(await sql(`select count(*)::int as n from tickets where whatsapp_id = ?`, [wa.id])).toEqual([{ n: 0 }]);
  });

  it('every row reaches its phone once, a number’s two rows in their order; an answer opens a ticket with both in its history', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    const repeated = number();
    const rows: BulkRow[] = [
      { number: repeated, name: 'Ana', body: 'primeira' },
      ...Array.from({ length: 20 }, (_, i) => ({ number: number(), body: `lote ${i}` })),
      { number: repeated, body: 'segunda' },
    ];
    const { queued } = await queueBulk(deps(), em(), { whatsappId: wa.id, rows });
    await eventually(async () => expect((await outbox(t.api, a.admin.token, wa.id)).length).toBe(22));
    // Rows of other chats may overlap (a lane has a few sends in flight); a chat's go one after the other.
    const onPhone = (await outbox(t.api, a.admin.token, wa.id)).map((m) => m.id);
    expect([...onPhone].sort()).toEqual(queued.map((q) => q.wid).sort());
    expect(onPhone.indexOf(queued[0].wid)).toBeLessThan(onPhone.indexOf(queued[21].wid));

    const answer = await t.api.post(`/sandbox/${wa.id}/messages`, { from: repeated, body: 'Quero saber mais' }, a.admin.token);
    expect(answer.status).toBe(201);
    const ticket = await eventually(() => ticketOf(t.api, a.admin.token, repeated));
    const history = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages as { body: string; fromMe: boolean }[];
    expect(history.map((m) => [m.body, m.fromMe])).toEqual([
      ['primeira', true],
      ['segunda', true],
      ['Quero saber mais', false],
    ]);
  });

  it('is for the company’s own connections', async () => {
    const other = await createTenant(t, 'BulkOther');
    const theirs = await connectSandbox(t.api, other.admin.token);
    await expect(queueBulk(deps(), em(), { whatsappId: theirs.id, rows: [{ number: number(), body: 'x' }] })).rejects.toMatchObject({ code: 'ERR_NO_WAPP_FOUND' });
    expect(await sql(`select count(*)::int as n from outbound_messages where whatsapp_id = ?`, [theirs.id])).toEqual([{ n: 0 }]);
  });
});
