import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxSession } from '../../channels/sandbox/sandbox.provider.js';
import { forCompany } from '../../db/tenant.js';
import { connectSandbox, customerSays, delivered, outbox, ticketOf } from '../../../testing/conversation.js';
import { connectSocket, createTenant, eventually, joined, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { OutboundMessage } from './outbound-message.entity.js';
import { queueOnTicket, queueToNumber } from './outbox.js';
import { OUTBOX_BACKOFF_MS, OutboxSender } from './outbox.sender.js';

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
  it('a chat’s messages leave in the order they were queued, even when the first waits for its time', async () => {
    const { ticketId } = await openConversation();
    const ticket = await em().findOneOrFail(Ticket, ticketId);
    const deps = { media: t.app.media, events: t.app.events };
    const first = await queueOnTicket(deps, em(), ticket, { body: 'primeira', plannedAt: new Date(Date.now() + 400) });
    const second = await queueOnTicket(deps, em(), ticket, { body: 'segunda' });
    // The second is due now but waits behind the first.
    await delivered(t.api, a.admin.token, wa.id, second.wid!);
    const sent = await outbox(t.api, a.admin.token, wa.id);
    const at = (wid: string) => sent.findIndex((m) => m.id === wid);
    expect(at(first.wid!)).toBeGreaterThanOrEqual(0);
    expect(at(first.wid!)).toBeLessThan(at(second.wid!));
    const firstRow = await sentRowOf(first.wid!);
    expect(firstRow.sentAt!.getTime()).toBeGreaterThanOrEqual(firstRow.plannedAt.getTime());
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
  /** Two replies left in `sending` as a crash leaves them, the first already on the phone; then a new process's sender. */
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
    await t.app.channels.start({ id: wa.id, companyId: a.companyId, provider: 'sandbox' });
    // The new session, like WhatsApp, keeps no record of what it received: only echoes tell.
    if (options.noRecord) phone().recordsSends = false;
    const restarted = new OutboxSender({
      systemEm: () => t.app.orm.em.fork(),
      channels: t.app.channels,
      media: t.app.media,
      events: t.app.events,
      logger: t.app.logger,
    });
    return { reached: reached.body, cut: cut.body, restarted };
  };

  it('with the phone’s own record: the one it has counts as sent, the one it lacks goes again, each once', async () => {
    const { ticketId } = await openConversation();
    const { reached, cut, restarted } = await crashWith(ticketId);
    restarted.kick(wa.id);
    await delivered(t.api, a.admin.token, wa.id, cut.wid);
    await eventually(async () => expect((await rowOf(cut.wid)).status).toBe('sent'));
    await restarted.stop();
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
    try {
      const { reached, cut, restarted } = await crashWith(ticketId, { echoed: true, noRecord: true });
      restarted.kick(wa.id);
      await eventually(async () => expect((await rowOf(cut.wid)).status).toBe('failed'));
      await restarted.stop();
      expect(await rowOf(reached.wid)).toMatchObject({ status: 'sent' });
      expect(await rowOf(cut.wid)).toMatchObject({ lastError: 'ERR_SEND_UNCERTAIN' });
      const messages = await messagesOf(ticketId);
      expect(messages.find((m) => m.id === reached.id)).toMatchObject({ ack: 1, sendError: null });
      expect(messages.find((m) => m.id === cut.id)).toMatchObject({ ack: 0, sendError: 'ERR_SEND_UNCERTAIN' });
      const onPhone = await outbox(t.api, a.admin.token, wa.id);
      expect(onPhone.filter((m) => m.id === reached.wid)).toHaveLength(1);
      expect(onPhone.some((m) => m.id === cut.wid)).toBe(false);
    } finally {
      phone().recordsSends = true;
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
