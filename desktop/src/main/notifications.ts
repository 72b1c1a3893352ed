import type { TicketNotification } from '../common/desktop-api.js';
import type { IpcRegistrar } from './ipc.js';

export const NOTIFICATION_TIMEOUT_MS = 3000;
const MAX_TITLE = 120;
const MAX_BODY = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The parts of an Electron Notification used here. */
export interface NotificationLike {
  show(): void;
  close(): void;
  on(event: 'click', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

export interface NotificationOptions {
  title: string;
  body: string;
  /** The renderer plays the sound at the user's volume. */
  silent: boolean;
}

export interface NotifierDeps {
  isSupported(): boolean;
  create(options: NotificationOptions): NotificationLike;
  /** Shows, restores and focuses the main window (creating it if it was destroyed). */
  revealWindow(): void;
  /** Tells the renderer to open the ticket (the onOpenTicket event). */
  openTicket(ticketUuid: string): void;
  /** Tells the renderer to open the internal chat (the onOpenChat event). */
  openChat(chatUuid: string): void;
  timeoutMs?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export interface Notifier {
  notify(input: unknown): boolean;
  /** Notifications shown and not yet closed (kept referenced so their click handlers survive GC). */
  openCount(): number;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A checked notification: its texts clipped, and exactly one of a ticket or an internal chat, by uuid. */
export function parseTicketNotification(input: unknown): TicketNotification {
  if (typeof input !== 'object' || input === null) throw new TypeError('A notification is an object');
  const { title, body, ticketUuid, chatUuid } = input as Record<string, unknown>;
  if (typeof title !== 'string' || typeof body !== 'string') throw new TypeError('A notification has a title and a body');
  const texts = { title: clip(title.trim(), MAX_TITLE), body: clip(body.trim(), MAX_BODY) };
  if (ticketUuid === undefined && typeof chatUuid === 'string' && UUID.test(chatUuid)) return { ...texts, chatUuid: chatUuid.toLowerCase() };
  if (typeof ticketUuid !== 'string' || !UUID.test(ticketUuid)) throw new TypeError('A notification names its ticket or chat by uuid');
  return { ...texts, ticketUuid: ticketUuid.toLowerCase() };
}

export function createNotifier(deps: NotifierDeps): Notifier {
  const timeoutMs = deps.timeoutMs ?? NOTIFICATION_TIMEOUT_MS;
  const setTimer = deps.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer = deps.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const open = new Set<NotificationLike>();
  // One notification per ticket: a newer message replaces the older notification.
  const byTicket = new Map<string, () => void>();

  return {
    notify(input) {
      const { title, body, ticketUuid, chatUuid } = parseTicketNotification(input);
      if (!deps.isSupported()) return false;
      // A ticket's and a chat's notifications never replace each other.
      const key = ticketUuid ? `ticket:${ticketUuid}` : `chat:${chatUuid}`;
      byTicket.get(key)?.();
      const notification = deps.create({ title, body, silent: true });
      let closed = false;
      const close = () => finish(true);
      const timer = setTimer(close, timeoutMs);
      const finish = (closeIt: boolean) => {
        if (closed) return;
        closed = true;
        clearTimer(timer);
        open.delete(notification);
        if (byTicket.get(key) === close) byTicket.delete(key);
        if (closeIt) notification.close();
      };
      notification.on('click', () => {
        deps.revealWindow();
        if (ticketUuid) deps.openTicket(ticketUuid);
        else if (chatUuid) deps.openChat(chatUuid);
        close();
      });
      notification.on('close', () => finish(false));
      open.add(notification);
      byTicket.set(key, close);
      notification.show();
      return true;
    },
    openCount: () => open.size,
  };
}

export function registerNotificationIpc(ipc: IpcRegistrar, notifier: Notifier): void {
  ipc.handle('notify', (input) => notifier.notify(input));
}
