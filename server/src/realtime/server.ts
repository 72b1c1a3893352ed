import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import { Server, type Socket } from 'socket.io';
import {
  ANNOUNCEMENT_EVENT,
  CLIENT_EVENTS,
  companyEvent,
  PRESENCE_PING_MS,
  rooms,
  SOCKET_PING_MS,
  type CompanyResource,
} from '@atrium/shared';
import type { Config } from '../config.js';
import { isAdmin, type Actor } from '../context.js';
import type { Logger } from '../logger.js';
import { isAllowedOrigin, isListedOrigin } from '../http/server.js';

/**
 * Which rooms a socket may join. The tickets module supplies the real rules (queues, allTicket,
 * ticket ownership); until then only admins join company-wide rooms.
 */
export interface RoomPolicy {
  notificationRooms(actor: Actor): Promise<string[]>;
  ticketRooms(actor: Actor, status: string): Promise<string[]>;
  ticketRoom(actor: Actor, ticketId: string): Promise<string | null>;
  /** Of the rooms a socket holds (besides its company and user rooms), those its user may hold today. */
  roomsStillAllowed(actor: Actor, held: string[]): Promise<string[]>;
}

const TICKET_STATUSES = ['open', 'pending', 'closed'];

export const defaultRoomPolicy: RoomPolicy = {
  notificationRooms: async (actor) => (actor.profile === 'admin' ? [rooms.notification(actor.companyId)] : []),
  ticketRooms: async (actor, status) =>
    actor.profile === 'admin' && TICKET_STATUSES.includes(status) ? [rooms.status(actor.companyId, status)] : [],
  ticketRoom: async () => null,
  roomsStillAllowed: async (actor, held) => {
    if (actor.profile !== 'admin') return [];
    const allowed = [rooms.notification(actor.companyId), ...TICKET_STATUSES.map((s) => rooms.status(actor.companyId, s))];
    return held.filter((room) => allowed.includes(room));
  },
};

export interface Presence {
  online(actor: Actor): Promise<void>;
  offline(actor: Actor): Promise<void>;
}

/**
 * Which of these sessions are still good (not revoked or expired, user and company usable), with the
 * actor each now stands for: profile and super as the database says today.
 */
export type SessionCheck = (sessionIds: string[]) => Promise<Map<string, Actor>>;

export interface Realtime {
  io: Server;
  /** `company-{id}-{resource}` to every socket of the company. */
  toCompany(companyId: number, resource: CompanyResource, payload: object): void;
  /** `company-{id}-{resource}` to the listed rooms only, skipping sockets in `except`. */
  toRooms(roomNames: string[], companyId: number, resource: CompanyResource, payload: object, except?: string[]): void;
  toUser(userId: number, companyId: number, resource: CompanyResource, payload: object): void;
  announcement(payload: object): void;
  setRoomPolicy(policy: RoomPolicy): void;
  /**
   * Checks the sessions behind the sockets again (of one user, one company, or all), on every server
   * process: a socket whose session has ended is disconnected, one whose user lost admin rights leaves the
   * rooms they gave. Resolves once this process's sockets are checked; the others check theirs on hearing it.
   */
  recheck(scope?: { userId?: number; companyId?: number }): Promise<void>;
  /** A session ended (logout): its sockets are disconnected on every server process, without a database read. */
  endSession(sessionId: string): void;
  /** The sockets in a ticket's room that may no longer see it (it moved to another user or queue) leave it, on every process. */
  recheckTicketRoom(companyId: number, ticketId: number): Promise<void>;
  /** Resolves once the user's presence changes queued so far (connects, heartbeats, disconnects) are written. */
  presenceSettled(userId: number): Promise<void>;
  close(): Promise<void>;
}

type ActorSocket = Socket & { data: { actor: Actor; joined: Set<string> } };

/** How often every socket's session is checked again, for sessions ended without an event. */
export const SESSION_RECHECK_MS = PRESENCE_PING_MS;

/** Every socket of a session is in its room, so a logout finds them on whichever process holds them. */
const sessionRoom = (sessionId: string) => `session-${sessionId}`;

/** What one server process asks the others to do with their own sockets (socket.io's serverSideEmit). */
const CLUSTER = { emit: 'atrium:emit', recheck: 'atrium:recheck', recheckTicketRoom: 'atrium:recheck-ticket-room' } as const;

/**
 * Several server processes on one database: every emit, room operation and fetchSockets goes through
 * PostgreSQL (LISTEN/NOTIFY, payloads over 8 kB through the socket_io_attachments table) to the sockets of
 * every process. Two connections: the listener, and one that sends the notifications one after another, so
 * emits reach the other processes (and, as the adapter publishes before it delivers locally, this one) in
 * the order they were made.
 */
const postgresAdapter = (databaseUrl: string, logger: Logger) => {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('error', (err) => logger.warn({ err }, 'realtime adapter lost a database connection'));
  // The adapter keeps one client checked out to LISTEN and hears only its 'end' (then reconnects): the
  // 'error' a database restart raises on it first would, unheard, end the process.
  pool.on('connect', (client) => client.on('error', (err) => logger.warn({ err }, 'realtime adapter connection lost')));
  const adapter = createAdapter(pool, { errorHandler: (err) => logger.warn({ err }, 'realtime adapter error') });
  return {
    adapter,
    /** `listener` hears each time the publishing connection is done with a notification. */
    onSent: (listener: () => void) => pool.on('release', listener),
    close: () => pool.end(),
  };
};

export const createRealtime = (options: {
  httpServer: HttpServer;
  config: Config;
  logger: Logger;
  authenticate: (token: string | undefined) => Promise<Actor>;
  checkSessions: SessionCheck;
  presence: Presence;
  /** The database every server process shares: emits reach their sockets too. Absent: this process's sockets only. */
  databaseUrl?: string;
}): Realtime => {
  const { config, logger, presence } = options;
  let policy: RoomPolicy = defaultRoomPolicy;
  const cluster = options.databaseUrl ? postgresAdapter(options.databaseUrl, logger) : undefined;

  const io = new Server(options.httpServer, {
    pingInterval: SOCKET_PING_MS,
    pingTimeout: SOCKET_PING_MS,
    serveClient: false,
    // Long-polling is cross-origin for the desktop app too; the web app on our own origin needs no header.
    cors: {
      origin: (origin, callback) => callback(null, origin && isListedOrigin(config, origin) ? origin : false),
      credentials: true,
    },
    allowRequest: (req, callback) => {
      const origin = req.headers.origin;
      if (!origin) return callback(null, true);
      callback(null, isAllowedOrigin(config, origin, req.headers.host));
    },
    ...(cluster ? { adapter: cluster.adapter } : {}),
  });

  io.use(async (socket, next) => {
    try {
      const token = socket.handshake.query.token ?? socket.handshake.auth?.token;
      const actor = await options.authenticate(typeof token === 'string' ? token : undefined);
      Object.assign(socket.data, { actor, joined: new Set<string>() });
      next();
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'ERR_SESSION_EXPIRED';
      next(Object.assign(new Error(code), { data: { error: code } }));
    }
  });

  const joinAll = async (socket: ActorSocket, names: string[]) => {
    for (const name of names) {
      await socket.join(name);
      socket.data.joined.add(name);
    }
  };
  const leaveAll = async (socket: ActorSocket, names: string[]) => {
    for (const name of names) {
      await socket.leave(name);
      socket.data.joined.delete(name);
    }
  };
  /**
   * A client event's handler; a client that passes an acknowledgement callback hears when it is done (a
   * join has taken effect), so it can wait for that instead of guessing a delay.
   */
  const safely = (socket: ActorSocket, event: string, handler: (arg: unknown) => Promise<void>) =>
    socket.on(event, (...args: unknown[]) => {
      const ack = typeof args.at(-1) === 'function' ? (args.at(-1) as (result: { ok: boolean }) => void) : undefined;
      const arg = ack && args.length === 1 ? undefined : args[0];
      handler(arg)
        .then(() => ack?.({ ok: true }))
        .catch((err: unknown) => {
          logger.warn({ err, event }, 'socket handler failed');
          ack?.({ ok: false });
        });
    });

  /**
   * Presence changes of one user run one after another, so a quick connect and disconnect (or a heartbeat
   * racing a disconnect) cannot leave a user online with no socket.
   */
  const presenceQueues = new Map<number, Promise<void>>();
  let closing = false;
  const inPresenceOrder = (userId: number, step: () => Promise<void>) => {
    const queued = (presenceQueues.get(userId) ?? Promise.resolve())
      .then(step)
      .catch((err: unknown) => logger.warn({ err }, 'presence update failed'));
    presenceQueues.set(userId, queued);
    void queued.then(() => {
      if (presenceQueues.get(userId) === queued) presenceQueues.delete(userId);
    });
  };

  const baseRooms = (actor: Actor) => [
    rooms.company(actor.companyId),
    rooms.user(actor.userId),
    sessionRoom(actor.sessionId),
    ...(isAdmin(actor) ? [rooms.admins(actor.companyId)] : []),
  ];

  const recheckSockets = async (sockets: ActorSocket[]) => {
    if (sockets.length === 0) return;
    const valid = await options.checkSessions([...new Set(sockets.map((s) => s.data.actor.sessionId))]);
    for (const socket of sockets) {
      const before = socket.data.actor;
      const now = valid.get(before.sessionId);
      if (!now) {
        socket.disconnect();
        continue;
      }
      socket.data.actor = now;
      // A user made admin joins the admins' room now; one who lost the rights leaves it below.
      await joinAll(
        socket,
        baseRooms(now).filter((room) => !socket.data.joined.has(room)),
      );
      // Rooms the user's rights no longer give (a queue taken away, admin rights lost, a ticket no longer
      // theirs) are left; the ones still allowed stay, so the client need not join again.
      const base = baseRooms(now);
      const held = [...socket.data.joined].filter((room) => !base.includes(room));
      if (held.length === 0) continue;
      const allowed = new Set(await policy.roomsStillAllowed(now, held));
      await leaveAll(
        socket,
        held.filter((room) => !allowed.has(room)),
      );
    }
  };

  const localSockets = () => [...io.of('/').sockets.values()] as ActorSocket[];

  type Scope = { userId?: number; companyId?: number };
  const recheckHere = async (scope: Scope = {}) => {
    const sockets = localSockets().filter(
      (s) =>
        s.data.actor &&
        (scope.userId === undefined || s.data.actor.userId === scope.userId) &&
        (scope.companyId === undefined || s.data.actor.companyId === scope.companyId),
    );
    await recheckSockets(sockets);
  };

  const recheckTicketRoomHere = async (companyId: number, ticketId: number) => {
    const room = rooms.ticket(companyId, ticketId);
    for (const socket of localSockets().filter((s) => s.data.joined?.has(room))) {
      if ((await policy.ticketRoom(socket.data.actor, String(ticketId))) !== room) await leaveAll(socket, [room]);
    }
  };

  /**
   * An event to the sockets in `roomNames` (all sockets when empty) but those in `except`: this process's
   * at once, the other processes' through the adapter. socket.io's cluster adapter would deliver a plain
   * emit locally only after publishing it, so a step that follows the emit here (the disconnect of a socket
   * that should hear it first) would overtake it.
   *
   * The adapter publishes one notification at a time, in order, each a round trip to PostgreSQL: while one
   * is on its way the emits made meanwhile wait and then go together, so a burst of messages (or a machine
   * short of CPU, where each round trip is slow) does not queue them up behind one round trip each. Any
   * other request to the other processes first sends what is pending, so they hear emits and requests in
   * the order made.
   */
  const deliver = (roomNames: string[], except: string[], event: string, payload: unknown) => {
    let target = io.local;
    if (roomNames.length > 0) target = target.to(roomNames);
    if (except.length > 0) target = target.except(except);
    target.emit(event, payload);
  };
  type Relayed = [roomNames: string[], except: string[], event: string, payload: unknown];
  let relaying: Relayed[] = [];
  let relayTimer: NodeJS.Immediate | undefined;
  // A notification of ours is on its way: the next emits wait for it (see above), at most a second (a
  // database that does not answer at all must not hold them forever).
  let sending: NodeJS.Timeout | undefined;
  const sent = () => {
    clearTimeout(sending);
    sending = undefined;
    if (relaying.length > 0) flushRelay();
  };
  const flushRelay = () => {
    if (relayTimer) clearImmediate(relayTimer);
    relayTimer = undefined;
    if (relaying.length === 0) return;
    io.serverSideEmit(CLUSTER.emit, relaying);
    relaying = [];
    clearTimeout(sending);
    sending = setTimeout(sent, 1_000);
    sending.unref();
  };
  cluster?.onSent(sent);
  const emit = (roomNames: string[], except: string[], event: string, payload: unknown) => {
    deliver(roomNames, except, event, payload);
    if (!cluster) return;
    relaying.push([roomNames, except, event, payload]);
    // Sent at the end of this turn, with whatever else it emits, unless one is on its way already.
    if (!sending) relayTimer ??= setImmediate(flushRelay);
  };
  /** Sends what is pending, then asks the other processes to do `event` with their sockets. */
  const toPeers = (event: string, ...args: unknown[]) => {
    flushRelay();
    io.serverSideEmit(event, ...args);
  };

  // What another process asks of this one's sockets.
  const fromPeer = (what: string, work: () => Promise<void>) => work().catch((err: unknown) => logger.warn({ err, what }, 'realtime request of another process failed'));
  if (cluster) {
    io.on(CLUSTER.emit, (relayed: Relayed[]) => {
      for (const [roomNames, except, event, payload] of relayed) deliver(roomNames, except, event, payload);
    });
    io.on(CLUSTER.recheck, (scope: Scope) => void fromPeer(CLUSTER.recheck, () => recheckHere(scope)));
    io.on(CLUSTER.recheckTicketRoom, (companyId: number, ticketId: number) =>
      void fromPeer(CLUSTER.recheckTicketRoom, () => recheckTicketRoomHere(companyId, ticketId)),
    );
  }

  // Each process checks its own sockets.
  const sweep = setInterval(() => {
    recheckHere().catch((err: unknown) => logger.warn({ err }, 'session recheck failed'));
  }, SESSION_RECHECK_MS);
  sweep.unref();

  io.on('connection', (raw) => {
    const socket = raw as ActorSocket;
    const { userId } = socket.data.actor;
    // Joined at once (synchronously), so a disconnect of another socket of the user sees this one.
    void socket.join(baseRooms(socket.data.actor));
    for (const room of baseRooms(socket.data.actor)) socket.data.joined.add(room);
    inPresenceOrder(userId, () => presence.online(socket.data.actor));

    // Handlers read socket.data.actor each time: a recheck may have changed the user's rights.
    const actor = () => socket.data.actor;
    safely(socket, CLIENT_EVENTS.joinNotification, async () => joinAll(socket, await policy.notificationRooms(actor())));
    safely(socket, CLIENT_EVENTS.leaveNotification, async () => leaveAll(socket, await policy.notificationRooms(actor())));
    safely(socket, CLIENT_EVENTS.joinTickets, async (status) =>
      joinAll(socket, await policy.ticketRooms(actor(), String(status))),
    );
    safely(socket, CLIENT_EVENTS.leaveTickets, async (status) =>
      leaveAll(socket, await policy.ticketRooms(actor(), String(status))),
    );
    safely(socket, CLIENT_EVENTS.joinChatBox, async (ticketId) => {
      const room = await policy.ticketRoom(actor(), String(ticketId));
      if (room) await joinAll(socket, [room]);
    });
    safely(socket, CLIENT_EVENTS.leaveChatBox, async (ticketId) => {
      const room = await policy.ticketRoom(actor(), String(ticketId));
      if (room) await leaveAll(socket, [room]);
    });
    // Presence heartbeat, sent every 300000 ms (spec 01 section 9); it also checks that the session still holds.
    safely(socket, CLIENT_EVENTS.userStatus, async () => {
      await recheckSockets([socket]);
      if (socket.connected) inPresenceOrder(userId, () => presence.online(socket.data.actor));
    });

    socket.on('disconnect', () => {
      // Offline once the user's last socket is gone (asked through the adapter, so on every process).
      inPresenceOrder(userId, async () => {
        if (closing) {
          // This process's sockets are all closing and its adapter no longer hears answers: with other
          // processes running, the user may still be on one of them (their heartbeat, or the sweep of
          // silent users, settles it); alone, the user has no socket left.
          if ((await io.of('/').adapter.serverCount()) > 1) return;
          await presence.offline(socket.data.actor);
          return;
        }
        const left = await io.in(rooms.user(userId)).fetchSockets();
        if (left.length === 0) await presence.offline(socket.data.actor);
      });
    });
  });

  return {
    io,
    toCompany: (companyId, resource, payload) => emit([rooms.company(companyId)], [], companyEvent(companyId, resource), payload),
    toRooms: (roomNames, companyId, resource, payload, except = []) => {
      if (roomNames.length === 0) return;
      emit(roomNames, except, companyEvent(companyId, resource), payload);
    },
    toUser: (userId, companyId, resource, payload) => emit([rooms.user(userId)], [], companyEvent(companyId, resource), payload),
    presenceSettled: async (userId) => {
      while (presenceQueues.has(userId)) await presenceQueues.get(userId);
    },
    announcement: (payload) => emit([], [], ANNOUNCEMENT_EVENT, payload),
    setRoomPolicy: (next) => {
      policy = next;
    },
    recheck: async (scope = {}) => {
      if (cluster) toPeers(CLUSTER.recheck, scope);
      await recheckHere(scope);
    },
    endSession: (sessionId) => {
      if (cluster) flushRelay();
      io.in(sessionRoom(sessionId)).disconnectSockets();
    },
    recheckTicketRoom: async (companyId, ticketId) => {
      if (cluster) toPeers(CLUSTER.recheckTicketRoom, companyId, ticketId);
      await recheckTicketRoomHere(companyId, ticketId);
    },
    close: async () => {
      closing = true;
      if (cluster) flushRelay();
      clearTimeout(sending);
      clearInterval(sweep);
      await new Promise<void>((resolve) => {
        io.close(() => resolve());
      });
      // Presence writes of the sockets just closed land before the database goes away.
      await Promise.all([...presenceQueues.values()]);
      await cluster?.close().catch((err: unknown) => logger.warn({ err }, 'realtime adapter close failed'));
    },
  };
};
