import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forCompany, forSystem } from '../db/tenant.js';
import { storeInboundBatch } from './inbound-batch.js';
import { connectSandbox, customerSays, ticketOf } from '../../testing/conversation.js';
import { createTenant, eventually, jobDueNow, startTestApp, type Tenant, type TestApp } from '../../testing/helpers.js';
import { acceptInbound, processQueued, replayInboundQueue, type InboundFacts, type PipelineDeps } from './inbound.js';
import type { InboundMessage } from '../channels/types.js';
import type { InboundStep } from './steps/step.js';

/** The pipeline directly, with identities and failures a sandbox phone cannot produce. */
let t: TestApp;
let a: Tenant;
let wa: number;
let deps: PipelineDeps;

const message = (id: string, chat: InboundMessage['chat'], body: string, extra: Partial<InboundMessage> = {}): InboundMessage => ({
  id,
  fromMe: false,
  chat,
  body,
  mediaType: 'chat',
  timestamp: new Date(),
  ...extra,
});

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'Pipe');
  wa = (await connectSandbox(t.api, a.admin.token)).id;
  deps = { systemEm: () => forSystem(t.app.orm.em), logger: t.app.logger, media: t.app.media, events: t.app.events, channels: t.app.channels, steps: [] };
});
afterAll(() => t?.stop());

const sql = (query: string, params: unknown[] = []) => t.app.orm.em.fork().getConnection().execute(query, params);

describe('LID and phone-number identities', () => {
  it('a person seen by LID, then by phone number with that LID, is one contact and one ticket', async () => {
    const key = { id: wa, companyId: a.companyId };
    expect(await acceptInbound(deps, key, message('LID-1', { number: null, lid: '987654321012345', name: 'Lia' }, 'primeira'))).toBe('stored');
    expect(await acceptInbound(deps, key, message('LID-2', { number: '5511912345678', lid: '987654321012345', name: 'Lia' }, 'segunda'))).toBe('stored');
    expect(await acceptInbound(deps, key, message('LID-3', { number: '5511912345678', lid: null }, 'terceira'))).toBe('stored');
    const contacts = await sql('select number, lid from contacts where company_id = ? and (lid = ? or number = ?)', [a.companyId, '987654321012345', '5511912345678']);
    expect(contacts).toEqual([{ number: '5511912345678', lid: '987654321012345' }]);
    const ticket = await ticketOf(t.api, a.admin.token, '5511912345678');
    expect(ticket.unreadMessages).toBe(3);
  });

  it('two contacts made before the link was known are merged into one, with one active ticket', async () => {
    const key = { id: wa, companyId: a.companyId };
    await acceptInbound(deps, key, message('M-1', { number: null, lid: '111222333444555' }, 'pelo lid'));
    await acceptInbound(deps, key, message('M-2', { number: '5511955550000', lid: null }, 'pelo numero'));
    expect(await sql('select count(*)::int as n from contacts where company_id = ? and (lid = ? or number = ?)', [a.companyId, '111222333444555', '5511955550000'])).toEqual([{ n: 2 }]);
    await acceptInbound(deps, key, message('M-3', { number: '5511955550000', lid: '111222333444555' }, 'os dois'));
    const contacts = await sql('select id from contacts where company_id = ? and (lid = ? or number = ?)', [a.companyId, '111222333444555', '5511955550000']);
    expect(contacts).toHaveLength(1);
    const tickets = await sql(`select id from tickets where contact_id = ? and status in ('open','pending')`, [contacts[0].id]);
    expect(tickets).toHaveLength(1);
    const bodies = (await sql('select body from messages where ticket_id = ? order by id', [tickets[0].id])).map((r: any) => r.body);
    expect(bodies.sort()).toEqual(['os dois', 'pelo lid', 'pelo numero']);
  });
});

describe('persist first, safe to replay', () => {
  it('a message accepted but not processed (a crash) is processed at the next start, once', async () => {
    // A connection of its own: the replay takes up every message its connection left queued (the failure
    // test leaves one behind on the shared one).
    const own = (await connectSandbox(t.api, a.admin.token)).id;
    // What a crash between "queued" and "processed" leaves behind.
    await sql(
      `insert into inbound_queue (company_id, whatsapp_id, wid, payload, attempts, received_at) values (?, ?, 'CRASH-1', ?, 0, now())`,
      [a.companyId, own, JSON.stringify({ id: 'CRASH-1', fromMe: false, chat: { number: '5511944440000', lid: null, name: 'Rui' }, body: 'antes da queda', mediaType: 'chat', timestamp: new Date().toISOString() })],
    );
    expect(await replayInboundQueue(deps, { id: own, companyId: a.companyId })).toBe(1);
    expect(await replayInboundQueue(deps, { id: own, companyId: a.companyId })).toBe(0);
    const ticket = await ticketOf(t.api, a.admin.token, '5511944440000');
    const messages = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages;
    expect(messages.map((m: any) => m.body)).toEqual(['antes da queda']);
    // The channel delivering it again after the restart changes nothing.
    expect(await acceptInbound(deps, { id: own, companyId: a.companyId }, message('CRASH-1', { number: '5511944440000', lid: null }, 'antes da queda'))).toBe('duplicate');
  });

  it('a failure inside processing leaves nothing half-written and the message stays queued', async () => {
    const before = await sql('select count(*)::int as n from contacts where company_id = ?', [a.companyId]);
    // A quoted id longer than the column: the message insert fails after the contact was created.
    const bad = message('FAIL-1', { number: '5511933330000', lid: null, name: 'Falha' }, 'x', { participant: { number: '1'.repeat(200), lid: null } });
    await expect(acceptInbound(deps, { id: wa, companyId: a.companyId }, bad)).rejects.toThrow();
    expect(await sql('select count(*)::int as n from contacts where company_id = ?', [a.companyId])).toEqual(before);
    expect(await sql(`select attempts from inbound_queue where wid = 'FAIL-1'`)).toEqual([{ attempts: 1 }]);
  });
});

describe('message updates', () => {
  it('an edit replaces the text and marks it edited; a revoke marks it deleted', async () => {
    const key = { id: wa, companyId: a.companyId };
    const chat = { number: '5511922220000', lid: null };
    await acceptInbound(deps, key, message('EDIT-1', chat, 'texto original'));
    const { applyMessageUpdate } = await import('./message-updates.js');
    const customer = { chat, fromMe: false };
    await applyMessageUpdate(deps, key, { id: 'EDIT-1', editedBody: 'texto corrigido', author: customer });
    const ticket = await ticketOf(t.api, a.admin.token, '5511922220000');
    let [msg] = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages;
    expect(msg).toMatchObject({ body: 'texto corrigido', isEdited: true, isDeleted: false });
    expect((await t.api.get(`/tickets/${ticket.id}`, a.admin.token)).body.lastMessage).toBe('texto corrigido');
    await applyMessageUpdate(deps, key, { id: 'EDIT-1', revoked: true, author: customer });
    [msg] = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages;
    expect(msg).toMatchObject({ isDeleted: true, body: '' });
  });

  it('an edit or delete by someone other than the sender changes nothing', async () => {
    const key = { id: wa, companyId: a.companyId };
    const chat = { number: '5511922223333', lid: null };
    const { applyMessageUpdate } = await import('./message-updates.js');
    await acceptInbound(deps, key, message('THEIRS-1', chat, 'do cliente'));
    await acceptInbound(deps, key, message('OURS-1', chat, 'da empresa', { fromMe: true }));
    const stranger = { chat: { number: '5511900009999', lid: null }, fromMe: false };
    // Another chat that learnt the ids; the customer touching our message; our account touching theirs; no author.
    for (const [id, author] of [
      ['THEIRS-1', stranger],
      ['OURS-1', stranger],
      ['OURS-1', { chat, fromMe: false }],
      ['THEIRS-1', { chat, fromMe: true }],
      ['THEIRS-1', undefined],
    ] as const) {
      await applyMessageUpdate(deps, key, { id, editedBody: 'forjado', author });
      await applyMessageUpdate(deps, key, { id, revoked: true, author });
    }
    const ticket = await ticketOf(t.api, a.admin.token, '5511922223333');
    const messages = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages as { body: string; isEdited: boolean; isDeleted: boolean }[];
    expect(messages.map((m) => [m.body, m.isEdited, m.isDeleted])).toEqual([
      ['do cliente', false, false],
      ['da empresa', false, false],
    ]);
    // Our own other device may edit ours.
    await applyMessageUpdate(deps, key, { id: 'OURS-1', editedBody: 'corrigido no celular', author: { chat, fromMe: true } });
    const [, ours] = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages;
    expect(ours).toMatchObject({ body: 'corrigido no celular', isEdited: true });
  });

  it('in a group, only the participant who wrote a message edits it; an admin may delete it', async () => {
    const key = { id: wa, companyId: a.companyId };
    const group = { number: '120363000000000111', lid: null, isGroup: true, name: 'Equipe' };
    const ana = { number: '5511944440001', lid: null };
    const bia = { number: '5511944440002', lid: null };
    const { applyMessageUpdate } = await import('./message-updates.js');
    expect((await t.api.put('/settings/CheckMsgIsGroup', { value: 'disabled' }, a.admin.token)).status).toBe(200);
    await acceptInbound(deps, key, message('G-1', group, 'da Ana', { participant: ana }));
    await acceptInbound(deps, key, message('G-2', group, 'também da Ana', { participant: ana }));
    await applyMessageUpdate(deps, key, { id: 'G-1', editedBody: 'pela Bia', author: { chat: group, fromMe: false, participant: bia } });
    await applyMessageUpdate(deps, key, { id: 'G-1', revoked: true, author: { chat: group, fromMe: false, participant: bia } });
    await applyMessageUpdate(deps, key, { id: 'G-1', editedBody: 'pela Bia admin', author: { chat: group, fromMe: false, participant: bia, groupAdmin: true } });
    await applyMessageUpdate(deps, key, { id: 'G-2', revoked: true, author: { chat: group, fromMe: false, participant: bia, groupAdmin: true } });
    await applyMessageUpdate(deps, key, { id: 'G-1', editedBody: 'corrigido pela Ana', author: { chat: group, fromMe: false, participant: ana } });
    expect(await sql(`select wid, body, is_edited, is_deleted from messages where wid in ('G-1', 'G-2') order by wid`)).toEqual([
      { wid: 'G-1', body: 'corrigido pela Ana', is_edited: true, is_deleted: false },
      { wid: 'G-2', body: 'também da Ana', is_edited: false, is_deleted: true },
    ]);
    await t.api.put('/settings/CheckMsgIsGroup', { value: 'enabled' }, a.admin.token);
  });

  it('a message typed on the phone appears as ours, sent (ack 1, not yet received), and clears the unread count', async () => {
    const key = { id: wa, companyId: a.companyId };
    await acceptInbound(deps, key, message('PH-1', { number: '5511911110001', lid: null, name: 'Cris' }, 'oi'));
    await acceptInbound(deps, key, message('PH-2', { number: '5511911110001', lid: null }, 'respondi do celular', { fromMe: true }));
    // The same through the general path (as replayed after a crash).
    const [queued] = await sql(`insert into inbound_queue (company_id, whatsapp_id, wid, payload, attempts, received_at) values (?, ?, ?, ?, 0, now()) returning id`, [
      a.companyId,
      wa,
      'PH-3',
      JSON.stringify({ id: 'PH-3', fromMe: true, chat: { number: '5511911110001', lid: null }, body: 'e mais isto', mediaType: 'chat', timestamp: new Date().toISOString() }),
    ]);
    expect(await processQueued(deps, key, queued.id)).toBe('stored');
    const ticket = await ticketOf(t.api, a.admin.token, '5511911110001');
    expect(ticket.unreadMessages).toBe(0);
    const messages = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages;
    expect(messages.map((m: any) => [m.body, m.fromMe, m.ack])).toEqual([
      ['oi', false, 0],
      ['respondi do celular', true, 1],
      ['e mais isto', true, 1],
    ]);
  });
});

describe('the common case, a batch at a time', () => {
  it('announces the same ticket and message the API shows, and keeps the ticket counters right', async () => {
    const key = { id: wa, companyId: a.companyId };
    const announced: any[] = [];
    const listener = (e: any) => void announced.push(e);
    t.app.events.on('message.created', listener);
    const chat = { number: '5511933334444', lid: null, name: 'Fausto' };
    expect(await acceptInbound(deps, key, message('F-1', chat, 'olá'))).toBe('stored');
    expect(await acceptInbound(deps, key, message('F-2', chat, 'tudo bem?', { quotedId: 'F-1' }))).toBe('stored');
    // A replay of a stored message is refused before it is queued.
    expect(await acceptInbound(deps, key, message('F-1', chat, 'olá'))).toBe('duplicate');

    const mine = announced.filter((e) => e.companyId === a.companyId && e.contact?.number === '5511933334444');
    expect(mine.map((e) => e.isNewTicket)).toEqual([true, false]);
    const ticket = await ticketOf(t.api, a.admin.token, '5511933334444');
    expect(ticket.unreadMessages).toBe(2);
    expect(ticket.lastMessage).toBe('tudo bem?');
    // What the lists were told equals what they would read (timestamps compared as instants).
    const asJson = (v: unknown) => JSON.parse(JSON.stringify(v));
    expect(asJson(mine[1].ticket)).toEqual(asJson(ticket));
    const messages = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages;
    // Reading them (GET /messages) marked them read since.
    const unread = (m: any) => ({ ...m, read: false, quotedMsg: m.quotedMsg && { ...m.quotedMsg, read: false } });
    expect(asJson(mine.map((e) => e.message))).toEqual(asJson(messages).map(unread));
    expect(messages[1].quotedMsg.body).toBe('olá');
    expect(await sql("select count(*)::int as n from inbound_queue where whatsapp_id = ? and wid like 'F-%'", [wa])).toEqual([{ n: 0 }]);
    expect(await sql('select count(*)::int as n from ticket_trackings where ticket_id = ?', [ticket.id])).toEqual([{ n: 1 }]);
  });

  it('concurrent first messages of a new contact make one contact and one ticket with every message', async () => {
    const key = { id: wa, companyId: a.companyId };
    const chat = { number: '5511977778888', lid: null, name: 'Rita' };
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => acceptInbound(deps, key, message(`R-${i}`, chat, `m${i}`))));
    expect(outcomes).toEqual(Array(8).fill('stored'));
    expect(await sql('select count(*)::int as n from contacts where company_id = ? and number = ?', [a.companyId, '5511977778888'])).toEqual([{ n: 1 }]);
    const ticket = await ticketOf(t.api, a.admin.token, '5511977778888');
    expect(ticket.unreadMessages).toBe(8);
    expect(await sql('select count(*)::int as n from messages where ticket_id = ?', [ticket.id])).toEqual([{ n: 8 }]);
  });
});

describe('batches', () => {
  it('many chats writing at once: every message stored and announced once, in order per chat, one ticket per chat', async () => {
    const key = { id: wa, companyId: a.companyId };
    const announced: any[] = [];
    t.app.events.on('message.created', (e: any) => void (e.companyId === a.companyId && e.message.body.startsWith('lote') && announced.push(e)));
    // 30 chats, 4 messages each, all delivered at once: they are written together, a chat's in order.
    const chats = Array.from({ length: 30 }, (_, c) => ({ number: `55119888${String(c).padStart(5, '0')}`, lid: null, name: `Lote ${c}` }));
    const deliveries = chats.flatMap((chat, c) => [0, 1, 2, 3].map((n) => ({ chat, id: `B-${c}-${n}`, body: `lote ${c} ${n}` })));
    const order = [...deliveries.filter((_, i) => i % 4 === 0), ...deliveries.filter((_, i) => i % 4 !== 0)];
    const outcomes = await Promise.all(order.map((d) => acceptInbound(deps, key, message(d.id, d.chat, d.body))));
    expect(outcomes).toEqual(Array(120).fill('stored'));

    expect(announced).toHaveLength(120);
    for (const [c, chat] of chats.entries()) {
      const mine = announced.filter((e) => e.contact.number === chat.number);
      expect(mine.map((e) => e.message.body)).toEqual([0, 1, 2, 3].map((n) => `lote ${c} ${n}`));
      expect(mine.map((e) => e.isNewTicket)).toEqual([true, false, false, false]);
      expect(new Set(mine.map((e) => e.ticket.id)).size).toBe(1);
      expect(mine[3].ticket).toMatchObject({ unreadMessages: 4, lastMessage: `lote ${c} 3`, status: 'pending' });
    }
    const stored = await sql(
      `select c.number, count(distinct t.id)::int as tickets, array_agg(m.body order by m.id) as bodies
         from messages m join tickets t on t.id = m.ticket_id join contacts c on c.id = t.contact_id
        where m.whatsapp_id = ? and m.wid like 'B-%' group by c.number`,
      [wa],
    );
    expect(stored).toHaveLength(30);
    for (const row of stored) {
      const c = chats.findIndex((chat) => chat.number === row.number);
      expect(row).toEqual({ number: row.number, tickets: 1, bodies: [0, 1, 2, 3].map((n) => `lote ${c} ${n}`) });
    }
  });

  it('a message the database refuses fails alone: the rest of its batch is stored, it stays queued', async () => {
    const key = { id: wa, companyId: a.companyId };
    // A rule of the database that refuses one message, as a constraint would.
    await sql(`create function refuse_boom() returns trigger language plpgsql as $$
      begin if new.body = 'boom' then raise exception 'refused by the database'; end if; return new; end $$`);
    await sql('create trigger refuse_boom before insert on messages for each row execute function refuse_boom()');
    try {
      const chat = (n: number) => ({ number: `551197770000${n}`, lid: null, name: `Recusa ${n}` });
      const outcomes = await Promise.allSettled([
        acceptInbound(deps, key, message('BOOM-0', chat(0), 'antes')),
        acceptInbound(deps, key, message('BOOM-1', chat(1), 'um')),
        acceptInbound(deps, key, message('BOOM-2', chat(2), 'boom')),
        acceptInbound(deps, key, message('BOOM-3', chat(3), 'tres')),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(await sql(`select wid from messages where wid like 'BOOM-%' order by wid`)).toEqual([{ wid: 'BOOM-0' }, { wid: 'BOOM-1' }, { wid: 'BOOM-3' }]);
      expect(await sql(`select wid, attempts from inbound_queue where wid like 'BOOM-%'`)).toEqual([{ wid: 'BOOM-2', attempts: 1 }]);
    } finally {
      await sql('drop trigger refuse_boom on messages');
      await sql('drop function refuse_boom');
    }
    // Once the database takes it, the queued message is stored at the connection's next start.
    await replayInboundQueue(deps, key);
    expect(await sql(`select body from messages where wid = 'BOOM-2'`)).toEqual([{ body: 'boom' }]);
    expect(await sql(`select wid from inbound_queue where wid like 'BOOM-%'`)).toEqual([]);
  });

  it('a NUL character or an overlong name from the phone is made to fit, not refused', async () => {
    const key = { id: wa, companyId: a.companyId };
    const chat = { number: '5511966660000', lid: null, name: `Nome\u0000${'x'.repeat(400)}` };
    const raw = { key: { id: 'NUL-1' }, message: { conversation: 'ol\u0000a' } };
    expect(await acceptInbound(deps, key, message('NUL-1', chat, 'ol\u0000a', { raw }))).toBe('stored');
    const [row] = await sql(`select m.body, m.raw, c.name from messages m join contacts c on c.id = m.contact_id where m.wid = 'NUL-1'`);
    expect(row.body).toBe('ola');
    expect(row.raw).toEqual({ key: { id: 'NUL-1' }, message: { conversation: 'ola' } });
    expect(row.name).toBe(`Nome${'x'.repeat(196)}`);
  });
});

describe('reactions', () => {
  it('a reaction is a message of its own, linked to the message reacted to, and answers no bot', async () => {
    const key = { id: wa, companyId: a.companyId };
    const botHeard: string[] = [];
    const listening = { name: 'listening', candidates: (batch: InboundFacts[]) => batch, run: async (f: InboundFacts) => botHeard.push(f.body) > 0 };
    const withBot: PipelineDeps = { ...deps, steps: [listening] };
    const chat = { number: '5511933332222', lid: null, name: 'Reage' };
    expect(await acceptInbound(withBot, key, message('RX-1', chat, 'qual o prazo?'))).toBe('stored');
    expect(await acceptInbound(withBot, key, message('RX-2', chat, '👍', { mediaType: 'reactionMessage', quotedId: 'RX-1' }))).toBe('stored');
    expect(botHeard).toEqual(['qual o prazo?']);
    const ticket = await ticketOf(t.api, a.admin.token, '5511933332222');
    const messages = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages;
    expect(messages.map((m: any) => [m.body, m.mediaType, m.quotedMsg?.body ?? null])).toEqual([
      ['qual o prazo?', 'chat', null],
      ['👍', 'reactionMessage', 'qual o prazo?'],
    ]);
  });
});

describe('the batch statement and the general path', () => {
  it('leave the same rows and announce the same shapes for the same messages', async () => {
    const key = { id: wa, companyId: a.companyId };
    const announced: any[] = [];
    t.app.events.on('message.created', (e) => void announced.push(e));
    const at = (s: number) => new Date(Date.now() - 60_000 + s * 1000);

    // Customer F: the common case, through the batch statement.
    const fast = { number: '5511955550001', lid: null, name: 'Fernanda' };
    expect(await acceptInbound(deps, key, message('SAME-F1', fast, 'primeira', { timestamp: at(1) }))).toBe('stored');
    expect(await acceptInbound(deps, key, message('SAME-F2', fast, 'segunda', { timestamp: at(2) }))).toBe('stored');

    // Customer G: the same messages as the channel handed them over before a crash, through the general path.
    const general = { number: '5511955550002', lid: null, name: 'Gabriela' };
    for (const [wid, body, s] of [['SAME-G1', 'primeira', 1], ['SAME-G2', 'segunda', 2]] as const) {
      const [queued] = await sql(`insert into inbound_queue (company_id, whatsapp_id, wid, payload, attempts, received_at) values (?, ?, ?, ?, 0, now()) returning id`, [
        a.companyId,
        wa,
        wid,
        JSON.stringify({ id: wid, fromMe: false, chat: general, body, mediaType: 'chat', timestamp: at(s).toISOString() }),
      ]);
      expect(await processQueued(deps, key, queued.id)).toBe('stored');
    }

    const ticketRow = async (number: string) => {
      const [row] = await sql(
        `select t.status, t.unread_messages, t.last_message, t.last_from_me, t.queue_id, t.user_id, t.is_group,
                (select to_jsonb(h) - 'updated_at' from conversation_holds h where h.ticket_id = t.id) as hold, t.rating_attempts, t.last_message_at = (select max(m.created_at) from messages m where m.ticket_id = t.id) as at_newest,
                (select count(*)::int from ticket_trackings k where k.ticket_id = t.id and k.queued_at is not null and k.finished_at is null) as open_cycles
           from tickets t join contacts c on c.id = t.contact_id where c.company_id = ? and c.number = ?`,
        [a.companyId, number],
      );
      return row;
    };
    const messageRows = (number: string) =>
      sql(
        `select m.body, m.from_me, m.read, m.ack, m.media_type, m.contact_id = c.id as by_contact, m.user_id, m.is_system, m.participant,
                m.quoted_msg_id, m.send_error, m.chat_contact_id
           from messages m join tickets t on t.id = m.ticket_id join contacts c on c.id = t.contact_id
          where c.company_id = ? and c.number = ? order by m.created_at`,
        [a.companyId, number],
      );
    expect(await ticketRow(general.number)).toEqual(await ticketRow(fast.number));
    expect(await ticketRow(fast.number)).toMatchObject({ unread_messages: 2, last_message: 'segunda', at_newest: true, open_cycles: 1 });
    expect(await messageRows(general.number)).toEqual(await messageRows(fast.number));

    // What the clients were told: the same fields, the same values but for who and when.
    const of = (number: string) => announced.filter((e) => e.contact?.number === number);
    const shape = (e: any) => ({
      keys: [Object.keys(e).sort(), Object.keys(e.message).sort(), Object.keys(e.ticket).sort(), Object.keys(e.contact).sort()],
      isNewTicket: e.isNewTicket,
      message: { body: e.message.body, fromMe: e.message.fromMe, ack: e.message.ack, read: e.message.read, mediaType: e.message.mediaType },
      ticket: { status: e.ticket.status, unreadMessages: e.ticket.unreadMessages, lastMessage: e.ticket.lastMessage },
    });
    expect(of(general.number).map(shape)).toEqual(of(fast.number).map(shape));
    expect(of(fast.number).map((e) => e.isNewTicket)).toEqual([true, false]);
  });
});

describe('a step that waits', () => {
  it('schedules its continuation as a job: the message is done at once, other chats go on, and it resumes later', async () => {
    const log: string[] = [];
    const jobs: string[] = [];
    const waiting: InboundStep = {
      name: 'test: waits',
      candidates: (batch) => batch.filter((f) => f.body.startsWith('wait')),
      run: async (f) => {
        log.push(`run ${f.body}`);
        // Planned far ahead and made due below: a short delay could come before the other chat's turn.
        jobs.push((await t.app.pipeline.waits!.resumeAt(new Date(Date.now() + 3_600_000), waiting, f, { asked: f.body })).jobId);
        return true;
      },
      resume: async (f, data) => void log.push(`resume ${f.body} ${String(data.asked)}`),
    };
    const other: InboundStep = { name: 'test: other', candidates: (b) => b.filter((f) => f.body === 'other chat'), run: async (f) => log.push(`run ${f.body}`) > 0 };
    t.app.pipeline.steps.unshift(waiting, other);
    try {
      await customerSays(t.api, a.admin.token, wa, { from: '5511944440001', body: 'wait for me' });
      // The request has returned: the step ran and scheduled, it did not sleep.
      expect(log).toEqual(['run wait for me']);
      await customerSays(t.api, a.admin.token, wa, { from: '5511944440002', body: 'other chat' });
      expect(log).toEqual(['run wait for me', 'run other chat']);
      // The job brings it back with what it saved.
      await jobDueNow(t.app, jobs[0]);
      await eventually(() => expect(log).toContain('resume wait for me wait for me'), 20_000, 100);
    } finally {
      t.app.pipeline.steps.splice(0, 2);
    }
  });
});

describe('a reply to a rating request', () => {
  it('is stored on the closed ticket that asked and answered by the rating step, by the batch statement as by the general path', async () => {
    const key = { id: wa, companyId: a.companyId };
    const withSteps: PipelineDeps = { ...deps, steps: t.app.pipeline.steps };
    expect((await t.api.put('/settings/userRating', { value: 'enabled' }, a.admin.token)).status).toBe(200);
    const asked = async (number: string) => {
      expect(await acceptInbound(withSteps, key, message(`RATE-${number}-1`, { number, lid: null, name: `Avaliador ${number.slice(-1)}` }, 'oi'))).toBe('stored');
      const ticket = await ticketOf(t.api, a.admin.token, number);
      expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, a.admin.token)).status).toBe(200);
      return ticket.id as number;
    };
    const fastTicket = await asked('5511966660011');
    const generalTicket = await asked('5511966660012');

    // The batch statement.
    expect(await acceptInbound(withSteps, key, message('RATE-F-2', { number: '5511966660011', lid: null }, '3'))).toBe('rating');
    // The general path, as after a crash.
    const [queued] = await sql(
      `insert into inbound_queue (company_id, whatsapp_id, wid, payload, attempts, received_at) values (?, ?, ?, ?, 0, now()) returning id`,
      [a.companyId, wa, 'RATE-G-2', JSON.stringify({ id: 'RATE-G-2', fromMe: false, chat: { number: '5511966660012', lid: null }, body: '3', mediaType: 'chat', timestamp: new Date().toISOString() })],
    );
    expect(await processQueued(withSteps, key, queued.id)).toBe('rating');

    const state = async (ticketId: number) => {
      const [ticket] = await sql(`select status, unread_messages, last_message, awaiting_rating_since is null as answered from tickets where id = ?`, [ticketId]);
      const [rating] = await sql(`select rate from user_ratings where ticket_id = ?`, [ticketId]);
      const [reply] = await sql(`select ticket_id = ? as on_closed_ticket from messages where wid in ('RATE-F-2', 'RATE-G-2') and ticket_id = ?`, [ticketId, ticketId]);
      return { ticket, rating, reply };
    };
    const fast = await state(fastTicket);
    expect(fast).toMatchObject({ ticket: { status: 'closed', answered: true }, rating: { rate: 3 }, reply: { on_closed_ticket: true } });
    expect(await state(generalTicket)).toEqual(fast);
    // No new ticket opened for the answer.
    expect((await sql(`select count(*)::int as n from tickets t join contacts c on c.id = t.contact_id where c.number in ('5511966660011', '5511966660012')`))[0].n).toBe(2);

    // The batch statement itself takes the answer (it no longer leaves it to the general path).
    const third = await asked('5511966660013');
    const [stored] = await storeInboundBatch(forCompany(t.app.orm.em.fork(), a.companyId), t.app.media, key, [
      { wid: 'RATE-T-2', chat: { number: '5511966660013', lid: null }, fromMe: false, body: '2', mediaType: 'chat', mediaUrl: null, mediaName: null, createdAt: new Date() },
    ]);
    expect(stored).toMatchObject({ ticketId: third, ratingReply: true, isNewTicket: false });
  });
});
