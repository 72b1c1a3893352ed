/* eslint-disable no-console -- a benchmark reports on the console */
/**
 * `npm run bench:soak`: what the WhatsApp provider keeps in memory over a day (figures, never assertions).
 * 20 Baileys sessions (the real BaileysSession, Baileys' own makeCacheableSignalKeyStore in front of the key
 * store, a socket double speaking Baileys' events and proto objects) live through a day compressed into
 * seconds on an injected clock: customers writing (most of them new that day), group messages, signal-key
 * reads and writes as Baileys makes them for each message, chat timers, number checks, member changes and a
 * few reconnects. The process's heap (after a full GC) is printed at the start, the middle and the end.
 *
 * The key store stands for PostgreSQL and keeps nothing (it answers a key with bytes made from its name), so
 * what grows is the process's own memory. BENCH_SOAK_CONNECTIONS, BENCH_SOAK_MESSAGES (per connection and
 * day) and BENCH_SOAK_DAYS change the size.
 */
import { DisconnectReason, proto, type WAMessage } from '@whiskeysockets/baileys';
import { pino } from 'pino';
import { FakeSocket } from '../testing/baileys-socket.js';
import { createBaileysProvider } from '../src/channels/baileys/index.js';
import type { BaileysSession } from '../src/channels/baileys/session.js';
import type { AuthStore, ChannelEvents } from '../src/channels/types.js';

const CONNECTIONS = Number(process.env.BENCH_SOAK_CONNECTIONS ?? 20);
const MESSAGES = Number(process.env.BENCH_SOAK_MESSAGES ?? 4_000);
const DAYS = Number(process.env.BENCH_SOAK_DAYS ?? 1);
const GROUPS = 60;
/** The day in rounds: each round moves the clock and every connection gets its share of the traffic. */
const ROUNDS = 96 * DAYS;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with node --expose-gc (npm run bench:soak does)');
  process.exit(1);
}

let now = Date.UTC(2026, 0, 5, 0, 0, 0);
const clock = () => now;

/** PostgreSQL's stand-in: stores nothing, answers a signal key with bytes made from its name (what a row would hold). */
const emptyStore = (): AuthStore => ({
  get: async () => null,
  getMany: async <T>(keys: string[]) =>
    Object.fromEntries(keys.filter((k) => !k.startsWith('chat-expiration:')).map((k) => [k, { type: 'Buffer', data: Buffer.alloc(160, k).toString('base64') } as T])),
  set: async () => undefined,
  clear: async () => undefined,
});

let delivered = 0;
const events: ChannelEvents = {
  qr: () => undefined,
  status: () => undefined,
  message: async () => {
    delivered += 1;
  },
  messageUpdate: async () => undefined,
  contactUpdate: async () => undefined,
  mediaDownloaded: async () => undefined,
};

const sockets = new Map<number, FakeSocket>();
const provider = createBaileysProvider({
  now: clock,
  reconnect: { baseMs: 0, maxMs: 0, jitter: 0 },
  fetchWebVersion: async () => undefined,
  numberChecks: { max: 1_000_000, windowMs: 60_000 },
  socketFactory: (config) => {
    const socket = new FakeSocket(config);
    socket.groupMetadata = async (jid) => ({
      id: jid,
      subject: `Group ${jid.slice(0, 6)}`,
      owner: undefined,
      participants: Array.from({ length: 40 }, (_, i) => ({ id: `55119${String(i).padStart(8, '0')}@s.whatsapp.net`, admin: i === 0 ? 'admin' : null })),
    });
    return socket;
  },
});

const sessions: BaileysSession[] = [];
const silent = pino({ level: 'silent' });
const socketOf = (session: BaileysSession) => (session as unknown as { socket: FakeSocket }).socket;

const connectAll = async () => {
  for (let i = 0; i < CONNECTIONS; i += 1) {
    const session = provider.createSession({ whatsappId: i + 1, companyId: 1, events, auth: emptyStore(), logger: silent }) as BaileysSession;
    sessions.push(session);
    await session.start();
    socketOf(session).open(`55110000${String(i).padStart(4, '0')}:1@s.whatsapp.net`);
    sockets.set(i, socketOf(session));
  }
};

let serial = 0;
/** A customer of the day: most write once, a few come back (regulars). */
const customerOf = (connection: number, round: number, k: number) =>
  k % 5 === 0 ? `55118${String(connection).padStart(2, '0')}${String(k % 200).padStart(6, '0')}` : `55117${String(connection).padStart(2, '0')}${String(round * 1000 + k).padStart(6, '0')}`;

const message = (remoteJid: string, text: string, participant?: string, expiration?: number): WAMessage =>
  proto.WebMessageInfo.fromObject({
    key: { remoteJid, fromMe: false, id: `SOAK${(serial += 1)}`, ...(participant ? { participant } : {}) },
    message: expiration ? { extendedTextMessage: { text, contextInfo: { expiration } } } : { conversation: text },
    messageTimestamp: Math.floor(now / 1000),
    pushName: 'Cliente',
  }) as WAMessage;

const round = async (r: number) => {
  const perRound = Math.max(1, Math.round(MESSAGES / 96));
  for (let c = 0; c < sessions.length; c += 1) {
    const session = sessions[c];
    const socket = socketOf(session);
    if (!socket) continue;
    const keys = socket.config.auth.keys;
    const batch: WAMessage[] = [];
    for (let k = 0; k < perRound; k += 1) {
      const number = customerOf(c, r, k);
      const jid = `${number}@s.whatsapp.net`;
      // What Baileys does per message: the sender's session read, then written back (ratchet moved).
      const sessionKey = `${number}.0`;
      await keys.get('session', [sessionKey]);
      await keys.set({ session: { [sessionKey]: Buffer.alloc(160, sessionKey) } });
      if (k % 4 === 0) {
        const group = `1203630${String(c).padStart(2, '0')}${String((r * 7 + k) % GROUPS).padStart(6, '0')}@g.us`;
        await keys.get('sender-key', [`${group}::${number}::0`]);
        batch.push(message(group, 'group hello', jid));
        if (k % 40 === 0) await socket.config.cachedGroupMetadata!(group);
      } else {
        batch.push(message(jid, 'hello', undefined, k % 10 === 0 ? 604_800 : undefined));
      }
      if (k % 25 === 0) await session.checkNumber(customerOf(c, r, k + 1)).catch(() => null);
    }
    socket.emit('messages.upsert', { type: 'notify', messages: batch });
    if (r % 12 === 0) socket.emit('group-participants.update', { id: `1203630${String(c).padStart(2, '0')}${String(r % GROUPS).padStart(6, '0')}@g.us`, author: '', participants: [], action: 'add' });
    // A drop now and then: the session reconnects at once (backoff 0) on a new socket.
    if (r % 32 === 31 && c % 4 === 0) {
      socket.close(DisconnectReason.connectionLost);
      for (let i = 0; i < 1_000 && (!socketOf(session) || socketOf(session) === socket); i += 1) await new Promise((resolve) => setImmediate(resolve));
      socketOf(session)?.open(`55110000${String(c).padStart(4, '0')}:1@s.whatsapp.net`);
    }
  }
  await Promise.all(sessions.map((s) => s.whenIdle()));
};

const heap = () => {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const main = async () => {
  const started = Date.now();
  await connectAll();
  // A first round warms up what every later round uses (code, Baileys' proto classes).
  await round(0);
  const figures: { label: string; heap: number }[] = [{ label: 'start', heap: heap() }];
  for (let r = 1; r <= ROUNDS; r += 1) {
    now += (24 * 60 * 60_000) / 96;
    await round(r);
    if (r === 4) figures.push({ label: '1 hour', heap: heap() });
    if (r === Math.floor(ROUNDS / 2)) figures.push({ label: 'middle', heap: heap() });
  }
  figures.push({ label: 'end', heap: heap() });
  for (const s of sessions) await s.stop();
  const base = figures[0].heap;
  console.log(`bench:soak — ${CONNECTIONS} connections, ${DAYS} day(s) of traffic (${delivered} messages delivered) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const f of figures) console.log(`  heap at ${f.label.padEnd(6)} ${mb(f.heap).padStart(9)}  (${(((f.heap - base) / base) * 100).toFixed(1)}% from start)`);
  const hour = figures[1].heap;
  console.log(`  end against 1 hour in: ${(((figures.at(-1)!.heap - hour) / hour) * 100).toFixed(1)}%`);
};

await main();
