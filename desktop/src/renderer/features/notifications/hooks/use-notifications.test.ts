import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/render';
import { notificationOf, shouldNotify } from './use-notifications';

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
    expect(shouldNotify(agent, event({ queueId: 9 }))).toBe(false);
  });
  it('pending tickets only when allTicket is enabled', () => {
    expect(shouldNotify(agent, event({ status: 'pending', userId: null }))).toBe(false);
    expect(shouldNotify({ ...agent, allTicket: 'enabled' }, event({ status: 'pending', userId: null }))).toBe(true);
  });
});

describe('the system notification', () => {
  it("shows the message as plain text, without WhatsApp's formatting markers", () => {
    const e = event({ contact: { name: 'Maria' } });
    const message = { ...e.message, body: '*[ 1 ]* - Segunda via _agora_' };
    expect(notificationOf({ ...e, message }, e.ticket)).toEqual({ title: 'Maria', body: '[ 1 ] - Segunda via agora', ticketUuid: 'u' });
  });
});
