import type { TicketView } from '@atrium/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forCompany } from '../../db/tenant.js';
import { connectSandbox, customerSays, ticketOf } from '../../../testing/conversation.js';
import { createTenant, outboxSettled, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { Message } from '../messages/message.entity.js';
import { chatbotHold, chatbotState } from '../chatbot/state.js';
import { findHold, holdConversation, holderOf, idleHold } from '../tickets/holds.js';
import { Ticket, TicketTracking } from '../tickets/ticket.entity.js';
import { TicketLog } from '../tickets/ticket-log.entity.js';
import { byUser, SYSTEM, type TicketActor } from '../tickets/index.js';
import { closeTicket, moveToQueue, placeTicket, type TransitionDeps } from './transitions.js';

/**
 * The transitions hold their rules whoever acts: an agent, the system (jobs, the chatbot), a flow, a
 * campaign or an API token all get the same attendance cycle and the same courtesy messages.
 */
let t: TestApp;
let a: Tenant;
let wa: { id: number };
let deps: TransitionDeps;
let seq = 0;
const logged: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'Transitions');
  wa = await connectSandbox(t.api, a.admin.token);
  deps = { channels: t.app.channels, media: t.app.media, events: t.app.events, log: (_err, context) => logged.push(context) };
  await t.api.put('/settings/sendGreetingAccepted', { value: 'enabled' }, a.admin.token);
  await t.api.put('/settings/sendMsgTransfTicket', { value: 'enabled' }, a.admin.token);
});
afterAll(async () => {
  await t?.stop();
});

const em = () => forCompany(t.app.orm.em.fork(), a.companyId);

const waitingTicket = async () => {
  const number = `55118${String(++seq).padStart(8, '0')}`;
  await customerSays(t.api, a.admin.token, wa.id, { from: number, name: `Pessoa ${seq}`, body: 'Olá' });
  const { id } = await ticketOf(t.api, a.admin.token, number);
  const scoped = em();
  return { em: scoped, ticket: await scoped.findOneOrFail(Ticket, id) };
};

/** Who holds a ticket's conversation, read afresh from the database. */
const heldBy = async (ticketId: number) => {
  const fresh = em();
  return holderOf(await fresh.findOneOrFail(Ticket, ticketId), await findHold(fresh, ticketId));
};
const view = async (ticketId: number) => (await t.api.get(`/tickets/${ticketId}`, a.admin.token)).body as TicketView;

const cycles = (ticketId: number) => em().find(TicketTracking, { ticketId }, { orderBy: { id: 'asc' } });
const systemTexts = async (ticketId: number) => {
  await outboxSettled(t.app, wa.id);
  return (await em().find(Message, { ticketId, fromMe: true, isSystem: true }, { orderBy: { id: 'asc' } })).map((m) => m.body);
};

const ACTORS: [string, TicketActor][] = [
  ['the system', SYSTEM],
  ['a flow', { kind: 'flow', flowId: 7 }],
  ['a campaign', { kind: 'campaign', campaignId: 3 }],
  ['an API token', { kind: 'api', tokenId: 11 }],
];

describe.each(ACTORS)('acting as %s', (_label, actor) => {
  it('accepting for an agent starts the cycle and greets the customer in the agent’s name', async () => {
    const { em: scoped, ticket } = await waitingTicket();
    await placeTicket(deps, scoped, ticket, actor, { status: 'open', userId: a.agent.id, queueId: null, whatsappId: wa.id });
    expect(ticket).toMatchObject({ status: 'open', userId: a.agent.id });
    const [cycle] = await cycles(ticket.id);
    expect(cycle.startedAt).not.toBeNull();
    expect(cycle.userId).toBe(a.agent.id);
    // Not the acting user: the customer also hears that the ticket moved to this agent.
    const texts = await systemTexts(ticket.id);
    expect(texts.some((text) => text.includes('Agent Transitions'))).toBe(true);
  });

  it('closing ends the cycle and sends the completion message; with a farewell, that instead', async () => {
    await t.api.put(`/whatsapp/${wa.id}`, { complationMessage: 'Obrigado, {{firstName}}!' }, a.admin.token);
    const plain = await waitingTicket();
    // An integration held the conversation: closing lets go of it.
    await holdConversation(plain.em, plain.ticket, actor, { holder: 'integration', holderId: 5 });
    await plain.em.flush();
    await closeTicket(deps, plain.em, plain.ticket, actor);
    expect(plain.ticket).toMatchObject({ status: 'closed', unreadMessages: 0 });
    expect(await heldBy(plain.ticket.id)).toBe('nobody');
    expect((await cycles(plain.ticket.id))[0].finishedAt).not.toBeNull();
    expect(await systemTexts(plain.ticket.id)).toEqual([expect.stringMatching(/^Obrigado, Pessoa!$/)]);

    const idle = await waitingTicket();
    await closeTicket(deps, idle.em, idle.ticket, actor, { farewell: 'Encerrado por inatividade.' });
    expect(await systemTexts(idle.ticket.id)).toEqual(['Encerrado por inatividade.']);
  });

  it('a queue move by the automation follows the cycle and tells the customer nothing', async () => {
    const queue = await t.api.post('/queue', { name: `Fila ${++seq}`, color: `#${String(100000 + seq)}`, greetingMessage: 'Olá' }, a.admin.token);
    expect(queue.status, JSON.stringify(queue.body)).toBe(201);
    const { em: scoped, ticket } = await waitingTicket();
    await moveToQueue(scoped, ticket, actor, queue.body.id);
    await scoped.flush();
    expect((await em().findOneOrFail(Ticket, ticket.id)).queueId).toBe(queue.body.id);
    expect((await cycles(ticket.id))[0].queueId).toBe(queue.body.id);
    expect(await systemTexts(ticket.id)).toEqual([]);
  });
});

describe('acting as an agent', () => {
  it('accepting a ticket for oneself greets, without a transfer notice; returning puts it back in line', async () => {
    const { em: scoped, ticket } = await waitingTicket();
    await placeTicket(deps, scoped, ticket, byUser(a.agent.id), { status: 'open', userId: a.agent.id, queueId: null, whatsappId: wa.id });
    const texts = await systemTexts(ticket.id);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('*Agent Transitions*');

    await placeTicket(deps, scoped, ticket, byUser(a.agent.id), { status: 'pending', userId: null, queueId: null, whatsappId: wa.id });
    const [cycle] = await cycles(ticket.id);
    expect(cycle).toMatchObject({ startedAt: null, userId: null });
    expect(cycle.queuedAt).not.toBeNull();
  });

  it('reopening a closed ticket starts a new cycle assigned to the one who reopens it', async () => {
    const { em: scoped, ticket } = await waitingTicket();
    await closeTicket(deps, scoped, ticket, byUser(a.admin.id));
    await placeTicket(deps, scoped, ticket, byUser(a.admin.id), { status: 'open', userId: a.admin.id, queueId: null, whatsappId: wa.id });
    const all = await cycles(ticket.id);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ userId: a.admin.id, finishedAt: null });
    expect(all[1].startedAt).not.toBeNull();
    expect(logged).toEqual([]);
  });
});

describe('who holds the conversation', () => {
  it('one record says it: nobody, the automation that took it, or the person who accepted it', async () => {
    const { em: scoped, ticket } = await waitingTicket();
    expect(await heldBy(ticket.id)).toBe('nobody');

    await holdConversation(scoped, ticket, SYSTEM, { holder: 'prompt', holderId: 9 });
    await scoped.flush();
    expect(await heldBy(ticket.id)).toBe('prompt');
    expect(await view(ticket.id)).toMatchObject({ promptId: 9, useIntegration: false, integrationId: null, chatbot: false });

    // A new holder replaces the old one: never two at once.
    await holdConversation(scoped, ticket, { kind: 'flow', flowId: 4 }, { holder: 'integration', holderId: 12 });
    await scoped.flush();
    expect(await heldBy(ticket.id)).toBe('integration');
    expect(await view(ticket.id)).toMatchObject({ promptId: null, useIntegration: true, integrationId: 12 });

    // An agent's PUT without the automation fields: the integration keeps it; `useIntegration: false` lets go.
    await t.api.put(`/tickets/${ticket.id}`, { status: 'open', userId: a.agent.id }, a.admin.token);
    expect(await heldBy(ticket.id)).toBe('integration');
    await t.api.put(`/tickets/${ticket.id}`, { useIntegration: false }, a.admin.token);
    expect(await heldBy(ticket.id)).toBe('person');
    expect(await view(ticket.id)).toMatchObject({ useIntegration: false, integrationId: null, promptId: null });
  });

  it('the chatbot keeps its memory in its hold; a queue move takes it out of the option tree', async () => {
    const { em: scoped, ticket } = await waitingTicket();
    const hold = (await chatbotHold(scoped, ticket))!;
    Object.assign(chatbotState(hold), { navigating: true, optionId: 3, menus: 2 });
    await scoped.flush();
    expect(await view(ticket.id)).toMatchObject({ chatbot: true });

    const other = em();
    await moveToQueue(other, await other.findOneOrFail(Ticket, ticket.id), SYSTEM, null);
    await other.flush();
    const after = chatbotState((await findHold(em(), ticket.id))!);
    expect(after).toMatchObject({ navigating: false, optionId: null, menus: 2 });
    expect(await view(ticket.id)).toMatchObject({ chatbot: false });

    // Another holder's conversation: the chatbot gets no hold of it.
    const taken = await waitingTicket();
    await holdConversation(taken.em, taken.ticket, SYSTEM, { holder: 'flow', holderId: 1 });
    await taken.em.flush();
    expect(await chatbotHold(em(), taken.ticket)).toBeNull();
    await idleHold(taken.em, taken.ticket, 'chatbot');
    expect(await heldBy(taken.ticket.id)).toBe('flow');
  });
});

describe('the ticket log', () => {
  const logOf = async (ticketId: number) =>
    (await em().find(TicketLog, { ticketId }, { orderBy: { id: 'asc' } })).map((l) => ({
      action: l.action,
      actorKind: l.actorKind,
      actorId: l.actorId,
      fromQueueId: l.fromQueueId,
      toQueueId: l.toQueueId,
      fromUserId: l.fromUserId,
      toUserId: l.toUserId,
    }));

  it('records every transition with who acted and where the ticket went', async () => {
    const { em: scoped, ticket } = await waitingTicket();
    // A greeting is required once the company has another queue, which earlier tests created.
    const created = await t.api.post('/queue', { name: `Log ${seq}`, color: '#112233', greetingMessage: 'Olá' }, a.admin.token);
    expect(created.status).toBe(201);
    const queue = created.body;
    await moveToQueue(scoped, ticket, { kind: 'flow', flowId: 5 }, queue.id);
    await scoped.flush();
    await placeTicket(deps, scoped, ticket, byUser(a.agent.id), { status: 'open', userId: a.agent.id, queueId: queue.id, whatsappId: wa.id });
    await placeTicket(deps, scoped, ticket, byUser(a.agent.id), { status: 'pending', userId: null, queueId: queue.id, whatsappId: wa.id });
    await placeTicket(deps, scoped, ticket, byUser(a.admin.id), { status: 'open', userId: a.agent.id, queueId: queue.id, whatsappId: wa.id });
    await closeTicket(deps, scoped, ticket, { kind: 'api', tokenId: 9 });
    await placeTicket(deps, scoped, ticket, { kind: 'campaign', campaignId: 4 }, { status: 'pending', userId: null, queueId: null, whatsappId: wa.id });
    expect(await logOf(ticket.id)).toEqual([
      { action: 'queued', actorKind: 'flow', actorId: 5, fromQueueId: null, toQueueId: queue.id, fromUserId: null, toUserId: null },
      { action: 'accepted', actorKind: 'user', actorId: a.agent.id, fromQueueId: queue.id, toQueueId: queue.id, fromUserId: null, toUserId: a.agent.id },
      { action: 'returned', actorKind: 'user', actorId: a.agent.id, fromQueueId: queue.id, toQueueId: queue.id, fromUserId: a.agent.id, toUserId: null },
      { action: 'transferred', actorKind: 'user', actorId: a.admin.id, fromQueueId: queue.id, toQueueId: queue.id, fromUserId: null, toUserId: a.agent.id },
      { action: 'closed', actorKind: 'api', actorId: 9, fromQueueId: queue.id, toQueueId: queue.id, fromUserId: a.agent.id, toUserId: a.agent.id },
      { action: 'reopened', actorKind: 'campaign', actorId: 4, fromQueueId: queue.id, toQueueId: null, fromUserId: a.agent.id, toUserId: null },
    ]);
  });

  it('the chatbot’s queue choice is the chatbot’s, and an accept through the API is the user’s, on the log and on ticket.changed', async () => {
    const queue = (await t.api.post('/queue', { name: `Bot ${seq}`, color: '#445566', greetingMessage: 'Bem-vindo' }, a.admin.token)).body;
    const bot = await connectSandbox(t.api, a.admin.token);
    expect((await t.api.put(`/whatsapp/${bot.id}`, { name: `Bot ${seq}`, queueIds: [queue.id], greetingMessage: 'Escolha' }, a.admin.token)).status).toBe(200);
    const changes: { actor?: TicketActor; status: string }[] = [];
    t.app.events.on('ticket.changed', ({ ticket, actor }) => void changes.push({ actor, status: ticket.status }));
    const number = `55117${String(++seq).padStart(8, '0')}`;
    await customerSays(t.api, a.admin.token, bot.id, { from: number, body: 'oi' });
    const ticket = await ticketOf(t.api, a.admin.token, number);
    expect(ticket.queueId).toBe(queue.id);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'open', userId: a.admin.id }, a.admin.token)).status).toBe(200);
    expect((await logOf(ticket.id)).map((l) => [l.action, l.actorKind, l.actorId])).toEqual([
      ['queued', 'chatbot', null],
      ['accepted', 'user', a.admin.id],
    ]);
    expect(changes.filter((c) => c.actor).map((c) => [c.actor!.kind, c.status])).toEqual(expect.arrayContaining([['chatbot', 'pending'], ['user', 'open']]));
  });
});
