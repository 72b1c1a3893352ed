import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { makeUser, renderWithProviders } from '../../../test/render';
import { InboxEmpty, inboxEmptyReason } from './inbox-empty';

describe('why the inbox is empty', () => {
  const sales = { id: 2, name: 'Sales', color: '#f00' };

  it('an agent in no queue, or without queue-less conversations, is told why; an admin only on Waiting', () => {
    expect(inboxEmptyReason(makeUser({ profile: 'user', queues: [] }), false, 'open')).toBe('noQueue');
    expect(inboxEmptyReason(makeUser({ profile: 'user', queues: [sales] }), false, 'pending')).toBe('queueLess');
    expect(inboxEmptyReason(makeUser({ profile: 'user', queues: [sales], allTicket: 'enabled' }), false, 'pending')).toBeNull();
    expect(inboxEmptyReason(makeUser({ profile: 'admin' }), true, 'pending')).toBe('admin');
    expect(inboxEmptyReason(makeUser({ profile: 'admin' }), true, 'open')).toBeNull();
  });

  it("names the agent's queues and sends them to their admin; the admin gets the links", () => {
    const { unmount } = renderWithProviders(<InboxEmpty reason="queueLess" queues={['Sales', 'Support']} />);
    expect(screen.getByTestId('inbox-empty').textContent).toContain('(Sales, Support)');
    expect(screen.getByTestId('inbox-empty').textContent).toContain('Ask your admin');
    unmount();
    renderWithProviders(<InboxEmpty reason="admin" queues={[]} />);
    expect(screen.getByRole('link', { name: 'Connections' }).getAttribute('href')).toBe('/connections');
    expect(screen.getByRole('link', { name: 'Users' }).getAttribute('href')).toBe('/users');
  });
});
