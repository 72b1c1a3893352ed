import { getConfig } from '@testing-library/react';
import { Server, type Socket } from 'socket.io';

export interface TestSocketServer {
  url: string;
  io: Server;
  /** Every event a client sent, with the server-side socket id. */
  heard: { socketId: string; event: string; args: unknown[] }[];
  /** The handshake token of every connection attempt. */
  tokens: string[];
  sockets: Socket[];
  /** Refuse handshakes: return an error code to refuse, null to accept. */
  refuse: ((token: string) => string | null) | null;
  reset(): void;
  close(): Promise<void>;
}

/** A real socket.io server on a random port, recording what clients do. */
export const startSocketServer = async (): Promise<TestSocketServer> => {
  const io = new Server({ transports: ['websocket', 'polling'], cors: { origin: true } });
  const server: TestSocketServer = {
    url: '',
    io,
    heard: [],
    tokens: [],
    sockets: [],
    refuse: null,
    reset() {
      server.heard.length = 0;
      server.tokens.length = 0;
      server.sockets.length = 0;
      server.refuse = null;
    },
    close: () => io.close(),
  };
  io.use((socket, next) => {
    const token = String(socket.handshake.query.token ?? '');
    server.tokens.push(token);
    const refusal = server.refuse?.(token);
    if (refusal) return next(Object.assign(new Error(refusal), { data: { error: refusal } }));
    next();
  });
  io.on('connection', (socket) => {
    server.sockets.push(socket);
    socket.onAny((event: string, ...args: unknown[]) => server.heard.push({ socketId: socket.id, event, args }));
  });
  io.listen(0);
  if (!io.httpServer.listening) await new Promise<void>((resolve) => io.httpServer.once('listening', () => resolve()));
  const address = io.httpServer.address();
  server.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return server;
};

/**
 * Waits until `check` holds (polling every 20 ms), as long as testing-library's waitFor would (the set-up's
 * asyncUtilTimeout): a shorter default was a deadline on the machine's speed that a busy runner missed.
 */
export const until = async (check: () => boolean, timeout = getConfig().asyncUtilTimeout): Promise<void> => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeout) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
