// Tests run in Node: a real HTTP server is the honest way to exercise the API client (XHR, cookies).
// eslint-disable-next-line no-restricted-imports
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface TestRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface TestReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string | string[]>;
  /** Milliseconds to wait before answering (to make concurrency real). */
  delay?: number;
}

export interface TestServer {
  url: string;
  requests: TestRequest[];
  close(): Promise<void>;
}

/** A tiny JSON server on a random port: `handle` answers each request. */
export const startTestServer = async (handle: (req: TestRequest) => TestReply): Promise<TestServer> => {
  const requests: TestRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const request: TestRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      requests.push(request);
      const reply = handle(request);
      setTimeout(() => {
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
      }, reply.delay ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** Points the test window at `url`, so calls to it are same-origin (cookies included). */
export const setWindowUrl = (url: string): void => {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);
};
