import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { CLIENT_EVENTS, companyEvent, PRESENCE_PING_MS, type CompanyResource } from '@atrium/shared';
import { useAuthStore } from '../stores/auth-store';

/** The room registrations a client makes (spec 01 section 7), each with the event that leaves it. */
export const ROOM_EVENTS = {
  tickets: { join: CLIENT_EVENTS.joinTickets, leave: CLIENT_EVENTS.leaveTickets },
  notification: { join: CLIENT_EVENTS.joinNotification, leave: CLIENT_EVENTS.leaveNotification },
  chatBox: { join: CLIENT_EVENTS.joinChatBox, leave: CLIENT_EVENTS.leaveChatBox },
} as const;
export type RoomKind = keyof typeof ROOM_EVENTS;

export interface RealtimeOptions {
  url: string;
  token: string;
  companyId: number;
  userId: number;
  /**
   * The server refused the token or ended the connection: get a fresh token (or null when the session
   * is over; the caller then logs out).
   */
  renewToken: () => Promise<string | null>;
}

type Handler = (...args: unknown[]) => void;

interface Registration {
  kind: RoomKind;
  arg: unknown;
  count: number;
}

/**
 * The app's one socket.io connection: token in the query, websocket first with polling as the fallback,
 * room registrations re-sent after every reconnect, presence every 5 minutes.
 */
let socketIo: Promise<typeof import('socket.io-client')> | undefined;

/**
 * socket.io's client, fetched when a session may start (a stored session being restored, a login): the
 * login screen does without it, and the socket connects as soon as the session is there, as when it was
 * bundled (events sent in between would be missed).
 */
export const loadSocketIo = (): Promise<typeof import('socket.io-client')> =>
  (socketIo ??= import('socket.io-client').catch((error: unknown) => {
    // Offline for a moment: the next connect tries again.
    socketIo = undefined;
    throw error;
  }));

/**
 * Dispatched to `on` listeners (never sent by the server: its events are `company-…`) each time the socket
 * connects, the first time too: events sent while it was not listening are lost, so what is on screen is
 * read again (app/realtime-session.tsx).
 */
export const REALTIME_CONNECTED = 'atrium:connected';

export class RealtimeClient {
  private socket: Socket | undefined;
  private options: RealtimeOptions | undefined;
  private handlers = new Map<string, Set<Handler>>();
  private registrations = new Map<string, Registration>();
  private presence: ReturnType<typeof setInterval> | undefined;
  private renewing = false;
  /** Set while the app is ending the session: a server disconnect is expected then. */
  private closing = false;

  get companyId(): number | undefined {
    return this.options?.companyId;
  }

  get connected(): boolean {
    return this.socket?.connected ?? false;
  }

  connect(options: RealtimeOptions): void {
    this.disconnect();
    this.options = options;
    this.closing = false;
    void loadSocketIo().then(({ io }) => {
      // Disconnected (or connected again with other options) while the client was on its way.
      if (this.options !== options || this.socket) return;
      this.open(io, options);
    });
  }

  private open(io: typeof import('socket.io-client').io, options: RealtimeOptions): void {
    const socket = io(options.url || undefined, {
      transports: ['websocket', 'polling'],
      query: { token: options.token },
      reconnection: true,
      reconnectionDelay: 1000,
      reconnectionDelayMax: 10000,
    });
    this.socket = socket;
    socket.on('connect', () => {
      this.resendRegistrations();
      this.dispatch(REALTIME_CONNECTED, []);
    });
    socket.onAny((event: string, ...args: unknown[]) => this.dispatch(event, args));
    socket.on('connect_error', (err: Error) => {
      // A refused handshake (token) is not retried by socket.io itself; a network failure is.
      if (!socket.active) void this.renew(err.message);
    });
    socket.on('disconnect', (reason) => {
      if (reason === 'io server disconnect' && !this.closing) void this.renew(reason);
    });
    this.presence = setInterval(() => {
      if (socket.connected) socket.emit(CLIENT_EVENTS.userStatus);
    }, PRESENCE_PING_MS);
  }

  /** The session has a new access token: the next (re)connection uses it. */
  updateToken(token: string): void {
    if (!this.options) return;
    // Kept in the options too: a socket still being created picks it up.
    this.options.token = token;
    if (this.socket) this.socket.io.opts.query = { token };
  }

  /** The session is ending: no reconnects from here on. */
  markClosing(): void {
    this.closing = true;
  }

  disconnect(): void {
    if (this.presence) clearInterval(this.presence);
    this.presence = undefined;
    if (this.socket) {
      this.closing = true;
      this.socket.removeAllListeners();
      this.socket.offAny();
      this.socket.disconnect();
    }
    this.socket = undefined;
    this.options = undefined;
  }

  private async renew(reason: string): Promise<void> {
    if (this.renewing || this.closing || !this.options) return;
    const socket = this.socket;
    if (!socket) return;
    this.renewing = true;
    try {
      const token = await this.options.renewToken();
      if (!token || socket !== this.socket || this.closing) return;
      this.updateToken(token);
      // A brief pause, so a server that keeps refusing is not hammered.
      setTimeout(() => {
        if (socket === this.socket && !socket.connected && !this.closing) socket.connect();
      }, reason === 'io server disconnect' ? 1500 : 250);
    } finally {
      this.renewing = false;
    }
  }

  private dispatch(event: string, args: unknown[]): void {
    this.handlers.get(event)?.forEach((handler) => {
      try {
        handler(...args);
      } catch (err) {
        // One broken listener must not stop the others.
        setTimeout(() => {
          throw err;
        });
      }
    });
  }

  /** Listens to an event by its full name. Survives reconnects and re-logins; returns the unsubscribe. */
  on(event: string, handler: Handler): () => void {
    let set = this.handlers.get(event);
    if (!set) {
      set = new Set();
      this.handlers.set(event, set);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  /**
   * Joins a room (joinTickets 'open', joinNotification, joinChatBox ticketId) for as long as the returned
   * release is not called. Sent now if connected and again after every reconnect; left on release.
   */
  join(kind: RoomKind, arg?: unknown): () => void {
    const id = `${kind}:${JSON.stringify(arg ?? null)}`;
    const existing = this.registrations.get(id);
    if (existing) existing.count += 1;
    else {
      this.registrations.set(id, { kind, arg, count: 1 });
      this.emitRoom(ROOM_EVENTS[kind].join, arg);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const registration = this.registrations.get(id);
      if (!registration) return;
      registration.count -= 1;
      if (registration.count === 0) {
        this.registrations.delete(id);
        this.emitRoom(ROOM_EVENTS[kind].leave, arg);
      }
    };
  }

  /** The registrations currently held (tests and diagnostics). */
  heldRooms(): { kind: RoomKind; arg: unknown }[] {
    return [...this.registrations.values()].map(({ kind, arg }) => ({ kind, arg }));
  }

  private emitRoom(event: string, arg: unknown): void {
    if (!this.socket?.connected) return;
    if (arg === undefined) this.socket.emit(event);
    else this.socket.emit(event, arg);
  }

  private resendRegistrations(): void {
    for (const { kind, arg } of this.registrations.values()) this.emitRoom(ROOM_EVENTS[kind].join, arg);
  }
}

export const realtime = new RealtimeClient();

/**
 * Runs `handler` for `company-{companyId}-{resource}` events of the session's company while the
 * component is mounted. The handler may change between renders without resubscribing.
 */
export function useRealtimeEvent<T = unknown>(resource: CompanyResource, handler: (payload: T) => void): void {
  const companyId = useAuthStore((s) => s.user?.companyId);
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!companyId) return;
    return realtime.on(companyEvent(companyId, resource), (payload) => ref.current(payload as T));
  }, [companyId, resource]);
}

/** Like useRealtimeEvent for a global event name (e.g. ANNOUNCEMENT_EVENT); none: listens to nothing. */
export function useRealtimeRawEvent<T = unknown>(event: string | undefined, handler: (payload: T) => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => (event ? realtime.on(event, (payload) => ref.current(payload as T)) : undefined), [event]);
}

/** Holds a room registration while mounted (and `enabled`): useRealtimeRoom('tickets', 'open'). */
export function useRealtimeRoom(kind: RoomKind, arg?: unknown, enabled = true): void {
  const hash = JSON.stringify(arg ?? null);
  const signedIn = useAuthStore((s) => s.status === 'authenticated');
  useEffect(() => {
    if (!enabled || !signedIn) return;
    return realtime.join(kind, JSON.parse(hash) ?? undefined);
  }, [kind, hash, enabled, signedIn]);
}
