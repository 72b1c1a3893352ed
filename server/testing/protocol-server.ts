import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server a test starts to stand in for a third-party service (DESIGN.md, "External services in
 * tests"): it speaks that service's documented protocol, so the product's real client and HTTP code run
 * against it. Every request is kept for the test to read.
 */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json: any;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface ProtocolServer {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** `port` 0 (the default): any free port; a fixed one for the local set-up (local-services.ts). */
export const startProtocolServer = async (handle: (req: ReceivedRequest) => Reply | Promise<Reply>, port = 0): Promise<ProtocolServer> => {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const text = body.toString('utf8');
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      const received: ReceivedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, text, json };
      requests.push(received);
      try {
        const reply = await handle(received);
        const payload = reply.body === undefined ? '' : Buffer.isBuffer(reply.body) || typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status ?? 200, {
          ...(typeof reply.body === 'object' && !Buffer.isBuffer(reply.body) ? { 'content-type': 'application/json' } : {}),
          ...reply.headers,
        });
        res.end(payload);
      } catch (err) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(err) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
