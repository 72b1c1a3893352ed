import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendDesktopEvent } from './ipc.js';
import { createNotifier, NOTIFICATION_TIMEOUT_MS, parseTicketNotification, type NotificationOptions } from './notifications.js';
import { FakeWindow } from './testing/fakes.js';
import { revealWindow } from './window.js';

const TICKET = '3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b';

class FakeNotification {
  static created: FakeNotification[] = [];
  shown = false;
  closed = 0;
  private readonly listeners = new Map<string, (() => void)[]>();
  constructor(readonly options: NotificationOptions) {
    FakeNotification.created.push(this);
  }
  show() {
    this.shown = true;
  }
  close() {
    this.closed++;
    this.emit('close');
  }
  on(event: string, listener: () => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string) {
    for (const listener of this.listeners.get(event) ?? []) listener();
  }
}

function setup(options: { supported?: boolean } = {}) {
  const win = new FakeWindow();
  const notifier = createNotifier({
    isSupported: () => options.supported ?? true,
    create: (notificationOptions) => new FakeNotification(notificationOptions),
    revealWindow: () => revealWindow(win),
    openTicket: (uuid) => sendDesktopEvent(win.webContents, 'onOpenTicket', uuid),
    openChat: (uuid) => sendDesktopEvent(win.webContents, 'onOpenChat', uuid),
  });
  return { win, notifier };
}

describe('notifications', () => {
  beforeEach(() => {
    FakeNotification.created = [];
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a silent notification with the title and body (the renderer plays the sound)', () => {
    const { notifier } = setup();
    expect(notifier.notify({ title: 'Maria', body: 'Hello, is my order ready?', ticketUuid: TICKET })).toBe(true);
    const [shown] = FakeNotification.created;
    expect(shown.shown).toBe(true);
    expect(shown.options).toEqual({ title: 'Maria', body: 'Hello, is my order ready?', silent: true });
  });

  it('on click restores and focuses the window and tells the renderer to open the ticket', () => {
    const { win, notifier } = setup();
    win.minimized = true;
    win.visible = false;
    notifier.notify({ title: 'Maria', body: 'Hi', ticketUuid: TICKET });
    expect(win.webContents.sent).toEqual([]);
    FakeNotification.created[0].emit('click');
    expect(win.calls).toEqual(['restore', 'show', 'focus']);
    expect(win.webContents.sent).toEqual([{ channel: 'atrium:onOpenTicket', args: [TICKET] }]);
  });

  it('waits for a loading page before sending the ticket', () => {
    const { win, notifier } = setup();
    win.webContents.loading = true;
    notifier.notify({ title: 'Maria', body: 'Hi', ticketUuid: TICKET });
    FakeNotification.created[0].emit('click');
    expect(win.webContents.sent).toEqual([]);
    win.webContents.finishLoading();
    expect(win.webContents.sent).toEqual([{ channel: 'atrium:onOpenTicket', args: [TICKET] }]);
  });

  it(`closes itself after ${NOTIFICATION_TIMEOUT_MS} ms`, () => {
    const { notifier } = setup();
    notifier.notify({ title: 'Maria', body: 'Hi', ticketUuid: TICKET });
    const [shown] = FakeNotification.created;
    vi.advanceTimersByTime(2999);
    expect(shown.closed).toBe(0);
    expect(notifier.openCount()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(shown.closed).toBe(1);
    expect(notifier.openCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(shown.closed).toBe(1);
  });

  it('does not close again after a click or after the user dismissed it', () => {
    const { notifier } = setup();
    notifier.notify({ title: 'A', body: 'x', ticketUuid: TICKET });
    notifier.notify({ title: 'B', body: 'y', ticketUuid: TICKET });
    const [clicked, dismissed] = FakeNotification.created;
    clicked.emit('click');
    expect(clicked.closed).toBe(1);
    dismissed.emit('close');
    vi.advanceTimersByTime(NOTIFICATION_TIMEOUT_MS);
    expect(clicked.closed).toBe(1);
    expect(dismissed.closed).toBe(0);
    expect(notifier.openCount()).toBe(0);
  });

  it('replaces the notification of the same ticket, not of others', () => {
    const OTHER = '00000000-1111-4222-8333-444444444444';
    const { notifier } = setup();
    notifier.notify({ title: 'Maria', body: 'first', ticketUuid: TICKET });
    notifier.notify({ title: 'João', body: 'other ticket', ticketUuid: OTHER });
    notifier.notify({ title: 'Maria', body: 'second', ticketUuid: TICKET });
    const [first, other, second] = FakeNotification.created;
    expect(first.closed).toBe(1);
    expect(other.closed).toBe(0);
    expect(second.closed).toBe(0);
    expect(notifier.openCount()).toBe(2);
    vi.advanceTimersByTime(NOTIFICATION_TIMEOUT_MS);
    expect([first.closed, other.closed, second.closed]).toEqual([1, 1, 1]);
  });

  it("opens an internal chat's notification in the chat, and never replaces a ticket's with it", () => {
    const { win, notifier } = setup();
    notifier.notify({ title: 'Maria', body: 'ticket', ticketUuid: TICKET });
    notifier.notify({ title: 'Team', body: 'Ana: lunch?', chatUuid: TICKET.toUpperCase() });
    const [ticket, chat] = FakeNotification.created;
    expect(ticket.closed).toBe(0);
    chat.emit('click');
    expect(win.webContents.sent).toEqual([{ channel: 'atrium:onOpenChat', args: [TICKET] }]);
  });

  it('answers false where notifications are unsupported', () => {
    const { notifier } = setup({ supported: false });
    expect(notifier.notify({ title: 'Maria', body: 'Hi', ticketUuid: TICKET })).toBe(false);
    expect(FakeNotification.created).toEqual([]);
  });

  it('refuses a notification without a ticket uuid', () => {
    const { notifier } = setup();
    expect(() => notifier.notify({ title: 'x', body: 'y', ticketUuid: '../settings' })).toThrow(/uuid/);
    expect(() => notifier.notify({ title: 'x', ticketUuid: TICKET })).toThrow(TypeError);
    expect(() => notifier.notify('hello')).toThrow(TypeError);
    expect(() => notifier.notify({ title: 'x', body: 'y', chatUuid: '../settings' })).toThrow(/uuid/);
    expect(() => notifier.notify({ title: 'x', body: 'y', ticketUuid: 'nope', chatUuid: TICKET })).toThrow(/uuid/);
    expect(FakeNotification.created).toEqual([]);
  });

  it('trims long texts', () => {
    const parsed = parseTicketNotification({ title: 'T'.repeat(300), body: ` ${'b'.repeat(2000)} `, ticketUuid: TICKET.toUpperCase() });
    expect(parsed.title).toHaveLength(120);
    expect(parsed.body).toHaveLength(500);
    expect(parsed.body.endsWith('…')).toBe(true);
    expect(parsed.ticketUuid).toBe(TICKET);
  });
});
