import { NOTIFICATION_CLOSE_MS } from '@atrium/shared';
import { callDesktop, hasDesktop, onDesktop } from './desktop-bridge';
import { playNotificationSound } from './sound';

export interface AppNotification {
  title: string;
  body: string;
  /** The ticket it is about: clicking the notification opens it (see onNotificationOpen). */
  ticketUuid?: string;
  /** Or the internal chat it is about: clicking opens the chat (see onChatNotificationOpen). */
  chatUuid?: string;
  icon?: string;
}

type OpenListener = (ticketUuid: string) => void;
const openListeners = new Set<OpenListener>();
const chatOpenListeners = new Set<OpenListener>();

/**
 * Runs when the user clicks a notification (Electron's or the browser's) with the ticket's uuid. The app
 * shell navigates to /tickets/{uuid}.
 */
export const onNotificationOpen = (listener: OpenListener): (() => void) => {
  openListeners.add(listener);
  const offDesktop = onDesktop('onOpenTicket', listener);
  return () => {
    openListeners.delete(listener);
    offDesktop();
  };
};

/** Runs when the user clicks an internal chat's notification, with the chat's uuid (the shell opens /chats/{uuid}). */
export const onChatNotificationOpen = (listener: OpenListener): (() => void) => {
  chatOpenListeners.add(listener);
  const offDesktop = onDesktop('onOpenChat', listener);
  return () => {
    chatOpenListeners.delete(listener);
    offDesktop();
  };
};

/** Asks for the browser's permission once (the desktop app needs none). */
export const requestNotificationPermission = async (): Promise<void> => {
  if (hasDesktop('notify')) return;
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  try {
    await Notification.requestPermission();
  } catch {
    // Old browsers take a callback instead; not worth supporting.
  }
};

/**
 * Shows a system notification (Electron's through window.desktop, else the browser's) and plays the
 * sound at `volume`. Returns whether a notification was shown.
 */
export const notify = async (notification: AppNotification, volume: number): Promise<boolean> => {
  playNotificationSound(volume);
  if (hasDesktop('notify')) {
    const shown = await callDesktop('notify', {
      title: notification.title,
      body: notification.body,
      ...(notification.chatUuid ? { chatUuid: notification.chatUuid } : { ticketUuid: notification.ticketUuid ?? '' }),
    });
    return shown === true;
  }
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
  const shown = new Notification(notification.title, {
    body: notification.body,
    tag: notification.chatUuid ? `chat-${notification.chatUuid}` : notification.ticketUuid,
    icon: notification.icon,
  });
  shown.onclick = () => {
    window.focus();
    if (notification.chatUuid) chatOpenListeners.forEach((listener) => listener(notification.chatUuid as string));
    else if (notification.ticketUuid) openListeners.forEach((listener) => listener(notification.ticketUuid as string));
    shown.close();
  };
  setTimeout(() => shown.close(), NOTIFICATION_CLOSE_MS);
  return true;
};

const BASE_TITLE = typeof document === 'undefined' ? 'Atrium' : document.title || 'Atrium';

/** Unread count: the tray and dock badge in the desktop app, the tab title in a browser. */
export const setUnreadCount = async (count: number): Promise<void> => {
  if (hasDesktop('setUnreadCount')) {
    await callDesktop('setUnreadCount', count);
    return;
  }
  document.title = count > 0 ? `(${count}) ${BASE_TITLE}` : BASE_TITLE;
};

const unreadParts = new Map<string, number>();

/**
 * One source's share of the unread count (the tickets with unread messages, the chats with unread
 * messages...): the badge shows their sum, so each feature feeds its own part without knowing the others.
 */
export const setUnreadPart = async (part: string, count: number): Promise<void> => {
  if (unreadParts.get(part) === count) return;
  unreadParts.set(part, count);
  await setUnreadCount([...unreadParts.values()].reduce((sum, n) => sum + n, 0));
};
