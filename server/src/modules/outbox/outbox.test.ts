import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthStore } from '../../channels/auth-store.js';
import { ChannelManager } from '../../channels/manager.js';
import { createSandboxProvider, type SandboxSession } from '../../channels/sandbox/sandbox.provider.js';
import type { ChannelEvents } from '../../channels/types.js';
import { ConnectionWakeups } from '../../channels/wakeups.js';
import { PgListener } from '../../channels/pg-listener.js';
import { forCompany, forSystem } from '../../db/tenant.js';
import { EventBus, type DomainEvents } from '../../events/bus.js';
import { connectSandbox, customerSays, delivered, outbox, ticketOf } from '../../../testing/conversation.js';
import { connectSocket, createTenant, eventually, joined, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { OutboundMessage } from './outbound-message.entity.js';
import { cancelQueued, queueBulk, queueManyOnTicket, queueOnTicket, queueToNumber } from './index.js';
import { BATCH_SENDS, OUTBOX_BACKOFF_MS, OutboxSender } from './outbox.sender.js';

/**
 * The outbox: every send is a row first; one sender per connection drains it in order, waits for a
 * connection that is down, retries transient errors, fails permanent ones visibly, and settles a send a
 * crash cut off by its message id.
 */
let t: TestApp;
let a: Tenant;
let wa: { id: number; number: string };
let seq = 0;

/** Every send the sender settled (sent or failed), oldest first: the row is final once its wid is here. */
const settled: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  t.app.events.on('outbox.settled', ({ wid }) => {
    settled.push(wid);
  });
  a = await createTenant(t, 'Outbox');
  wa = await connectSandbox(t.api, a.admin.token);
});
afterAll(async () => {
  await t?.stop();
});

const phone = () => t.app.channels.find(wa.id) as SandboxSession;
const em = () => forCompany(t.app.orm.em.fork(), a.companyId);
const deps = () => ({ media: t.app.media, events: t.app.events });

/**
 * Another server process on the same database: its own channels (sandbox sessions, no leases) and its own
 * outbox sender; with `wakeups`, it wakes the processes that run connections as the server does.
 */
const anotherProcess = (options: { wakeups?: ConnectionWakeups } = {}) => {
  const systemEm = () => forSystem(t.app.orm.em);
  const quiet: ChannelEvents = { qr() {}, status() {}, async message() {}, async messageUpdate() {}, async contactUpdate() {} };
  const channels = new ChannelManager(
    { sandbox: createSandboxProvider(systemEm) },
    { events: () => quiet, auth: (c) => createAuthStore(systemEm, c.companyId, c.id), logger: t.app.logger, wakeups: options.wakeups },
  );
  const sender = new OutboxSender({ systemEm, channels, media: t.app.media, events: t.app.events, logger: t.app.logger });
  return { channels, sender };
};
const startHere = async (whatsappId: number) => {
  await t.app.channels.start({ id: whatsappId, companyId: a.companyId, provider: 'sandbox' });
};

/** A customer with an open ticket the admin has accepted. */
const openConversation = async () => {
  const number = `55119${String(++seq).padStart(8, '0')}`;
  await customerSays(t.api, a.admin.token, wa.id, { from: number, name: `Cliente ${seq}`, body: 'Oi' });
  const ticket = await ticketOf(t.api, a.admin.token, number);
  await t.api.put(`/tickets/${ticket.id}`, { status: 'open' }, a.admin.token);
  return { number, ticketId: ticket.id as number };
};

const messagesOf = async (ticketId: number) => (await t.api.get(`/messages/${ticketId}`, a.admin.token)).body.messages as any[];
const rowOf = async (wid: string) => em().findOneOrFail(OutboundMessage, { wid });
/** The row once the sender has settled it (the phone has the message a moment before the row says so). */
const settledRowOf = async (wid: string) => {
  await eventually(() => settled.includes(wid));
  return rowOf(wid);
};
/** The row once the sender has recorded it sent (the phone may have it a moment before). */
const sentRowOf = async (wid: string) => {
  await eventually(async () => (await rowOf(wid)).status === 'sent');
  return rowOf(wid);
};

describe('a reply while the connection is down', () => {
  it('is accepted and shown waiting, then sent as soon as the connection is back', async () => {
    const { number, ticketId } = await openConversation();
    await t.app.channels.stop(wa.id);
    const res = await t.api.post(`/messages/${ticketId}`, { body: 'Respondo assim que puder' }, a.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ack: 0, sendError: null });
    // Waiting: no attempt is spent while there is no connection.
    expect(await rowOf(res.body.wid)).toMatchObject({ status: 'pending', attempts: 0 });

    const socket = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(socket, 'joinChatBox', String(ticketId));
      const heard: any[] = [];
      socket.on(`company-${a.companyId}-appMessage`, (e) => heard.push(e));
      // The phone reconnects with its stored credentials.
      const connection = await t.api.get(`/whatsapp/${wa.id}`, a.admin.token);
      await t.app.channels.start({ id: wa.id, companyId: a.companyId, provider: connection.body.provider });
      expect(await delivered(t.api, a.admin.token, wa.id, res.body.wid)).toMatchObject({ to: number, body: 'Respondo assim que puder' });
      await eventually(() => expect(heard.some((e) => e.action === 'update' && e.message.id === res.body.id && e.message.ack === 1)).toBe(true));
    } finally {
      socket.close();
    }
    expect(await rowOf(res.body.wid)).toMatchObject({ status: 'sent', attempts: 1 });
  });
});

describe('errors', () => {
  it('a transient error is retried after a backoff and the message goes once', async () => {
    const { ticketId } = await openConversation();
    phone().fault = { code: 'ERR_SENDING_WAPP_MSG', count: 1 };
    const res = await t.api.post(`/messages/${ticketId}`, { body: 'Segunda tentativa' }, a.admin.token);
    const waiting = await eventually(async () => {
      const row = await rowOf(res.body.wid);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: 'ERR_SENDING_WAPP_MSG' });
      return row;
    });
    // Planned one backoff after the failure was recorded (one statement sets both).
    expect(waiting.plannedAt.getTime() - waiting.updatedAt.getTime()).toBe(OUTBOX_BACKOFF_MS[0]);
    await delivered(t.api, a.admin.token, wa.id, res.body.wid);
    expect(await settledRowOf(res.body.wid)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    const copies = (await outbox(t.api, a.admin.token, wa.id)).filter((m) => m.id === res.body.wid);
    expect(copies).toHaveLength(1);
    expect(copies[0]).not.toHaveProperty('deliveries');
  });

  it('a permanent error fails the message with its reason; resend sends it with the same id', async () => {
    const { ticketId } = await openConversation();
    phone().fault = { code: 'ERR_WAPP_INVALID_CONTACT', count: 1 };
    const socket = await connectSocket(t.app.url, a.admin.token);
    let res;
    try {
      await joined(socket, 'joinChatBox', String(ticketId));
      const heard: any[] = [];
      socket.on(`company-${a.companyId}-appMessage`, (e) => heard.push(e));
      res = await t.api.post(`/messages/${ticketId}`, { body: 'Não vai chegar' }, a.admin.token);
      const id = res.body.id;
      await eventually(() => expect(heard.some((e) => e.message.id === id && e.message.sendError === 'ERR_WAPP_INVALID_CONTACT')).toBe(true));
    } finally {
      socket.close();
    }
    expect(await rowOf(res.body.wid)).toMatchObject({ status: 'failed', attempts: 1, lastError: 'ERR_WAPP_INVALID_CONTACT' });
    expect((await messagesOf(ticketId)).find((m) => m.id === res.body.id)).toMatchObject({ ack: 0, sendError: 'ERR_WAPP_INVALID_CONTACT' });
    expect((await outbox(t.api, a.admin.token, wa.id)).some((m) => m.id === res.body.wid)).toBe(false);

    // Resending clears the reason and sends it, with the same id.
    const again = await t.api.post(`/messages/${res.body.id}/resend`, {}, a.admin.token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: res.body.id, wid: res.body.wid, sendError: null });
    await delivered(t.api, a.admin.token, wa.id, res.body.wid);
    await eventually(async () => expect((await messagesOf(ticketId)).find((m) => m.id === res.body.id)).toMatchObject({ ack: 1, sendError: null }));
    // A message that did not fail cannot be resent.
    expect((await t.api.post(`/messages/${res.body.id}/resend`, {}, a.admin.token)).status).toBe(409);
    // Nor one on a conversation closed since.
    phone().fault = { code: 'ERR_WAPP_INVALID_CONTACT', count: 1 };
    const late = await t.api.post(`/messages/${ticketId}`, { body: 'Também não' }, a.admin.token);
    await eventually(async () => expect((await rowOf(late.body.wid)).status).toBe('failed'));
    await t.api.put(`/tickets/${ticketId}`, { status: 'closed' }, a.admin.token);
    expect(await t.api.post(`/messages/${late.body.id}/resend`, {}, a.admin.token)).toMatchObject({ status: 409, body: { error: 'ERR_TICKET_CLOSED' } });
  });

  it('resend is for the conversation’s own people: another company gets 404', async () => {
    const other = await createTenant(t, 'Other');
    const { ticketId } = await openConversation();
    const res = await t.api.post(`/messages/${ticketId}`, { body: 'Meu' }, a.admin.token);
    expect((await t.api.post(`/messages/${res.body.id}/resend`, {}, other.admin.token)).status).toBe(404);
    expect((await t.api.post(`/messages/${res.body.id}/resend`, {}, undefined)).status).toBe(401);
  });

  it('a message deleted while still waiting is withdrawn and never sent', async () => {
    const { ticketId } = await openConversation();
    await t.app.channels.stop(wa.id);
    const res = await t.api.post(`/messages/${ticketId}`, { body: 'Mensagem errada' }, a.admin.token);
    const del = await t.api.del(`/messages/${res.body.id}`, a.admin.token);
    expect(del.body).toMatchObject({ isDeleted: true });
    expect(await rowOf(res.body.wid)).toMatchObject({ status: 'failed', lastError: 'ERR_CANCELLED' });
    const connection = await t.api.get(`/whatsapp/${wa.id}`, a.admin.token);
    await t.app.channels.start({ id: wa.id, companyId: a.companyId, provider: connection.body.provider });
    // A later message goes; the withdrawn one stays off the phone.
    const later = await t.api.post(`/messages/${ticketId}`, { body: 'Agora sim' }, a.admin.token);
    await delivered(t.api, a.admin.token, wa.id, later.body.wid);
    expect((await outbox(t.api, a.admin.token, wa.id)).some((m) => m.id === res.body.wid)).toBe(false);
  });
});

describe('order, pacing and presence', () => {
  it('a row planned for later holds nothing of its chat: a reply due now leaves at once', async () => {
    const { ticketId } = await openConversation();
    const ticket = await em().findOneOrFail(Ticket, ticketId);
    const tonight = await queueOnTicket(deps(), em(), ticket, { body: 'à noite', plannedAt: new Date(Date.now() + 3_600_000) });
    const now = await queueOnTicket(deps(), em(), ticket, { body: 'agora' });
    await delivered(t.api, a.admin.token, wa.id, now.wid!);
    expect(await rowOf(tonight.wid!)).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await outbox(t.api, a.admin.token, wa.id)).some((m) => m.id === tonight.wid)).toBe(false);
    await cancelQueued(deps(), em(), tonight.id);
  });

  it('a row under way holds its chat: one in backoff or showing "typing…" leaves before the later one', async () => {
    const { ticketId } = await openConversation();
    const ticket = await em().findOneOrFail(Ticket, ticketId);
    phone().fault = { code: 'ERR_SENDING_WAPP_MSG', count: 1 };
    const retried = await queueOnTicket(deps(), em(), ticket, { body: 'primeira (falha uma vez)' });
    await eventually(async () => expect(await rowOf(retried.wid!)).toMatchObject({ status: 'pending', attempts: 1 }));
    const typed = await queueOnTicket(deps(), em(), ticket, { body: 'segunda, digitada', presence: { kind: 'composing', ms: 300 } });
    const plain = await queueOnTicket(deps(), em(), ticket, { body: 'terceira' });
    await delivered(t.api, a.admin.token, wa.id, plain.wid!);
    const sent = await outbox(t.api, a.admin.token, wa.id);
    const at = (wid: string) => sent.findIndex((m) => m.id === wid);
    expect(at(retried.wid!)).toBeGreaterThanOrEqual(0);
    expect(at(retried.wid!)).toBeLessThan(at(typed.wid!));
    expect(at(typed.wid!)).toBeLessThan(at(plain.wid!));
  });

  it('an agent’s reply leaves before a campaign’s backlog on the same connection', async () => {
    const { ticketId } = await openConversation();
    await t.app.channels.stop(wa.id);
    const campaign = await queueBulk(deps(), em(), {
      whatsappId: wa.id,
      rows: Array.from({ length: 60 }, (_, i) => ({ number: `55118${String(i).padStart(8, '0')}`, body: `promoção ${i}`, source: { kind: 'campaign' as const, id: i + 1 } })),
    });
    const reply = await t.api.post(`/messages/${ticketId}`, { body: 'Já te respondo' }, a.admin.token);
    const before = (await outbox(t.api, a.admin.token, wa.id)).length;
    await startHere(wa.id);
    await delivered(t.api, a.admin.token, wa.id, reply.body.wid);
    await eventually(async () => expect((await outbox(t.api, a.admin.token, wa.id)).length).toBe(before + 61));
    const sent = (await outbox(t.api, a.admin.token, wa.id)).slice(before).map((m) => m.id);
    // Queued last, taken first (the first of the first batch): on the phone at most beside the campaign
    // rows sent with it (a batch has a few sends in flight), never behind the backlog.
    expect(sent.indexOf(reply.body.wid)).toBeGreaterThanOrEqual(0);
    expect(sent.indexOf(reply.body.wid)).toBeLessThan(BATCH_SENDS);
    expect([...sent].sort()).toEqual([reply.body.wid, ...campaign.queued.map((q) => q.wid)].sort());
  });

  it('shows "typing…" for the given time before the message', async () => {
    const { number, ticketId } = await openConversation();
    const ticket = await em().findOneOrFail(Ticket, ticketId);
    const before = phone().presences.length;
    const queued = await queueOnTicket({ media: t.app.media, events: t.app.events }, em(), ticket, {
      body: 'digitado com calma',
      presence: { kind: 'composing', ms: 300 },
    });
    await delivered(t.api, a.admin.token, wa.id, queued.wid!);
    const shown = phone().presences.slice(before).find((p) => p.to === number);
    expect(shown?.presence).toBe('composing');
    const row = await sentRowOf(queued.wid!);
    expect(row.sentAt!.getTime() - shown!.at.getTime()).toBeGreaterThanOrEqual(290);
  });
  it('paced messages with "typing…" take turns: the next one starts typing only after the last one’s message', async () => {
    // A gap of 1 ms: were the gap counted from the "typing…", both would type at once and leave together.
    const numbers = ['5511977770001', '5511977770002'];
    const before = phone().presences.length;
    const bulk = await queueBulk(deps(), em(), {
      whatsappId: wa.id,
      rows: numbers.map((number, i) => ({ number, body: `digitada ${i}`, presence: { kind: 'composing' as const, ms: 300 }, source: { kind: 'campaign' as const, id: 900 + i } })),
      pacing: { name: 'typing-turns', gapMs: 1 },
    });
    for (const q of bulk.queued) await delivered(t.api, a.admin.token, wa.id, q.wid);
    const shown = numbers.map((n) => phone().presences.slice(before).find((p) => p.to === n)!);
    expect(shown.every(Boolean)).toBe(true);
    const [first, second] = [...shown].sort((x, y) => x.at.getTime() - y.at.getTime());
    // The second "typing…" comes after the first message left its pause (300 ms), never beside it.
    expect(second.at.getTime() - first.at.getTime()).toBeGreaterThanOrEqual(290);
  });
  it('a paced gap is from message to message, its "typing…" inside it', async () => {
    // Gap 1 s (±30%: 0.7-1.3 s), pause 0.8 s. The gate is where the next "typing…" may start: 0-0.5 s after
    // this message when the pause is inside the gap; 0.7-1.3 s after it if the gap came on top of the pause.
    const bulk = await queueBulk(deps(), em(), {
      whatsappId: wa.id,
      rows: [{ number: '5511977770011', body: 'digitada no intervalo', presence: { kind: 'composing' as const, ms: 800 }, source: { kind: 'campaign' as const, id: 950 } }],
      pacing: { name: 'typing-inside-gap', gapMs: 1_000 },
    });
    await delivered(t.api, a.admin.token, wa.id, bulk.queued[0].wid);
    const [gate] = await em().execute<{ after_message_ms: number }[]>(
      `select extract(epoch from (g.next_at - o.planned_at)) * 1000 as after_message_ms
         from outbox_pacing_state g join outbound_messages o on o.whatsapp_id = g.whatsapp_id where o.wid = ?`,
      [bulk.queued[0].wid],
    );
    expect(Number(gate.after_message_ms)).toBeGreaterThanOrEqual(-1);
    expect(Number(gate.after_message_ms)).toBeLessThanOrEqual(501);
  });
});

describe('"typing…" before an agent’s reply (sendTypingPresence)', () => {
  it('off by default: the reply goes without it; on: "typing…" for about the time it takes to type', async () => {
    const { number, ticketId } = await openConversation();
    const before = phone().presences.length;
    const plain = await t.api.post(`/messages/${ticketId}`, { body: 'sem digitação' }, a.admin.token);
    await delivered(t.api, a.admin.token, wa.id, plain.body.wid);
    expect(phone().presences.slice(before).filter((p) => p.to === number)).toEqual([]);

    await t.api.put('/settings/sendTypingPresence', { value: 'enabled' }, a.admin.token);
    try {
      const typed = await t.api.post(`/messages/${ticketId}`, { body: 'com digitação' }, a.admin.token);
      expect((await rowOf(typed.body.wid)).presence).toBe('composing');
      // 13 characters: the 0.8 s floor.
      expect((await rowOf(typed.body.wid)).presenceMs).toBe(800);
      await delivered(t.api, a.admin.token, wa.id, typed.body.wid);
      const shown = phone().presences.slice(before).find((p) => p.to === number);
      expect(shown?.presence).toBe('composing');
      expect((await sentRowOf(typed.body.wid)).sentAt!.getTime() - shown!.at.getTime()).toBeGreaterThanOrEqual(790);
    } finally {
      await t.api.put('/settings/sendTypingPresence', { value: 'disabled' }, a.admin.token);
    }
  });
});

describe('a send cut off by a crash', () => {
  /**
   * Two replies left in `sending` as a crash leaves them, the first already on the phone; then the connection
   * runs in another process (its own session and sender), which settles them when its lane starts.
   */
  const crashWith = async (ticketId: number, options: { echoed?: boolean; noRecord?: boolean } = {}) => {
    await t.app.channels.stop(wa.id);
    const reached = await t.api.post(`/messages/${ticketId}`, { body: 'chegou antes da queda' }, a.admin.token);
    const cut = await t.api.post(`/messages/${ticketId}`, { body: 'cortada no meio' }, a.admin.token);
    await em().nativeUpdate(OutboundMessage, { wid: { $in: [reached.body.wid, cut.body.wid] } }, { status: 'sending', attempts: 1 });
    await em().execute(
      `insert into sandbox_outbox (company_id, whatsapp_id, wid, "to", body, deleted, created_at) values (?, ?, ?, '', 'chegou antes da queda', false, now())`,
      [a.companyId, wa.id, reached.body.wid],
    );
    if (options.echoed) await em().nativeUpdate(OutboundMessage, { wid: reached.body.wid }, { echoedAt: new Date() });
    const other = anotherProcess();
    await other.channels.start({ id: wa.id, companyId: a.companyId, provider: 'sandbox' });
    // The new session, like WhatsApp, keeps no record of what it received: only echoes tell.
    if (options.noRecord) (other.channels.find(wa.id) as SandboxSession).recordsSends = false;
    const moveBack = async () => {
      await other.sender.stop();
      await other.channels.stop(wa.id);
      await startHere(wa.id);
    };
    return { reached: reached.body, cut: cut.body, restarted: other.sender, moveBack };
  };

  it('with the phone’s own record: the one it has counts as sent, the one it lacks goes again, each once', async () => {
    const { ticketId } = await openConversation();
    const { reached, cut, restarted, moveBack } = await crashWith(ticketId);
    try {
      restarted.kick(wa.id);
      await delivered(t.api, a.admin.token, wa.id, cut.wid);
      await eventually(async () => expect((await rowOf(cut.wid)).status).toBe('sent'));
    } finally {
      await moveBack();
    }
    expect(await rowOf(reached.wid)).toMatchObject({ status: 'sent' });
    const onPhone = await outbox(t.api, a.admin.token, wa.id);
    for (const wid of [reached.wid, cut.wid]) {
      const copies = onPhone.filter((m) => m.id === wid);
      expect(copies).toHaveLength(1);
      // Delivered once: the phone counts a second delivery of an id.
      expect(copies[0]).not.toHaveProperty('deliveries');
    }
  });

  it('without a record, only an echo proves a send: the echoed one is sent, the other fails as uncertain, neither goes twice', async () => {
    const { ticketId } = await openConversation();
    const { reached, cut, restarted, moveBack } = await crashWith(ticketId, { echoed: true, noRecord: true });
    try {
      restarted.kick(wa.id);
      await eventually(async () => expect((await rowOf(cut.wid)).status).toBe('failed'));
    } finally {
      await moveBack();
    }
    expect(await rowOf(reached.wid)).toMatchObject({ status: 'sent' });
    expect(await rowOf(cut.wid)).toMatchObject({ lastError: 'ERR_SEND_UNCERTAIN' });
    const messages = await messagesOf(ticketId);
    expect(messages.find((m) => m.id === reached.id)).toMatchObject({ ack: 1, sendError: null });
    expect(messages.find((m) => m.id === cut.id)).toMatchObject({ ack: 0, sendError: 'ERR_SEND_UNCERTAIN' });
    const onPhone = await outbox(t.api, a.admin.token, wa.id);
    expect(onPhone.filter((m) => m.id === reached.wid)).toHaveLength(1);
    expect(onPhone.some((m) => m.id === cut.wid)).toBe(false);
  });

  it('a connection that moved to another process and back is settled again here', async () => {
    const { ticketId } = await openConversation();
    // This process's lane has settled its session already: a reply went out.
    const first = await t.api.post(`/messages/${ticketId}`, { body: 'antes da mudança' }, a.admin.token);
    await delivered(t.api, a.admin.token, wa.id, first.body.wid);
    // The connection moves away; the process running it dies mid-send, one reply on the phone, one not.
    await t.app.channels.stop(wa.id);
    const reached = await t.api.post(`/messages/${ticketId}`, { body: 'chegou lá' }, a.admin.token);
    const cut = await t.api.post(`/messages/${ticketId}`, { body: 'cortada lá' }, a.admin.token);
    await em().nativeUpdate(OutboundMessage, { wid: { $in: [reached.body.wid, cut.body.wid] } }, { status: 'sending', attempts: 1 });
    await em().execute(
      `insert into sandbox_outbox (company_id, whatsapp_id, wid, "to", body, deleted, created_at) values (?, ?, ?, '', 'chegou lá', false, now())`,
      [a.companyId, wa.id, reached.body.wid],
    );
    // Back here: a new session, settled by its id, so nothing stays in `sending` and nothing goes twice.
    await startHere(wa.id);
    await delivered(t.api, a.admin.token, wa.id, cut.body.wid);
    await eventually(async () => expect(await rowOf(cut.body.wid)).toMatchObject({ status: 'sent' }));
    expect(await rowOf(reached.body.wid)).toMatchObject({ status: 'sent' });
    expect((await outbox(t.api, a.admin.token, wa.id)).filter((m) => m.id === reached.body.wid)).toEqual([expect.not.objectContaining({ deliveries: 2 })]);
  });
});

describe('the sweep', () => {
  it('a row queued while the lane sets its timer goes at once, not at the next sweep', async () => {
    // The lane is running (setting its timer) when the row's kick arrives: the kick only asks it to go round again.
    const sender = t.app.outbox as unknown as { wakeLater: (...args: unknown[]) => Promise<void> };
    const original = sender.wakeLater;
    let queued: Promise<string> | undefined;
    sender.wakeLater = async function (this: unknown, ...args: unknown[]) {
      await original.apply(this, args);
      if (queued) return;
      // Queued without its own kick (that one could come after this run), then the kick, while the lane runs.
      const silent = { media: t.app.media, events: new EventBus(t.app.logger) };
      queued = queueToNumber(silent, em(), { whatsappId: wa.id, number: '5511966664444', body: 'na hora do relógio' }).then((q) => q.message.wid!);
      await queued;
      t.app.outbox.kick(wa.id);
    };
    try {
      // Something for the lane to do, so that it runs and sets its timer.
      await queueToNumber(deps(), em(), { whatsappId: wa.id, number: '5511966663333', body: 'primeira' });
      await eventually(() => queued !== undefined);
      await delivered(t.api, a.admin.token, wa.id, await queued!);
    } finally {
      sender.wakeLater = original;
    }
  });

  it('wakes the process that runs the connection, not only its own lanes', async () => {
    // A connection of its own: no lane of this process has a timer for it.
    const own = await connectSandbox(t.api, a.admin.token);
    const listener = new PgListener(t.app.config.databaseUrl!, t.app.logger);
    const wakeups = new ConnectionWakeups(listener, () => forSystem(t.app.orm.em));
    await listener.start();
    const heard: number[] = [];
    wakeups.on((id) => heard.push(id));
    const sweeper = anotherProcess({ wakeups });
    try {
      // A row whose wake-up was lost (queued without telling anyone).
      const { message } = await queueToNumber({ media: t.app.media, events: new EventBus(t.app.logger) }, em(), {
        whatsappId: own.id,
        number: '5511966665555',
        body: 'acordada pela varredura',
      });
      expect(await rowOf(message.wid!)).toMatchObject({ status: 'pending' });
      // The job runs in the other process, which does not run the connection.
      await sweeper.sender.sweep();
      await eventually(() => expect(heard).toContain(own.id));
      await delivered(t.api, a.admin.token, own.id, message.wid!);
    } finally {
      await sweeper.sender.stop();
      await listener.stop();
    }
  });
});

describe('a send to a number without a ticket', () => {
  it('keeps the message in the contact’s history and opens no ticket; the customer’s answer opens one with it in the history', async () => {
    const number = '5511977771234';
    const { message, contact } = await queueToNumber({ media: t.app.media, events: t.app.events }, em(), {
      whatsappId: wa.id,
      number,
      name: 'Campanha Clara',
      body: 'Promoção só hoje!',
    });
    expect(message.ticketId).toBeNull();
    expect(await delivered(t.api, a.admin.token, wa.id, message.wid!)).toMatchObject({ to: number, body: 'Promoção só hoje!' });
    // No ticket anywhere, open or closed.
    expect(await ticketOf(t.api, a.admin.token, number)).toBeUndefined();
    expect(await em().count(Ticket, { contactId: contact.id })).toBe(0);
    await eventually(async () => expect(await rowOf(message.wid!)).toMatchObject({ status: 'sent', ticketId: null }));

    await customerSays(t.api, a.admin.token, wa.id, { from: number, body: 'Quero!' });
    const ticket = await ticketOf(t.api, a.admin.token, number);
    expect(ticket).toMatchObject({ status: 'pending', contact: { id: contact.id } });
    const history = await messagesOf(ticket.id);
    expect(history.map((m) => [m.body, m.fromMe])).toEqual([
      ['Promoção só hoje!', true],
      ['Quero!', false],
    ]);
    expect(history[0]).toMatchObject({ ticketId: null, ack: 1 });
  });

  it('refuses a connection of another company', async () => {
    const other = await createTenant(t, 'OtherNumber');
    const theirs = await connectSandbox(t.api, other.admin.token);
    await expect(queueToNumber({ media: t.app.media, events: t.app.events }, em(), { whatsappId: theirs.id, number: '5511900001111', body: 'x' })).rejects.toMatchObject({
      code: 'ERR_NO_WAPP_FOUND',
    });
  });
});

describe('several messages on one ticket at once (queueManyOnTicket)', () => {
  /** The first `count` message.created events of a ticket, as the bus delivers them. */
  const announced = (ticketId: number, count: number) =>
    new Promise<DomainEvents['message.created'][]>((resolve) => {
      const heard: DomainEvents['message.created'][] = [];
      t.app.events.on('message.created', (event) => {
        if (event.ticket.id !== ticketId || heard.length === count) return;
        heard.push(event);
        if (heard.length === count) resolve(heard);
      });
    });

  it('queues them in order with one row each; the ticket shows the last; they leave in that order', async () => {
    const { number, ticketId } = await openConversation();
    const bodies = ['Primeira', 'Segunda', 'Terceira'];
    const heard = announced(ticketId, bodies.length);
    const queued = await em().transactional(async (tx) => {
      const ticket = await tx.findOneOrFail(Ticket, ticketId);
      return queueManyOnTicket(
        deps(),
        tx,
        ticket,
        bodies.map((body, i) => ({ body, isSystem: true, source: { kind: 'flow' as const, id: 1 }, presence: i === 1 ? { kind: 'composing' as const, ms: 1200 } : undefined })),
      );
    });
    expect(queued.map((m) => [m.body, m.ack, m.fromMe, m.ticketId])).toEqual(bodies.map((body) => [body, 0, true, ticketId]));
    const rows = await em().find(OutboundMessage, { wid: { $in: queued.map((m) => m.wid!) } }, { orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.body, r.messageId, r.sourceKind, r.ticketId])).toEqual(queued.map((m) => [m.body, m.id, 'flow', ticketId]));
    expect(rows.map((r) => [r.presence, r.presenceMs, r.status, r.chatKey])).toEqual([
      [null, 0, 'pending', rows[0].chatKey],
      ['composing', 1200, 'pending', rows[0].chatKey],
      [null, 0, 'pending', rows[0].chatKey],
    ]);
    const ticket = await em().findOneOrFail(Ticket, ticketId);
    expect(ticket).toMatchObject({ lastMessage: 'Terceira', lastFromMe: true });
    // The clients hear each, in order, as the API shows it, with the ticket as written.
    const events = await heard;
    expect(events.map((e) => [e.message.id, e.message.body, e.message.fromMe])).toEqual(queued.map((m) => [m.id, m.body, true]));
    expect(events.at(-1)!.ticket).toMatchObject({ id: ticketId, lastMessage: 'Terceira' });

    for (const m of queued) await delivered(t.api, a.admin.token, wa.id, m.wid!);
    const received = (await outbox(t.api, a.admin.token, wa.id)).filter((m) => m.to === number && bodies.includes(m.body));
    expect(received.map((m) => m.body)).toEqual(bodies);
    expect((await messagesOf(ticketId)).slice(-3).map((m) => m.body)).toEqual(bodies);
  });

  it('writes nothing and sends nothing when the caller’s transaction rolls back', async () => {
    const { ticketId } = await openConversation();
    const wids: string[] = [];
    await expect(
      em().transactional(async (tx) => {
        const ticket = await tx.findOneOrFail(Ticket, ticketId);
        const queued = await queueManyOnTicket(deps(), tx, ticket, [{ body: 'Nunca 1' }, { body: 'Nunca 2' }]);
        wids.push(...queued.map((m) => m.wid!));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(wids).toHaveLength(2);
    expect(await em().count(OutboundMessage, { wid: { $in: wids } })).toBe(0);
    expect((await messagesOf(ticketId)).map((m) => m.body)).not.toContain('Nunca 1');
    // Nothing was announced: the next committed ones are the first the clients hear of.
    const heard = announced(ticketId, 1);
    await em().transactional(async (tx) => queueManyOnTicket(deps(), tx, await tx.findOneOrFail(Ticket, ticketId), [{ body: 'Depois 1' }, { body: 'Depois 2' }]));
    expect((await heard).map((e) => e.message.body)).toEqual(['Depois 1']);
  });
});
