import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxSession } from '../../channels/sandbox/sandbox.provider.js';
import type { DomainEvents } from '../../events/bus.js';
import { forCompany } from '../../db/tenant.js';
import { applyMessageUpdate } from '../../pipeline/message-updates.js';
import { connectSandbox, customerSays, delivered, ticketOf } from '../../../testing/conversation.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { OutboundMessage } from './outbound-message.entity.js';
import { cancelQueued, queueBulk, queueToNumber, sendMedia, sendText } from './index.js';

/**
 * Every outbox row's outcome (sent, failed, delivered, read) is on the row and announced once, with who
 * asked for it (`source`), whether or not the message has a ticket.
 */
let t: TestApp;
let a: Tenant;
let wa: { id: number; number: string };
let seq = 0;
const heard: DomainEvents['outbox.settled'][] = [];

beforeAll(async () => {
  t = await startTestApp();
  t.app.events.on('outbox.settled', (e) => {
    heard.push(e);
  });
  a = await createTenant(t, 'Outcome');
  wa = await connectSandbox(t.api, a.admin.token);
});
afterAll(async () => {
  await t?.stop();
});

const em = () => forCompany(t.app.orm.em.fork(), a.companyId);
const deps = () => ({ media: t.app.media, events: t.app.events });
const rowOf = (wid: string) => em().findOneOrFail(OutboundMessage, { wid });
const heardOf = (wid: string) => heard.filter((e) => e.wid === wid).map((e) => e.status);
const newNumber = () => `55115${String(++seq).padStart(8, '0')}`;

const openTicket = async () => {
  const number = newNumber();
  await customerSays(t.api, a.admin.token, wa.id, { from: number, body: 'Oi' });
  const ticket = await eventually(() => ticketOf(t.api, a.admin.token, number));
  await t.api.put(`/tickets/${ticket.id}`, { status: 'open' }, a.admin.token);
  return em().findOneOrFail(Ticket, ticket.id as number);
};

describe('outcomes', () => {
  it('a message without a ticket: sent, delivered and read are on its row and each announced once, with its source', async () => {
    const { message } = await queueToNumber(deps(), em(), {
      whatsappId: wa.id,
      number: newNumber(),
      body: 'Sua fatura chegou',
      priority: 'bulk',
      source: { kind: 'api', id: 4242 },
    });
    const wid = message.wid!;
    await delivered(t.api, a.admin.token, wa.id, wid);
    await eventually(() => expect(heardOf(wid)).toEqual(['sent']));
    expect(heard.find((e) => e.wid === wid)).toMatchObject({
      companyId: a.companyId,
      whatsappId: wa.id,
      messageId: message.id,
      status: 'sent',
      error: null,
      source: { kind: 'api', id: 4242 },
    });

    expect((await t.api.post(`/sandbox/${wa.id}/ack`, { id: wid, ack: 2 }, a.admin.token)).status).toBe(200);
    await eventually(() => expect(heardOf(wid)).toEqual(['sent', 'delivered']));
    expect(await rowOf(wid)).toMatchObject({ status: 'sent', deliveredAt: expect.any(Date), readAt: null });

    expect((await t.api.post(`/sandbox/${wa.id}/ack`, { id: wid, ack: 3 }, a.admin.token)).status).toBe(200);
    await eventually(() => expect(heardOf(wid)).toEqual(['sent', 'delivered', 'read']));
    const row = await rowOf(wid);
    expect(row).toMatchObject({ sourceKind: 'api', sourceId: 4242, readAt: expect.any(Date) });
    expect(row.readAt!.getTime()).toBeGreaterThanOrEqual(row.deliveredAt!.getTime());
    expect(row.deliveredAt!.getTime()).toBeGreaterThanOrEqual(row.sentAt!.getTime());

    // A receipt again (played, a replay) changes nothing and is not announced again.
    await t.api.post(`/sandbox/${wa.id}/ack`, { id: wid, ack: 4 }, a.admin.token);
    const sentinel = await queueToNumber(deps(), em(), { whatsappId: wa.id, number: newNumber(), body: 'sentinela' });
    await eventually(() => expect(heardOf(sentinel.message.wid!)).toEqual(['sent']));
    expect(heardOf(wid)).toEqual(['sent', 'delivered', 'read']);
  });

  it('a late error receipt fails a sent row, on the row and announced, with the reason', async () => {
    const ticket = await openTicket();
    const reply = await t.api.post(`/messages/${ticket.id}`, { body: 'Segue o boleto' }, a.admin.token);
    const wid = reply.body.wid as string;
    await eventually(() => expect(heardOf(wid)).toEqual(['sent']));
    await applyMessageUpdate(t.app.pipeline, { id: wa.id, companyId: a.companyId }, { id: wid, fromMe: true, sendError: 'ERR_WAPP_SEND_REFUSED' });
    await eventually(() => expect(heardOf(wid)).toEqual(['sent', 'failed']));
    expect(heard.filter((e) => e.wid === wid).at(-1)).toMatchObject({
      status: 'failed',
      error: 'ERR_WAPP_SEND_REFUSED',
      source: { kind: 'agent', id: a.admin.id },
    });
    expect(await rowOf(wid)).toMatchObject({ status: 'failed', lastError: 'ERR_WAPP_SEND_REFUSED', failedAt: expect.any(Date) });
  });

  it('a failed send and a withdrawn one are failures announced with their reason', async () => {
    const ticket = await openTicket();
    (t.app.channels.find(wa.id) as SandboxSession).fault = { code: 'ERR_WAPP_INVALID_CONTACT', count: 1 };
    const failed = await sendText({ ...deps(), channels: t.app.channels }, em(), ticket, { body: 'não vai', isSystem: true });
    await eventually(() => expect(heardOf(failed.wid!)).toEqual(['failed']));
    expect(heard.find((e) => e.wid === failed.wid)).toMatchObject({ error: 'ERR_WAPP_INVALID_CONTACT', source: { kind: 'system', id: null } });
    expect(await rowOf(failed.wid!)).toMatchObject({ failedAt: expect.any(Date), sentAt: null });

    const tonight = await sendText({ ...deps(), channels: t.app.channels }, em(), ticket, { body: 'à noite', plannedAt: new Date(Date.now() + 3_600_000) });
    expect(await cancelQueued(deps(), em(), tonight.id)).toBe(true);
    expect(heardOf(tonight.wid!)).toEqual(['failed']);
    expect(heard.find((e) => e.wid === tonight.wid)).toMatchObject({ error: 'ERR_CANCELLED' });
  });
});

describe('sources and planned times', () => {
  it('sendText and sendMedia keep plannedAt and a source; an agent’s reply is the agent’s, a platform text the system’s', async () => {
    const ticket = await openTicket();
    const at = new Date(Date.now() + 3_600_000);
    const text = await sendText({ ...deps(), channels: t.app.channels }, em(), ticket, {
      body: 'lembrete',
      plannedAt: at,
      source: { kind: 'flow', id: 77 },
    });
    const media = await sendMedia(
      { ...deps(), channels: t.app.channels },
      em(),
      ticket,
      { data: Buffer.from('%PDF-1.4 atrium'), mimetype: 'application/pdf', filename: 'boleto.pdf' },
      { plannedAt: at, source: { kind: 'integration', id: 5 } },
    );
    expect(await rowOf(text.wid!)).toMatchObject({ plannedAt: at, sourceKind: 'flow', sourceId: 77, status: 'pending', priority: 0 });
    expect(await rowOf(media.wid!)).toMatchObject({ plannedAt: at, sourceKind: 'integration', sourceId: 5, status: 'pending' });
    for (const m of [text, media]) await cancelQueued(deps(), em(), m.id);

    const reply = await t.api.post(`/messages/${ticket.id}`, { body: 'Olá' }, a.admin.token);
    const closing = await sendText({ ...deps(), channels: t.app.channels }, em(), ticket, { body: 'Obrigado!', isSystem: true });
    expect(await rowOf(reply.body.wid)).toMatchObject({ sourceKind: 'agent', sourceId: a.admin.id });
    expect(await rowOf(closing.wid!)).toMatchObject({ sourceKind: 'system', sourceId: null });
  });

  it('a campaign’s rows carry their shipping row: a report reads each one’s outcome from the table', async () => {
    const { queued } = await queueBulk(deps(), em(), {
      whatsappId: wa.id,
      rows: [1, 2, 3].map((i) => ({ number: newNumber(), body: `campanha ${i}`, source: { kind: 'campaign' as const, id: 500 + i } })),
    });
    await eventually(() => expect(queued.every((q) => heardOf(q.wid).includes('sent'))).toBe(true));
    await t.api.post(`/sandbox/${wa.id}/ack`, { id: queued[1].wid, ack: 3 }, a.admin.token);
    await eventually(() => expect(heardOf(queued[1].wid)).toEqual(['sent', 'read']));
    const report = await em().execute(
      `select source_id, status, sent_at is not null as sent, delivered_at is not null as delivered, read_at is not null as read
         from outbound_messages where company_id = ? and source_kind = 'campaign' and source_id = any(?::int[]) order by source_id`,
      [a.companyId, '{501,502,503}'],
    );
    expect(report).toEqual([
      { source_id: 501, status: 'sent', sent: true, delivered: false, read: false },
      { source_id: 502, status: 'sent', sent: true, delivered: true, read: true },
      { source_id: 503, status: 'sent', sent: true, delivered: false, read: false },
    ]);
  });
});
