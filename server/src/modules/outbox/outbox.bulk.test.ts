import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forCompany, forSystem } from '../../db/tenant.js';
import { connectSandbox, outbox, ticketOf } from '../../../testing/conversation.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { queueBulk, type BulkRow } from './index.js';

/**
 * queueBulk: what a campaign (or a bulk API call) writes, a chunk of rows per statement instead of a
 * contact upsert, a message and a flush per row.
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
  it('writes 2,500 rows in a statement per 1,000: contacts found or created, each message in its contact’s history, the outbox rows', async () => {
    const wa = await connectSandbox(t.api, a.admin.token);
    // Nothing leaves: the rows are read as written.
    await t.app.channels.stop(wa.id);
    const typed = number();
    const placeholder = number();
    const repeated = number();
    for (const [name, n] of [
      ['Joana (nome do agente)', typed],
      [placeholder, placeholder],
    ]) {
      expect((await t.api.post('/contacts', { name, number: n }, a.admin.token)).status).toBe(201);
    }
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
    // The connection check, the transaction, the policy and three chunks: not three statements a row.
    expect(statements).toBeGreaterThanOrEqual(3);
    expect(statements).toBeLessThanOrEqual(10);
    expect(result.invalid).toEqual([2]);
    expect(result.queued).toHaveLength(2499);
    expect(result.queued.map((q) => q.index)).toEqual([0, 1, ...Array.from({ length: 2497 }, (_, i) => i + 3)]);

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
    expect(await sql(`select count(*)::int as n from contacts where company_id = ?`, [a.companyId])).toEqual([{ n: 2 + 1 + 2495 }]);

    const written = await sql<Record<string, unknown>>(
      `select o.to_number, o.body, o.status, o.priority, o.bulk_seq, o.source_kind, o.source_id, o.ticket_id, o.chat_key = 'c:' || m.chat_contact_id as keyed,
              p.name as pacing, m.ticket_id as message_ticket, m.from_me, m.ack, c.number as history_of
         from outbound_messages o join messages m on m.id = o.message_id join contacts c on c.id = m.chat_contact_id
         left join outbox_pacing p on p.id = o.pacing_id
        where o.whatsapp_id = ? order by o.bulk_seq`,
      [wa.id],
    );
    expect(written).toHaveLength(2499);
    expect(written.slice(0, 4)).toEqual([
      expect.objectContaining({ to_number: typed, body: 'Olá Joana', bulk_seq: 0, source_id: 9001, history_of: typed }),
      expect.objectContaining({ to_number: placeholder, body: 'Olá Pedro', bulk_seq: 1, source_id: 9002 }),
      expect.objectContaining({ to_number: repeated, body: 'primeira', bulk_seq: 3, source_id: 9004, history_of: repeated }),
      expect.objectContaining({ to_number: repeated, body: 'segunda', bulk_seq: 4, source_id: 9005, history_of: repeated }),
    ]);
    for (const row of written) {
      expect(row).toMatchObject({ status: 'pending', priority: 1, source_kind: 'campaign', ticket_id: null, keyed: true, pacing: 'campaigns', message_ticket: null, from_me: true, ack: 0 });
    }
    expect(await sql(`select gap_ms, long_gap_every, long_gap_ms from outbox_pacing where whatsapp_id = ?`, [wa.id])).toEqual([
      { gap_ms: 20_000, long_gap_every: 20, long_gap_ms: 60_000 },
    ]);
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
