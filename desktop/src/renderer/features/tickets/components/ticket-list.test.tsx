import { DELETED_MESSAGE_PREVIEW } from '@atrium/shared';
import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders, signIn } from '../../../test/render';
import type { Ticket } from '../api/types';
import { makeContact } from '../test/fake-tickets-server';
import { applyTicketEvent, type ListScope, type TicketListData } from '../lib/ticket-rules';
import { TicketList } from './ticket-list';
import { TicketListItem } from './ticket-list-item';
import { markLastMessageDeleted } from '../hooks/use-ticket-list';
import { makeMessage } from '../test/fake-tickets-server';
import { formatTime } from '../../../i18n/format';

const ticket = (overrides: Partial<Ticket> = {}): Ticket => ({
  id: 1,
  uuid: 'uuid-1',
  status: 'open',
  contactId: 10,
  contact: makeContact(10, { name: 'Maria', number: '5511987654321' }),
  userId: 7,
  user: { id: 7, name: 'Ana' },
  queueId: 2,
  queue: { id: 2, name: 'Sales', color: '#ff0000' },
  whatsappId: 1,
  whatsapp: { id: 1, name: 'Demo phone', status: 'CONNECTED' },
  isGroup: false,
  chatbot: false,
  useIntegration: false,
  integrationId: null,
  promptId: null,
  companyId: 1,
  lastMessage: 'Hello there',
  lastMessageAt: new Date().toISOString(),
  unreadMessages: 0,
  tags: [],
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  ...overrides,
});

const handlers = () => ({
  onOpen: vi.fn(),
  onAccept: vi.fn(),
  onClose: vi.fn(),
  onReopen: vi.fn(),
  onPeek: vi.fn(),
});

/** As user 7 (an agent, or an admin with isAdmin). */
const renderItem = (t: Ticket, isAdmin = false) => {
  signIn({ id: 7, profile: isAdmin ? 'admin' : 'user' });
  const h = handlers();
  renderWithProviders(<TicketListItem ticket={t} selected={false} isAdmin={isAdmin} {...h} />);
  return h;
};

describe('ticket list item', () => {
  it('shows accept only on pending tickets, and pending items are not clickable', () => {
    const h = renderItem(ticket({ status: 'pending', userId: null, user: null }));
    expect(screen.getByTestId('ticket-accept-1')).toBeTruthy();
    fireEvent.click(screen.getByTestId('ticket-item-1'));
    expect(h.onOpen).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('ticket-accept-1'));
    expect(h.onAccept).toHaveBeenCalledTimes(1);
  });

  it('shows the last message with WhatsApp formatting rendered, not its markers, on one line', () => {
    renderItem(ticket({ lastMessage: '*Admin:*\nRespondendo _agora_ ~x~ ```code```' }));
    const last = screen.getByTestId('ticket-last-1');
    expect(last.textContent).toBe('Admin: Respondendo agora x code');
    expect(last.querySelector('strong')?.textContent).toBe('Admin:');
    expect(last.querySelector('em')?.textContent).toBe('agora');
    expect(last.querySelector('s')?.textContent).toBe('x');
    expect(last.querySelector('code')?.textContent).toBe('code');
    expect(last.getAttribute('title')).toBe('Admin:\nRespondendo agora x code');
  });

  it('open tickets have no accept, open on click and have a close button', () => {
    const h = renderItem(ticket());
    expect(screen.queryByTestId('ticket-accept-1')).toBeNull();
    fireEvent.click(screen.getByTestId('ticket-item-1'));
    expect(h.onOpen).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByTestId('ticket-close-1'));
    expect(h.onClose).toHaveBeenCalledTimes(1);
    // The close button does not also open the ticket.
    expect(h.onOpen).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('ticket-reopen-1')).toBeNull();
  });

  it("another agent's open ticket (found by a search) has no close button for an agent; an admin has one", () => {
    renderItem(ticket({ userId: 9, user: { id: 9, name: 'Bruno' } }));
    expect(screen.getByTestId('ticket-item-1')).toBeTruthy();
    expect(screen.queryByTestId('ticket-close-1')).toBeNull();
    cleanup();
    renderItem(ticket({ userId: 9, user: { id: 9, name: 'Bruno' } }), true);
    expect(screen.getByTestId('ticket-close-1')).toBeTruthy();
  });

  it('closed tickets show reopen instead of close', () => {
    const h = renderItem(ticket({ status: 'closed' }));
    expect(screen.queryByTestId('ticket-close-1')).toBeNull();
    fireEvent.click(screen.getByTestId('ticket-reopen-1'));
    expect(h.onReopen).toHaveBeenCalledTimes(1);
  });

  it('the peek icon is for admins only', () => {
    renderItem(ticket(), false);
    expect(screen.queryByTestId('ticket-peek-1')).toBeNull();
  });

  it('admins can peek', () => {
    const h = renderItem(ticket(), true);
    fireEvent.click(screen.getByTestId('ticket-peek-1'));
    expect(h.onPeek).toHaveBeenCalledTimes(1);
  });

  it('shows HH:mm for today and dd/MM/yyyy before', () => {
    const today = new Date();
    today.setHours(9, 5, 0, 0);
    renderItem(ticket({ lastMessageAt: today.toISOString(), updatedAt: today.toISOString() }));
    expect(screen.getByTestId('ticket-time-1').textContent).toBe('09:05');
  });

  it('shows dd/MM/yyyy for older tickets', () => {
    renderItem(ticket({ lastMessageAt: new Date(2024, 2, 7, 15, 30).toISOString(), updatedAt: new Date(2024, 2, 7, 15, 30).toISOString() }));
    expect(screen.getByTestId('ticket-time-1').textContent).toBe('07/03/2024');
  });

  it('shows the unread badge only with unread messages, plus name, id, tags and the bot icon', () => {
    renderItem(ticket({ unreadMessages: 3, chatbot: true, tags: [{ id: 5, name: 'VIP', color: '#000' }] }));
    expect(screen.getByTestId('ticket-unread-1').textContent).toBe('3');
    expect(screen.getByTestId('ticket-item-1').textContent).toContain('Maria');
    expect(screen.getByTestId('ticket-item-1').textContent).toContain('#1');
    expect(screen.getByText('VIP')).toBeTruthy();
    expect(screen.getByText('Sales')).toBeTruthy();
    expect(screen.getByText('Demo phone')).toBeTruthy();
    expect(screen.getByTestId('ticket-bot-1')).toBeTruthy();
  });

  it('has no unread badge when everything is read', () => {
    renderItem(ticket({ unreadMessages: 0 }));
    expect(screen.queryByTestId('ticket-unread-1')).toBeNull();
  });
});

describe('ticket list (virtualised)', () => {
  it('renders only a window of 10,000 tickets', () => {
    const many = Array.from({ length: 10000 }, (_, i) => ticket({ id: i + 1, uuid: `u${i + 1}` }));
    renderWithProviders(<TicketList tickets={many} loading={false} hasMore={false} loadMore={() => undefined} isAdmin={false} {...handlers()} />);
    const rendered = screen.getAllByRole('listitem');
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(50);
    expect(screen.getByTestId('ticket-item-1')).toBeTruthy();
  });

  it('loads the next page near the bottom', () => {
    const loadMore = vi.fn();
    const few = [ticket()];
    renderWithProviders(<TicketList tickets={few} loading={false} hasMore loadMore={loadMore} isAdmin={false} {...handlers()} />);
    fireEvent.scroll(screen.getByRole('list'));
    expect(loadMore).toHaveBeenCalled();
  });
});

describe('live list updates', () => {
  const scope: ListScope = { status: 'pending', queueIds: [2], showAll: false, userId: 7 };
  const data = (items: Ticket[]): TicketListData => ({ items, hasMore: false, pageNumber: 1, count: items.length });

  it('adds a ticket of a selected queue to the top and counts it', () => {
    const next = applyTicketEvent(data([ticket({ id: 1, status: 'pending' })]), { action: 'update', ticket: ticket({ id: 2, status: 'pending' }) }, scope);
    expect(next?.items.map((t) => t.id)).toEqual([2, 1]);
    expect(next?.count).toBe(2);
  });

  it('does not add a ticket whose queue is not selected, and removes one that moved there', () => {
    const other = ticket({ id: 2, status: 'pending', queueId: 9, queue: { id: 9, name: 'X', color: '#000' } });
    expect(applyTicketEvent(data([ticket({ id: 1, status: 'pending' })]), { action: 'update', ticket: other }, scope)?.items.map((t) => t.id)).toEqual([1]);
    const moved = applyTicketEvent(data([ticket({ id: 2, status: 'pending' })]), { action: 'update', ticket: other }, scope);
    expect(moved?.items).toEqual([]);
    expect(moved?.count).toBe(0);
  });

  it('removes a ticket that changed status or was deleted', () => {
    const list = data([ticket({ id: 1, status: 'pending' }), ticket({ id: 2, status: 'pending' })]);
    expect(applyTicketEvent(list, { action: 'update', ticket: ticket({ id: 1, status: 'open' }) }, scope)?.items.map((t) => t.id)).toEqual([2]);
    expect(applyTicketEvent(list, { action: 'delete', ticketId: 2 }, scope)?.items.map((t) => t.id)).toEqual([1]);
  });

  it('takes the time and the preview of the same message: a late, older view does not roll them back', () => {
    const today = (h: number, m: number) => {
      const d = new Date();
      d.setHours(h, m, 0, 0);
      return d.toISOString();
    };
    const reply = ticket({ id: 1, status: 'pending', lastMessage: 'Reply at 20:31', lastMessageAt: today(20, 31), updatedAt: today(20, 31) });
    // The view of the customer's 20:30 message, sent before the reply's but heard after it.
    const late = ticket({ id: 1, status: 'pending', lastMessage: 'Question at 20:30', lastMessageAt: today(20, 30), updatedAt: today(20, 30), unreadMessages: 1 });
    const shown = applyTicketEvent(data([reply]), { action: 'update', ticket: late }, scope)!.items[0];
    expect(shown).toMatchObject({ lastMessage: 'Reply at 20:31', lastMessageAt: today(20, 31), unreadMessages: 1 });
    // A newer message's view replaces both together.
    const newer = applyTicketEvent(data([late]), { action: 'update', ticket: reply }, scope)!.items[0];
    expect(newer).toMatchObject({ lastMessage: 'Reply at 20:31', lastMessageAt: today(20, 31) });
  });

  it("the row's time is its preview's message time, not the ticket's last change", () => {
    const message = new Date();
    message.setHours(20, 30, 0, 0);
    const accepted = new Date(message.getTime() + 60_000);
    renderItem(ticket({ lastMessageAt: message.toISOString(), updatedAt: accepted.toISOString() }));
    expect(screen.getByTestId('ticket-time-1').textContent).toBe(formatTime(message));
    cleanup();
  });

  it('updateUnread resets the badge', () => {
    const list = data([ticket({ id: 1, status: 'pending', unreadMessages: 4 })]);
    expect(applyTicketEvent(list, { action: 'updateUnread', ticketId: 1 }, scope)?.items[0].unreadMessages).toBe(0);
  });

  it("the open list drops another user's ticket unless show all is on", () => {
    const open: ListScope = { status: 'open', queueIds: [2], showAll: false, userId: 7 };
    const theirs = ticket({ id: 3, userId: 8 });
    expect(applyTicketEvent(data([]), { action: 'update', ticket: theirs }, open)?.items).toEqual([]);
    expect(applyTicketEvent(data([]), { action: 'update', ticket: theirs }, { ...open, showAll: true })?.items.map((t) => t.id)).toEqual([3]);
  });

  it('search results are patched, never extended', () => {
    const search: ListScope = { search: true, queueIds: [2], showAll: false, userId: 7 };
    expect(applyTicketEvent(data([]), { action: 'update', ticket: ticket({ id: 4 }) }, search)?.items).toEqual([]);
  });
});

describe('a deleted last message', () => {
  const list = (items: Ticket[]): TicketListData => ({ items, hasMore: false, pageNumber: 1, count: items.length });

  it("marks the preview of the ticket whose last message it is, and no other", () => {
    const data = list([ticket({ id: 1, lastMessage: 'Hello there' }), ticket({ id: 2, uuid: 'uuid-2', lastMessage: 'Hello there' })]);
    const next = markLastMessageDeleted(data, makeMessage(9, 1, { body: 'Hello there', isDeleted: true }));
    expect(next?.items.map((t) => !!t.lastMessageDeleted)).toEqual([true, false]);
    // An older message of the ticket: the preview stays.
    expect(markLastMessageDeleted(data, makeMessage(8, 1, { body: 'Earlier', isDeleted: true }))).toBe(data);
  });

  it('shows the deleted marker instead of the text', () => {
    renderItem(ticket({ lastMessage: 'Secret', lastMessageDeleted: true }));
    expect(screen.getByTestId('ticket-last-1').textContent).toBe('This message was deleted');
  });

  it("shows the marker for the server's preview of a deleted message, after a reload too", () => {
    renderItem(ticket({ lastMessage: DELETED_MESSAGE_PREVIEW }));
    expect(screen.getByTestId('ticket-last-1').textContent).toBe('This message was deleted');
  });
});
