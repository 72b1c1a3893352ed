/**
 * The one contract across the process boundary: main implements it, the preload exposes it as
 * `window.desktop`, the renderer calls it. `DESKTOP_API` below is the single runtime description of
 * it: the preload builds its object from it and main registers one handler per invoke method, so a
 * method added to the interface without a handler or a channel fails the type check or the tests.
 */
import type { DesktopSettings, SettingKey } from './settings.js';

export type { DesktopSettings, Language, SettingKey, Theme, TodoItem } from './settings.js';

/** A native notification for a new message; clicking it opens its ticket, or its internal chat. */
export interface TicketNotification {
  title: string;
  body: string;
  /** The ticket's uuid (the /tickets/:ticketId route segment). */
  ticketUuid?: string;
  /** Instead of a ticket: an internal chat's uuid (the /chats/:id route segment). */
  chatUuid?: string;
}

export interface PlatformInfo {
  os: 'win32' | 'darwin' | 'linux' | 'other';
  arch: string;
  electronVersion: string;
  chromeVersion: string;
  /** False when the refresh token can only be kept in memory (no OS keychain). */
  secureTokenStorage: boolean;
  notificationsSupported: boolean;
}

export type Unsubscribe = () => void;

export interface DesktopApi {
  /** Every preference at once, for start-up. */
  getSettings(): Promise<DesktopSettings>;
  getSetting<K extends SettingKey>(key: K): Promise<DesktopSettings[K]>;
  /** Stores a validated value and resolves with what was stored (a volume is clamped to 0..1). */
  setSetting<K extends SettingKey>(key: K, value: DesktopSettings[K]): Promise<DesktopSettings[K]>;

  /** The server the app talks to: an http(s) origin. */
  getServerUrl(): Promise<string>;
  /** False until the user chose a server (the first-run question). */
  hasServerUrl(): Promise<boolean>;
  /** Resolves with the normalised origin; a different server forgets the refresh token. */
  setServerUrl(url: string): Promise<string>;

  /** The session's refresh token, encrypted at rest with the OS keychain or kept only in memory. */
  getRefreshToken(): Promise<string | null>;
  setRefreshToken(token: string): Promise<void>;
  clearRefreshToken(): Promise<void>;

  /** Shows a silent native notification (the renderer plays the sound); false when unsupported. */
  notify(notification: TicketNotification): Promise<boolean>;
  /** Unread count on the tray icon, its tooltip and the dock/taskbar badge; 0 clears it. */
  setUnreadCount(count: number): Promise<void>;
  /** Called with a ticket uuid when the user clicks a notification. */
  onOpenTicket(callback: (ticketUuid: string) => void): Unsubscribe;
  /** Called with an internal chat's uuid when the user clicks a chat message's notification. */
  onOpenChat(callback: (chatUuid: string) => void): Unsubscribe;

  getVersion(): Promise<string>;
  getPlatform(): Promise<PlatformInfo>;
}

/** How each method crosses the boundary: a renderer→main request, or a main→renderer event. */
export type MethodKind = 'invoke' | 'event';

export const DESKTOP_API = {
  getSettings: 'invoke',
  getSetting: 'invoke',
  setSetting: 'invoke',
  getServerUrl: 'invoke',
  hasServerUrl: 'invoke',
  setServerUrl: 'invoke',
  getRefreshToken: 'invoke',
  setRefreshToken: 'invoke',
  clearRefreshToken: 'invoke',
  notify: 'invoke',
  setUnreadCount: 'invoke',
  onOpenTicket: 'event',
  onOpenChat: 'event',
  getVersion: 'invoke',
  getPlatform: 'invoke',
} as const satisfies Record<keyof DesktopApi, MethodKind>;

export type DesktopMethod = keyof DesktopApi;
export type InvokeMethod = { [M in DesktopMethod]: (typeof DESKTOP_API)[M] extends 'invoke' ? M : never }[DesktopMethod];
export type EventMethod = { [M in DesktopMethod]: (typeof DESKTOP_API)[M] extends 'event' ? M : never }[DesktopMethod];
/** What main sends with an event, e.g. `[ticketUuid]` for onOpenTicket. */
export type EventArgs<M extends EventMethod> = Parameters<Parameters<DesktopApi[M]>[0]>;

// Compile-time guards: requests are async (no sendSync), events take one callback and return an unsubscribe.
type Assert<T extends true> = T;
export type _InvokeMethodsAreAsync = Assert<
  { [M in InvokeMethod]: ReturnType<DesktopApi[M]> extends Promise<unknown> ? true : false }[InvokeMethod]
>;
export type _EventMethodsSubscribe = Assert<
  { [M in EventMethod]: DesktopApi[M] extends (callback: (...args: any[]) => void) => Unsubscribe ? true : false }[EventMethod]
>;

export const IPC_PREFIX = 'atrium:';
/** The global the preload defines in the renderer (`window.desktop`). */
export const DESKTOP_GLOBAL = 'desktop';

export type DesktopChannel<M extends DesktopMethod = DesktopMethod> = `${typeof IPC_PREFIX}${M}`;

export const channelOf = <M extends DesktopMethod>(method: M): DesktopChannel<M> => `${IPC_PREFIX}${method}`;

export const isDesktopMethod = (name: string): name is DesktopMethod => Object.hasOwn(DESKTOP_API, name);

export const DESKTOP_METHODS = Object.keys(DESKTOP_API) as DesktopMethod[];
export const INVOKE_METHODS = DESKTOP_METHODS.filter((m): m is InvokeMethod => DESKTOP_API[m] === 'invoke');
export const EVENT_METHODS = DESKTOP_METHODS.filter((m): m is EventMethod => DESKTOP_API[m] === 'event');
