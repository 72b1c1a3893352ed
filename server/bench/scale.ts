/* eslint-disable no-console -- a benchmark reports on the console */
/**
 * `npm run bench:scale`: several server processes on one PostgreSQL (figures, never assertions). Server A
 * runs as its own process (`tsx src/main.ts`) with its embedded PostgreSQL and the sandbox connection;
 * customers' messages go to A over HTTP (keep-alive, BENCH_CONCURRENCY senders, default 32), agents'
 * sockets listen for `company-{id}-appMessage` (BENCH_SCALE_SOCKETS sockets, default 10):
 *   1. one process: the sockets on A itself;
 *   2. two processes: server B started on A's PostgreSQL (DATABASE_URL), the sockets on B, so every event
 *      crosses from A to B through the database (the socket.io PostgreSQL adapter).
 * Each run pushes BENCH_SCALE_TOTAL messages (default 10,000, from 2,000 customers) and prints the messages
 * per second A accepted, the delay from a message's request to its event on each socket (p50/p95/p99) and,
 * with two processes, how much later B's sockets hear an event than a socket on A (the relay's own delay).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { callJson, spawnServer, type ServerProcess } from '../testing/process.js';
import { reportLatency } from './bench-app.js';

const TOTAL = Number(process.env.BENCH_SCALE_TOTAL ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const SOCKETS = Number(process.env.BENCH_SCALE_SOCKETS ?? 10);
const CONTACTS = 2_000;
const ADMIN_PASSWORD = 'Bench-scale-1';
const SECRETS = { JWT_SECRET: 'bench-scale-jwt-secret-0123456789abcdef', JWT_REFRESH_SECRET: 'bench-scale-refresh-secret-0123456789abcdef' };

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY + 8 });

const start = (env: Record<string, string> = {}) =>
  spawnServer({
    entry: 'source',
    adminPassword: ADMIN_PASSWORD,
    env: { ...SECRETS, LOG_LEVEL: 'error', LOGIN_MAX_PER_IP: '100000', LOGIN_MAX_PER_EMAIL: '100000', ...env },
    echoStderr: true,
  });

const call = async (server: ServerProcess, method: string, route: string, token?: string, body?: unknown) => {
  const res = await callJson(agent, server.url, method, route, token, body);
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

/** `count` sockets of the admin on `server`, each in the notification room; `onEvent` hears every appMessage create. */
const listen = async (server: ServerProcess, token: string, companyId: number, count: number, onEvent: (body: string) => void) => {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = io(server.url, { transports: ['websocket'], query: { token }, reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    // Joined once the server says so: no event is missed by a join still on its way.
    await socket.timeout(5_000).emitWithAck('joinNotification');
    socket.on(`company-${companyId}-appMessage`, (e: { action: string; message: { body: string } }) => {
      if (e.action === 'create') onEvent(e.message.body);
    });
    sockets.push(socket);
  }
  return sockets;
};

/** Waits until an event emitted by A reaches a socket on `server` (its adapter listens): a setting saved on A. */
const reachable = async (A: ServerProcess, socket: Socket, token: string, companyId: number) => {
  const heard = new Promise<void>((resolve) => socket.once(`company-${companyId}-settings`, () => resolve()));
  await call(A, 'PUT', '/settings/userRating', token, { value: 'disabled' });
  await heard;
};

/** One run: TOTAL messages to A, the events heard on `sockets` of `listenOn`. */
const run = async (label: string, A: ServerProcess, listenOn: ServerProcess, token: string, companyId: number, whatsappId: number, offset: number) => {
  const sentAt = new Map<string, number>();
  const delays: number[] = [];
  let heard = 0;
  // With the sockets on B, one on A tells when A delivered each event itself: B's delay after it is the relay's.
  const onA = new Map<string, number>();
  const onB: [body: string, at: number][] = [];
  const reference = listenOn === A ? [] : await listen(A, token, companyId, 1, (body) => onA.set(body, performance.now()));
  const sockets = await listen(listenOn, token, companyId, SOCKETS, (body) => {
    const now = performance.now();
    const sent = sentAt.get(body);
    if (sent === undefined) return;
    delays.push(now - sent);
    if (listenOn !== A) onB.push([body, now]);
    heard++;
  });
  await reachable(A, sockets[0], token, companyId);
  const jobs = Array.from({ length: TOTAL }, (_, i) => {
    const n = offset + i;
    return { from: String(5521900000000 + (n % CONTACTS)), body: `mensagem ${n}`, id: `SCALE-${n}` };
  });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        sentAt.set(job.body, performance.now());
        await call(A, 'POST', `/sandbox/${whatsappId}/messages`, token, job);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // Every event is on its way once its request was answered: wait for the last ones (bounded).
  const deadline = Date.now() + 30_000;
  while (heard < TOTAL * SOCKETS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const socket of [...sockets, ...reference]) socket.close();
  console.log(`${label}: ${TOTAL} messages in ${seconds.toFixed(1)} s, ${Math.round(TOTAL / seconds)} messages/s accepted by A; events heard ${heard} of ${TOTAL * SOCKETS}`);
  reportLatency(`  request → event on a socket of ${listenOn === A ? 'A' : 'B'}`, delays);
  // Compared once all are in: a socket on B may hear an event before the one on A (its own connection's turn).
  const relays = onB.flatMap(([body, at]) => (onA.has(body) ? [at - onA.get(body)!] : []));
  if (relays.length > 0) reportLatency('  event on A → the same event on B', relays);
  return TOTAL / seconds;
};

const main = async () => {
  console.log(`scale: ${TOTAL} sandbox messages a run from ${CONTACTS} customers, ${CONCURRENCY} concurrent senders, ${SOCKETS} sockets`);
  const A = await start();
  let B: ServerProcess | undefined;
  try {
    const superToken = (await call(A, 'POST', '/auth/login', undefined, { email: A.adminEmail, password: ADMIN_PASSWORD })).token as string;
    const plan = await call(A, 'POST', '/plans', superToken, { name: 'Scale bench', users: 10, connections: 5, queues: 5 });
    const company = await call(A, 'POST', '/companies', superToken, { name: 'Scale bench', email: 'owner@scale.bench', password: ADMIN_PASSWORD, planId: plan.id });
    const token = (await call(A, 'POST', '/auth/login', undefined, { email: 'owner@scale.bench', password: ADMIN_PASSWORD })).token as string;
    const connection = await call(A, 'POST', '/whatsapp', token, { name: 'Bench phone', provider: 'sandbox' });
    await call(A, 'POST', `/sandbox/${connection.id}/scan`, token, {});

    const one = await run('one process', A, A, token, company.id, connection.id, 0);

    // B on A's PostgreSQL (its embedded one listens on loopback).
    const password = readFileSync(path.join(A.dataDir, 'secrets', 'postgres-password'), 'utf8').trim();
    B = await start({ DATABASE_URL: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${A.pgPort}/atrium` });
    const two = await run('two processes', A, B, token, company.id, connection.id, TOTAL);
    console.log(`two processes / one process: ${((two / one) * 100).toFixed(0)}% of the throughput`);
  } finally {
    await B?.stop().catch(() => undefined);
    await A.stop().catch(() => undefined);
    agent.destroy();
  }
};

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
