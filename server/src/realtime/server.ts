import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import {
  ANNOUNCEMENT_EVENT,
  CLIENT_EVENTS,
  companyEvent,
  rooms,
  SOCKET_PING_MS,
  type CompanyResource,
} from '@atrium/shared';
import type { Config } from '../config.js';
import type { Actor } from '../context.js';
import type { Logger } from '../logger.js';
import { isAllowedOrigin } from '../http/server.js';

/**
 * Which rooms a socket may join. The tickets module supplies the real rules (queues, allTicket,
 * ticket ownership); until then only admins join company-wide rooms.
 */
export interface RoomPolicy {
  notificationRooms(actor: Actor): Promise<string[]>;
  ticketRooms(actor: Actor, status: string): Promise<string[]>;
  ticketRoom(actor: Actor, ticketId: string): Promise<string | null>;
}

const TICKET_STATUSES = ['open', 'pending', 'closed'];

export const defaultRoomPolicy: RoomPolicy = {
  notificationRooms: async (actor) => (actor.profile === 'admin' ? [rooms.notification(actor.companyId)] : []),
  ticketRooms: async (actor, status) =>
    actor.profile === 'admin' && TICKET_STATUSES.includes(status) ? [rooms.status(actor.companyId, status)] : [],
  ticketRoom: async () => null,
};

export interface Presence {
  online(actor: Actor): Promise<void>;
  offline(actor: Actor): Promise<void>;
}

export interface Realtime {
  io: Server;
  /** `company-{id}-{resource}` to every socket of the company. */
  toCompany(companyId: number, resource: CompanyResource, payload: object): void;
  /** `company-{id}-{resource}` to the listed rooms only. */
  toRooms(roomNames: string[], companyId: number, resource: CompanyResource, payload: object): void;
  toUser(userId: number, companyId: number, resource: CompanyResource, payload: object): void;
  announcement(payload: object): void;
  setRoomPolicy(policy: RoomPolicy): void;
  close(): Promise<void>;
}

type ActorSocket = Socket & { data: { actor: Actor; joined: Set<string> } };

export const createRealtime = (options: {
  httpServer: HttpServer;
  config: Config;
  logger: Logger;
  authenticate: (token: string | undefined) => Promise<Actor>;
  presence: Presence;
}): Realtime => {
  const { config, logger, presence } = options;
  let policy: RoomPolicy = defaultRoomPolicy;

  const io = new Server(options.httpServer, {
    pingInterval: SOCKET_PING_MS,
    pingTimeout: SOCKET_PING_MS,
    serveClient: false,
    cors: { origin: config.corsOrigins, credentials: true },
    allowRequest: (req, callback) => {
      const origin = req.headers.origin;
      if (!origin) return callback(null, true);
      const self = `${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${req.headers.host}`;
      callback(null, isAllowedOrigin(config, origin, self));
    },
  });

  io.use(async (socket, next) => {
    try {
      const token = socket.handshake.query.token ?? socket.handshake.auth?.token;
      const actor = await options.authenticate(typeof token === 'string' ? token : undefined);
      Object.assign(socket.data, { actor, joined: new Set<string>() });
      next();
    } catch (err) {
      next(Object.assign(new Error((err as { code?: string }).code ?? 'ERR_SESSION_EXPIRED'), { data: { error: (err as { code?: string }).code ?? 'ERR_SESSION_EXPIRED' } }));
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
  const safely = (socket: ActorSocket, event: string, handler: (arg: unknown) => Promise<void>) =>
    socket.on(event, (arg: unknown) => {
      handler(arg).catch((err: unknown) => logger.warn({ err, event }, 'socket handler failed'));
    });

  io.on('connection', (raw) => {
    const socket = raw as ActorSocket;
    const { actor } = socket.data;
    void joinAll(socket, [rooms.company(actor.companyId), rooms.user(actor.userId)]);
    void presence.online(actor).catch((err: unknown) => logger.warn({ err }, 'presence update failed'));

    safely(socket, CLIENT_EVENTS.joinNotification, async () => joinAll(socket, await policy.notificationRooms(actor)));
    safely(socket, CLIENT_EVENTS.leaveNotification, async () => leaveAll(socket, await policy.notificationRooms(actor)));
    safely(socket, CLIENT_EVENTS.joinTickets, async (status) =>
      joinAll(socket, await policy.ticketRooms(actor, String(status))),
    );
    safely(socket, CLIENT_EVENTS.leaveTickets, async (status) =>
      leaveAll(socket, await policy.ticketRooms(actor, String(status))),
    );
    safely(socket, CLIENT_EVENTS.joinChatBox, async (ticketId) => {
      const room = await policy.ticketRoom(actor, String(ticketId));
      if (room) await joinAll(socket, [room]);
    });
    safely(socket, CLIENT_EVENTS.leaveChatBox, async (ticketId) => {
      const room = await policy.ticketRoom(actor, String(ticketId));
      if (room) await leaveAll(socket, [room]);
    });
    // Presence heartbeat: the client sends it every 300000 ms (spec 01 section 9).
    safely(socket, CLIENT_EVENTS.userStatus, async () => presence.online(actor));

    socket.on('disconnect', () => {
      // Offline once the user's last socket is gone (asked through the adapter, so across instances too).
      void io
        .in(rooms.user(actor.userId))
        .fetchSockets()
        .then((left) => (left.length === 0 ? presence.offline(actor) : undefined))
        .catch((err: unknown) => logger.warn({ err }, 'presence update failed'));
    });
  });

  return {
    io,
    toCompany: (companyId, resource, payload) =>
      io.to(rooms.company(companyId)).emit(companyEvent(companyId, resource), payload),
    toRooms: (roomNames, companyId, resource, payload) => {
      if (roomNames.length > 0) io.to(roomNames).emit(companyEvent(companyId, resource), payload);
    },
    toUser: (userId, companyId, resource, payload) =>
      io.to(rooms.user(userId)).emit(companyEvent(companyId, resource), payload),
    announcement: (payload) => io.emit(ANNOUNCEMENT_EVENT, payload),
    setRoomPolicy: (next) => {
      policy = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        io.close(() => resolve());
      }),
  };
};
