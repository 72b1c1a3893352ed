import { afterAll, beforeAll, expect, it } from 'vitest';
import { customerSays, outbox, ticketOf } from '../../../testing/conversation.js';
import { createTenant, eventually, outboxSettled, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';

/**
 * The messages API through the sandbox phone: a system sends a notice, retrying it concurrently with one
 * Idempotency-Key (as a client whose first attempt timed out does), the customer gets it once and answers,
 * and the answer lands in the ticket the API opened, where an agent takes it up.
 */
let t: TestApp;
let a: Tenant;
let line: { id: number; token: string };

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'ApiTalk');
  const created = await t.api.post('/whatsapp', { name: 'Loja', provider: 'sandbox' }, a.admin.token);
  await t.api.post(`/sandbox/${created.body.id}/scan`, {}, a.admin.token);
  line = { id: created.body.id, token: created.body.token };
});
afterAll(async () => {
  await t?.stop();
});

it('a notice retried concurrently with one key reaches the phone once, and the answer lands in its ticket', async () => {
  const number = '5531988776655';
  const body = { number, body: 'Seu pedido #4512 saiu para entrega, {{firstName}}.' };
  const attempts = await Promise.all(
    Array.from({ length: 6 }, () =>
      t.api.request('POST', '/api/messages/send', { token: line.token, body, headers: { 'Idempotency-Key': 'pedido-4512-entrega' } }),
    ),
  );
  // Each attempt either got the answer (the first, or a replay of it) or was told the first is still running.
  for (const res of attempts) expect([200, 409], JSON.stringify(res.body)).toContain(res.status);
  const answered = attempts.filter((r) => r.status === 200);
  expect(answered.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
  // Retried once more after the 409s, as a client would: the same answer.
  const settled = await t.api.request('POST', '/api/messages/send', { token: line.token, body, headers: { 'Idempotency-Key': 'pedido-4512-entrega' } });
  expect(settled.status).toBe(200);
  for (const res of answered) expect(res.body).toEqual(settled.body);

  await outboxSettled(t.app, line.id);
  const received = (await outbox(t.api, a.admin.token, line.id)).filter((m) => m.to === number);
  expect(received.map((m) => [m.id, m.body])).toEqual([[settled.body.messages[0].wid, `Seu pedido #4512 saiu para entrega, ${number}.`]]);

  // The customer answers: the same ticket, which an agent accepts and answers in the app.
  await customerSays(t.api, a.admin.token, line.id, { from: number, name: 'Joana', body: 'Obrigada! Chega hoje?' });
  const ticket = await eventually(async () => (await ticketOf(t.api, a.admin.token, number)) ?? false);
  expect(ticket.id).toBe(settled.body.ticketId);
  const messagesOf = async () => (await t.api.get(`/messages/${ticket.id}`, a.admin.token)).body.messages as { body: string; fromMe: boolean }[];
  await eventually(async () => (await messagesOf()).length === 2);
  const messages = await messagesOf();
  expect(messages.map((m) => [m.fromMe, m.body])).toEqual([
    [true, `Seu pedido #4512 saiu para entrega, ${number}.`],
    [false, 'Obrigada! Chega hoje?'],
  ]);
  expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'open' }, a.admin.token)).status).toBe(200);
  const reply = await t.api.post(`/messages/${ticket.id}`, { body: 'Chega sim, até as 18h.' }, a.admin.token);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  await outboxSettled(t.app, line.id);
  expect((await outbox(t.api, a.admin.token, line.id)).filter((m) => m.to === number).map((m) => m.body)).toEqual([
    `Seu pedido #4512 saiu para entrega, ${number}.`,
    'Chega sim, até as 18h.',
  ]);
});
