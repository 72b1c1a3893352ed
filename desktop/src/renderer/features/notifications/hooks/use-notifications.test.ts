import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/render';
import { announces, inBell, notificationOf, shouldNotify } from './use-notifications';

const event = (ticket: Record<string, unknown>, fromMe = false) => ({
  action: 'create' as const,
  message: { id: 1, ticketId: 1, body: 'hi', fromMe },
  ticket: { id: 1, uuid: 'u', status: 'open', userId: 7, queueId: 2, unreadMessages: 1, lastMessage: 'hi', updatedAt: '', contact: null, ...ticket } as never,
});

describe('shouldNotify', () => {
  const agent = makeUser({ id: 7, profile: 'user', queues: [{ id: 2, name: 'Sales', color: '#f00' }] });

  it('notifies customer messages on the user own ticket', () => {
    expect(shouldNotify(agent, event({}))).toBe(true);
  });
  it('never for the user own messages', () => {
    expect(shouldNotify(agent, event({}, true))).toBe(false);
  });
  it("not for another user's ticket or a queue outside the user's", () => {
    expect(shouldNotify(agent, event({ userId: 8 }))).toBe(false);
    expect(shouldNotify(agent, event({ status: 'pending', userId: null, queueId: 9 }))).toBe(false);
    // Their own ticket notifies whatever its queue (the server's bell has it too).
    expect(shouldNotify(agent, event({ queueId: 9 }))).toBe(true);
  });
  it('waiting tickets of the user queues; queue-less ones only with allTicket', () => {
    expect(shouldNotify(agent, event({ status: 'pending', userId: null }))).toBe(true);
    expect(shouldNotify(agent, event({ status: 'pending', userId: null, queueId: null }))).toBe(false);
    expect(shouldNotify({ ...agent, allTicket: 'enabled' }, event({ status: 'pending', userId: null, queueId: null }))).toBe(true);
  });
  it('not while the chatbot or an integration is talking with the customer', () => {
    expect(shouldNotify(agent, event({ status: 'pending', userId: null, chatbot: true }))).toBe(false);
    expect(shouldNotify(agent, event({ status: 'pending', userId: null, useIntegration: true }))).toBe(false);
  });
});

describe('the handoff', () => {
  const agent = makeUser({ id: 7, profile: 'user', queues: [{ id: 2, name: 'Sales', color: '#f00' }] });
  const waiting = (fields: Record<string, unknown> = {}) =>
    ({ id: 1, uuid: 'u', status: 'pending', userId: null, queueId: 2, unreadMessages: 3, lastMessage: '2', updatedAt: '', contact: null, ...fields }) as never;

  it('is announced once: when the bot lets go of a waiting ticket with unread customer messages', () => {
    expect(announces(agent, waiting(), waiting({ chatbot: true }))).toBe(true);
    expect(announces(agent, waiting(), undefined)).toBe(true);
    // Already waiting for a person in the bell: no second call.
    expect(announces(agent, waiting(), waiting())).toBe(false);
    expect(announces(agent, waiting({ chatbot: true }), undefined)).toBe(false);
  });
  it('not for a ticket outside the bell', () => {
    expect(announces(agent, waiting({ queueId: 9 }), undefined)).toBe(false);
    expect(announces(agent, waiting({ unreadMessages: 0 }), undefined)).toBe(false);
    expect(inBell(agent, waiting({ status: 'open', userId: 8 }))).toBe(false);
  });
});

describe('the system notification', () => {
  it("shows the message as plain text, without WhatsApp's formatting markers", () => {
    const e = event({ contact: { name: 'Maria' } });
    const message = { ...e.message, body: '*[ 1 ]* - Segunda via _agora_' };
    expect(notificationOf({ ...e, message }, e.ticket)).toEqual({ title: 'Maria', body: '[ 1 ] - Segunda via agora', ticketUuid: 'u' });
  });
});
