import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandbox, customerSays, ticketOf } from '../../../testing/conversation.js';
import { createTenant, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { expectError } from '../../../testing/expect.js';

/**
 * GET /tickets/{id}/log: the activity trail the conversation shows (issue 24 item 6): who transferred,
 * accepted, moved (the chatbot), closed and reopened, with the names of users and queues; for whoever may
 * see the ticket, never across companies.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let suporte: { id: number };
let vendas: { id: number };
let wa: { id: number };

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'Trail');
  b = await createTenant(t, 'Elsewhere');
  vendas = (await t.api.post('/queue', { name: 'Vendas', color: '#ff0000', greetingMessage: 'Vendas aqui', orderQueue: 1 }, a.admin.token)).body;
  suporte = (await t.api.post('/queue', { name: 'Suporte', color: '#00ff00', greetingMessage: 'Suporte aqui', orderQueue: 2 }, a.admin.token)).body;
  wa = await connectSandbox(t.api, a.admin.token);
  const res = await t.api.put(`/whatsapp/${wa.id}`, { queueIds: [vendas.id, suporte.id], greetingMessage: 'Escolha:' }, a.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect((await t.api.put(`/users/${a.agent.id}`, { name: 'Ana', queueIds: [vendas.id, suporte.id] }, a.admin.token)).status).toBe(200);
  expect((await t.api.put(`/users/${a.admin.id}`, { name: 'Admin' }, a.admin.token)).status).toBe(200);
});
afterAll(() => t?.stop());

const logOf = async (ticketId: number, token = a.admin.token) => {
  const res = await t.api.get(`/tickets/${ticketId}/log`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.logs as any[];
};

describe('GET /tickets/{id}/log', () => {
  it('tells the chatbot move, the transfer, the accept, the close and the reopen with names', async () => {
    const from = '5511955550001';
    await customerSays(t.api, a.admin.token, wa.id, { from, name: 'Maria', body: 'oi' });
    await customerSays(t.api, a.admin.token, wa.id, { from, name: 'Maria', body: '1' });
    const ticket = await ticketOf(t.api, a.admin.token, from);
    expect(ticket.queueId).toBe(vendas.id);

    // The admin transfers it to Ana in Suporte; Ana gives it back; Ana accepts it; Ana closes; the admin reopens.
    expect((await t.api.put(`/tickets/${ticket.id}`, { queueId: suporte.id, userId: a.agent.id, status: 'open' }, a.admin.token)).status).toBe(200);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'pending' }, a.agent.token)).status).toBe(200);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'open', userId: a.agent.id }, a.agent.token)).status).toBe(200);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, a.agent.token)).status).toBe(200);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'open' }, a.admin.token)).status).toBe(200);

    const logs = await logOf(ticket.id);
    expect(logs.map((l) => ({ action: l.action, actor: l.actor, toQueue: l.toQueue?.name ?? null, toUser: l.toUser?.name ?? null }))).toEqual([
      { action: 'queued', actor: { kind: 'chatbot', id: null, name: null }, toQueue: 'Vendas', toUser: null },
      { action: 'transferred', actor: { kind: 'user', id: a.admin.id, name: 'Admin' }, toQueue: 'Suporte', toUser: 'Ana' },
      { action: 'returned', actor: { kind: 'user', id: a.agent.id, name: 'Ana' }, toQueue: 'Suporte', toUser: null },
      { action: 'accepted', actor: { kind: 'user', id: a.agent.id, name: 'Ana' }, toQueue: 'Suporte', toUser: 'Ana' },
      { action: 'closed', actor: { kind: 'user', id: a.agent.id, name: 'Ana' }, toQueue: 'Suporte', toUser: 'Ana' },
      { action: 'reopened', actor: { kind: 'user', id: a.admin.id, name: 'Admin' }, toQueue: 'Suporte', toUser: 'Admin' },
    ]);
    expect(logs[1].fromQueue).toEqual({ id: vendas.id, name: 'Vendas' });
    expect(logs.every((l) => l.ticketId === ticket.id && !Number.isNaN(Date.parse(l.createdAt)))).toBe(true);

    // The trail is the desk's own: nothing of it reached the customer's phone.
    const sent = (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages as any[];
    expect(sent.some((m) => /Admin|Transfer|Accepted|Closed/.test(m.body ?? ''))).toBe(false);
  });

  it('is refused to another company and to an agent who may not see the ticket', async () => {
    const from = '5511955550002';
    await customerSays(t.api, a.admin.token, wa.id, { from, name: 'João', body: 'oi' });
    const ticket = await ticketOf(t.api, a.admin.token, from);
    expectError(await t.api.get(`/tickets/${ticket.id}/log`, b.admin.token), 404, 'ERR_NO_TICKET_FOUND');
    // Queue-less and unassigned: hidden from an agent without "see tickets without a queue".
    const res = await t.api.get(`/tickets/${ticket.id}/log`, a.agent.token);
    expect(res.status).not.toBe(200);
    expect((await t.api.get(`/tickets/${ticket.id}/log`)).status).toBe(401);
  });
});
