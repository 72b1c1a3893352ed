import { createHash, randomBytes } from 'node:crypto';
import { PassThrough, Readable, Writable } from 'node:stream';
import { aesEncryptGCM, DisconnectReason, hmacSign, initAuthCreds, proto, type WAMessage, type WAMessageKey } from '@whiskeysockets/baileys';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../errors.js';
import type { AuthStore, CallEvent, ChannelEvents, ChannelPeer, ChannelStatus, InboundMessage, MessageUpdate, SessionOptions } from '../types.js';
import { fromStored, KEY_CACHE_MAX, toStored, useAuthStoreState } from './auth-state.js';
import { createBaileysProvider, type BaileysProviderOptions } from './index.js';
import { FakeSocket } from '../../../testing/baileys-socket.js';
import { mediaContent, quotedMessage, type BaileysSession } from './session.js';

// --- test doubles ---------------------------------------------------------------------------------

/** An AuthStore in memory that stores JSON text, as the jsonb column does: anything not JSON-safe is lost. */
class MemoryAuthStore implements AuthStore {
  readonly rows = new Map<string, string>();
  clears = 0;

  async get<T>(key: string): Promise<T | null> {
    const row = this.rows.get(key);
    return row === undefined ? null : (JSON.parse(row) as T);
  }

  /** The keys asked of the store, one array per read. */
  readonly reads: string[][] = [];
  /** The keys of each write, in order. */
  readonly writes: string[][] = [];

  async getMany<T>(keys: string[]): Promise<Record<string, T>> {
    this.reads.push(keys);
    const out: Record<string, T> = {};
    for (const key of keys) {
      const row = this.rows.get(key);
      if (row !== undefined) out[key] = JSON.parse(row) as T;
    }
    return out;
  }

  async set(entries: Record<string, unknown>): Promise<void> {
    this.writes.push(Object.keys(entries));
    for (const [key, value] of Object.entries(entries)) {
      if (value === null || value === undefined) this.rows.delete(key);
      else this.rows.set(key, JSON.stringify(value));
    }
  }

  async clear(): Promise<void> {
    this.clears += 1;
    this.rows.clear();
  }
}

interface Recorder {
  events: ChannelEvents;
  log: string[];
  statuses: { status: ChannelStatus; info?: { number?: string; reason?: string } }[];
  qrs: string[];
  messages: InboundMessage[];
  updates: MessageUpdate[];
  contacts: ChannelPeer[];
  calls: CallEvent[];
  /** Each pending media as the handler got it: read whole here (small test files), or why it failed. */
  media: { id: string; mimetype?: string; filename?: string; fileLength?: number; data?: string; error?: string }[];
}

const recorder = (): Recorder => {
  const r: Recorder = {
    log: [],
    statuses: [],
    qrs: [],
    messages: [],
    updates: [],
    contacts: [],
    calls: [],
    media: [],
    events: {
      qr: (code) => {
        r.qrs.push(code);
        r.log.push(`qr:${code}`);
      },
      status: (status, info) => {
        r.statuses.push(info ? { status, info } : { status });
        r.log.push(`status:${status}`);
      },
      message: async (m) => {
        r.messages.push(m);
      },
      messageUpdate: async (u) => {
        r.updates.push(u);
      },
      contactUpdate: async (c) => {
        r.contacts.push(c);
      },
      call: async (c) => {
        r.calls.push(c);
      },
      mediaDownloaded: async (d) => {
        if ('error' in d) {
          r.media.push({ id: d.id, error: d.error });
          return;
        }
        try {
          const chunks: Buffer[] = [];
          for await (const chunk of await d.open()) chunks.push(chunk as Buffer);
          r.media.push({ id: d.id, mimetype: d.mimetype, filename: d.filename, fileLength: d.fileLength, data: Buffer.concat(chunks).toString() });
        } catch (err) {
          r.media.push({ id: d.id, error: (err as Error).message });
        }
      },
    },
  };
  return r;
};

const CUSTOMER = '5511988887777';
const CUSTOMER_LID = '203948571234567';
const GROUP = '120363025246125888';

/** A real Baileys message object (see mapping.test.ts). */
const wa = (key: Partial<WAMessageKey> & { remoteJid: string }, message: Record<string, unknown>, extra: Record<string, unknown> = {}): WAMessage => {
  const { remoteJidAlt, participantAlt, ...protoKey } = key;
  const msg = proto.WebMessageInfo.fromObject({ key: { id: 'IN1', fromMe: false, ...protoKey }, message, messageTimestamp: 1_700_000_000, ...extra }) as WAMessage;
  if (remoteJidAlt) msg.key.remoteJidAlt = remoteJidAlt;
  if (participantAlt) msg.key.participantAlt = participantAlt;
  return msg;
};

const silent = pino({ level: 'silent' });

interface Harness {
  session: BaileysSession;
  store: MemoryAuthStore;
  rec: Recorder;
  sockets: FakeSocket[];
  socket: () => FakeSocket;
  idle: () => Promise<void>;
}

const harness = (options: BaileysProviderOptions = {}, store = new MemoryAuthStore(), logger = silent, extra: Partial<SessionOptions> = {}): Harness => {
  const sockets: FakeSocket[] = [];
  const provider = createBaileysProvider({
    reconnect: { baseMs: 2_000, maxMs: 10_000, jitter: 0 },
    downloadMedia: async () => Buffer.from('media-bytes'),
    // No network here: the version fetch answers at once unless a test says otherwise.
    fetchWebVersion: async () => undefined,
    ...options,
    socketFactory: (config) => {
      const socket = new FakeSocket(config);
      sockets.push(socket);
      return socket;
    },
  });
  const rec = recorder();
  const session = provider.createSession({ whatsappId: 7, companyId: 3, events: rec.events, auth: store, logger, ...extra }) as BaileysSession;
  return { session, store, rec, sockets, socket: () => sockets[sockets.length - 1], idle: () => session.whenIdle() };
};

/** Lets pending promise chains (store reads, the reconnect's connect) run. */
const settle = async () => {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
};

// --- lifecycle ------------------------------------------------------------------------------------

describe('BaileysSession lifecycle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports OPENING, each QR code, then CONNECTED with the phone number', async () => {
    const h = harness();
    await h.session.start();
    expect(h.sockets).toHaveLength(1);
    h.socket().emit('connection.update', { qr: '2@first-code' });
    h.socket().emit('connection.update', { qr: '2@second-code' });
    h.socket().open('5511900001111:7@s.whatsapp.net');
    await h.idle();
    expect(h.rec.log).toEqual(['status:OPENING', 'qr:2@first-code', 'qr:2@second-code', 'status:CONNECTED']);
    expect(h.rec.statuses.at(-1)).toEqual({ status: 'CONNECTED', info: { number: '5511900001111' } });
    expect(h.session.isConnected).toBe(true);
    await h.session.stop();
  });

  it('hands Baileys a logger quieter than ours and no echo of its own sends', async () => {
    const h = harness();
    await h.session.start();
    const config = h.socket().config;
    expect(config.emitOwnEvents).toBe(false);
    expect(['warn', 'silent']).toContain(config.logger?.level);
    await h.session.stop();
  });

  it('reconnects after a non-logout close with a doubling, capped backoff', async () => {
    const h = harness();
    await h.session.start();
    h.socket().open();
    h.socket().close(DisconnectReason.connectionLost);
    await h.idle();
    expect(h.rec.statuses.at(-1)).toEqual({ status: 'OPENING', info: { reason: 'connectionClosed:408' } });
    expect(h.session.isConnected).toBe(false);

    // 2 s, then 4 s, then 8 s, then the 10 s cap
    for (const delay of [2_000, 4_000, 8_000, 10_000, 10_000]) {
      const before = h.sockets.length;
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(h.sockets).toHaveLength(before);
      await vi.advanceTimersByTimeAsync(1);
      await settle();
      expect(h.sockets).toHaveLength(before + 1);
      h.socket().close(DisconnectReason.connectionClosed);
    }
    await h.idle();
    // one OPENING at start, one when the connection dropped: retries do not repeat it
    expect(h.rec.statuses.map((s) => s.status)).toEqual(['OPENING', 'CONNECTED', 'OPENING']);
    await h.session.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('starts the backoff over only once a connection stayed open for minutes, not each time it opens', async () => {
    let now = 1_000_000;
    const h = harness({ now: () => now });
    await h.session.start();
    const nextAfter = async (delay: number) => {
      const before = h.sockets.length;
      await vi.advanceTimersByTimeAsync(delay - 1);
      await settle();
      expect(h.sockets).toHaveLength(before);
      await vi.advanceTimersByTimeAsync(1);
      await settle();
      expect(h.sockets).toHaveLength(before + 1);
    };
    h.socket().close(DisconnectReason.connectionLost);
    await nextAfter(2_000);
    // Opens and drops at once: still backing off.
    h.socket().open();
    now += 10_000;
    h.socket().close(DisconnectReason.connectionLost);
    await nextAfter(4_000);
    h.socket().open();
    now += 3 * 60_000 - 1;
    h.socket().close(DisconnectReason.connectionLost);
    await nextAfter(8_000);
    // Stable for 3 minutes: a drop after that starts over.
    h.socket().open();
    now += 3 * 60_000;
    h.socket().close(DisconnectReason.connectionLost);
    await nextAfter(2_000);
    await h.session.stop();
  });

  it('varies each delay by its jitter', async () => {
    const random = vi.spyOn(Math, 'random');
    try {
      const h = harness({ reconnect: { baseMs: 2_000, maxMs: 10_000, jitter: 0.5 } });
      await h.session.start();
      random.mockReturnValue(0);
      h.socket().close(DisconnectReason.connectionLost);
      // 2 s less half: 1 s
      await vi.advanceTimersByTimeAsync(999);
      expect(h.sockets).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      await settle();
      expect(h.sockets).toHaveLength(2);
      await h.session.stop();
    } finally {
      random.mockRestore();
    }
  });

  it('reconnects at once when WhatsApp asks for a restart (after a scan)', async () => {
    const h = harness();
    await h.session.start();
    h.socket().emit('connection.update', { qr: 'code' });
    h.socket().close(DisconnectReason.restartRequired);
    await vi.advanceTimersByTimeAsync(0);
    await settle();
    expect(h.sockets).toHaveLength(2);
    h.socket().open();
    await h.idle();
    expect(h.rec.statuses.at(-1)?.status).toBe('CONNECTED');
    await h.session.stop();
  });

  it.each([
    ['loggedOut', DisconnectReason.loggedOut, 'loggedOut:401'],
    ['forbidden', DisconnectReason.forbidden, 'forbidden:403'],
  ])('on %s: clears the credentials, reports DISCONNECTED with the reason and does not reconnect', async (_name, code, reason) => {
    const h = harness();
    await h.session.start();
    h.socket().emit('creds.update', { registered: true });
    await settle();
    expect(h.store.rows.has('creds')).toBe(true);
    h.socket().open();
    h.socket().close(code);
    await h.idle();
    expect(h.store.rows.size).toBe(0);
    expect(h.store.clears).toBe(1);
    expect(h.rec.statuses.at(-1)).toEqual({ status: 'DISCONNECTED', info: { reason, unlinked: true } });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(h.sockets).toHaveLength(1);
    await expect(h.session.sendText({ to: { number: CUSTOMER, lid: null }, text: 'x' })).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
  });

  it('gives up with TIMEOUT after too many QR codes without a scan, counting across reconnects', async () => {
    const h = harness({ maxQrCodes: 3 });
    await h.session.start();
    h.socket().emit('connection.update', { qr: 'q1' });
    h.socket().emit('connection.update', { qr: 'q2' });
    // WhatsApp ends a QR round by closing (408); the next round continues the count
    h.socket().close(DisconnectReason.timedOut);
    await vi.advanceTimersByTimeAsync(2_000);
    await settle();
    h.socket().emit('connection.update', { qr: 'q3' });
    h.socket().emit('connection.update', { qr: 'q4' });
    await h.idle();
    expect(h.rec.qrs).toEqual(['q1', 'q2', 'q3']);
    expect(h.rec.statuses.at(-1)).toEqual({ status: 'TIMEOUT', info: { reason: 'qrcodeNotScanned' } });
    expect(h.socket().ended).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(h.sockets).toHaveLength(2);
  });

  it('stop() cancels a pending reconnect and leaves no timer', async () => {
    const h = harness();
    await h.session.start();
    h.socket().close(DisconnectReason.connectionLost);
    expect(h.session.hasPendingReconnect).toBe(true);
    await h.session.stop();
    expect(h.session.hasPendingReconnect).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.sockets).toHaveLength(1);
  });

  it('stop() closes a live socket without logging out, keeps the credentials and does not reconnect', async () => {
    const h = harness();
    await h.session.start();
    h.socket().emit('creds.update', { registered: true });
    h.socket().open();
    await h.idle();
    await h.session.stop();
    expect(h.socket().ended).toBe(1);
    expect(h.socket().loggedOut).toBe(0);
    expect(h.store.rows.has('creds')).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.sockets).toHaveLength(1);
    await h.idle();
    expect(h.rec.statuses.map((s) => s.status)).toEqual(['OPENING', 'CONNECTED']);
  });

  it('logout() logs the phone out, forgets the credentials and reports DISCONNECTED once', async () => {
    const h = harness();
    await h.session.start();
    h.socket().emit('creds.update', { registered: true });
    h.socket().open();
    await h.idle();
    await h.session.logout();
    expect(h.socket().loggedOut).toBe(1);
    expect(h.store.rows.size).toBe(0);
    expect(h.rec.statuses.map((s) => s.status)).toEqual(['OPENING', 'CONNECTED', 'DISCONNECTED']);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.sockets).toHaveLength(1);
  });

  it('start() on a running session closes the old socket before opening a new one', async () => {
    const h = harness();
    await h.session.start();
    h.socket().open();
    await h.session.start();
    expect(h.sockets).toHaveLength(2);
    expect(h.sockets[0].ended).toBe(1);
    expect(h.sockets[1].ended).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.sockets).toHaveLength(2);
    await h.session.stop();
  });

  it('can be started again after a stop', async () => {
    const h = harness();
    await h.session.start();
    await h.session.stop();
    await h.session.start();
    expect(h.sockets).toHaveLength(2);
    h.socket().open();
    await h.idle();
    expect(h.rec.statuses.at(-1)?.status).toBe('CONNECTED');
    // the first socket's late events are ignored
    h.sockets[0].close(DisconnectReason.loggedOut);
    await h.idle();
    expect(h.rec.statuses.at(-1)?.status).toBe('CONNECTED');
    await h.session.stop();
  });
});

// --- auth state -----------------------------------------------------------------------------------

describe('auth state in the AuthStore', () => {
  it('serialises Buffers as plain JSON and revives them', () => {
    const creds = initAuthCreds();
    const stored = toStored(creds) as { noiseKey: { public: { type: string; data: unknown } } };
    expect(stored.noiseKey.public).toEqual({ type: 'Buffer', data: Buffer.from(creds.noiseKey.public).toString('base64') });
    const revived = fromStored<typeof creds>(JSON.parse(JSON.stringify(stored)));
    expect(Buffer.isBuffer(revived.noiseKey.public)).toBe(true);
    expect(Buffer.compare(revived.noiseKey.public, creds.noiseKey.public)).toBe(0);
    expect(revived.registrationId).toBe(creds.registrationId);
  });

  it('starts with fresh credentials, saves them on creds.update and loads them back with their Buffers', async () => {
    const store = new MemoryAuthStore();
    const first = harness({}, store);
    await first.session.start();
    const creds = first.socket().config.auth.creds;
    expect(store.rows.has('creds')).toBe(false);
    first.socket().emit('creds.update', { me: { id: '5511900001111:7@s.whatsapp.net', name: 'Atrium' }, registered: true });
    await settle();
    const row = JSON.parse(store.rows.get('creds')!);
    expect(row.me.id).toBe('5511900001111:7@s.whatsapp.net');
    expect(row.signedIdentityKey.private.type).toBe('Buffer');
    await first.session.stop();

    const second = harness({}, store);
    await second.session.start();
    const loaded = second.socket().config.auth.creds;
    expect(loaded.me?.id).toBe('5511900001111:7@s.whatsapp.net');
    expect(loaded.registered).toBe(true);
    expect(Buffer.isBuffer(loaded.signedIdentityKey.private)).toBe(true);
    expect(Buffer.compare(loaded.signedIdentityKey.private, creds.signedIdentityKey.private)).toBe(0);
    expect(Buffer.compare(loaded.signedPreKey.signature, creds.signedPreKey.signature)).toBe(0);
    expect(loaded.advSecretKey).toBe(creds.advSecretKey);
    await second.session.stop();
  });

  it('stores signal keys under type-id and returns them typed, through the socket key store', async () => {
    const store = new MemoryAuthStore();
    const h = harness({}, store);
    await h.session.start();
    const keys = h.socket().config.auth.keys;
    const preKey = { public: Buffer.from([1, 2, 3]), private: Buffer.from([4, 5, 6]) };
    const syncKey = proto.Message.AppStateSyncKeyData.fromObject({ keyData: Buffer.from([9, 9, 9]), timestamp: 1_700_000_000 });
    await keys.set({
      'pre-key': { '1': preKey },
      session: { [`${CUSTOMER}.0`]: Buffer.from([7, 7]) },
      'app-state-sync-key': { AAAAAA: syncKey },
      'lid-mapping': { [CUSTOMER]: CUSTOMER_LID },
    });
    expect([...store.rows.keys()].sort()).toEqual(['app-state-sync-key-AAAAAA', 'creds', 'lid-mapping-5511988887777', 'pre-key-1', `session-${CUSTOMER}.0`]);
    await h.session.stop();

    // a new connection reads them from the store, not from the cache of the old one
    const again = harness({}, store);
    await again.session.start();
    const fresh = again.socket().config.auth.keys;
    const pre = await fresh.get('pre-key', ['1', '2']);
    expect(Object.keys(pre)).toEqual(['1']);
    expect(Buffer.isBuffer(pre['1'].public)).toBe(true);
    expect([...pre['1'].private]).toEqual([4, 5, 6]);
    const sessions = await fresh.get('session', [`${CUSTOMER}.0`]);
    expect(Buffer.isBuffer(sessions[`${CUSTOMER}.0`])).toBe(true);
    const sync = await fresh.get('app-state-sync-key', ['AAAAAA']);
    expect(sync.AAAAAA).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect([...(sync.AAAAAA.keyData as Uint8Array)]).toEqual([9, 9, 9]);
    expect((await fresh.get('lid-mapping', [CUSTOMER]))[CUSTOMER]).toBe(CUSTOMER_LID);

    await fresh.set({ 'pre-key': { '1': null } });
    expect(store.rows.has('pre-key-1')).toBe(false);
    await again.session.stop();
  });

  it('keeps a signal key in memory for 5 minutes after loading it, then reads the store again', async () => {
    let now = 1_000_000;
    const store = new MemoryAuthStore();
    const h = harness({ now: () => now }, store);
    await h.session.start();
    const keys = h.socket().config.auth.keys;
    await keys.set({ session: { [`${CUSTOMER}.0`]: Buffer.from([7, 7]) } });
    const reads = () => store.reads.filter((r) => r.includes(`session-${CUSTOMER}.0`)).length;
    await keys.get('session', [`${CUSTOMER}.0`]);
    now += 5 * 60_000 - 1;
    await keys.get('session', [`${CUSTOMER}.0`]);
    expect(reads()).toBe(0);
    now += 1;
    const again = await keys.get('session', [`${CUSTOMER}.0`]);
    expect(reads()).toBe(1);
    expect([...again[`${CUSTOMER}.0`]]).toEqual([7, 7]);
    await h.session.stop();
  });

  it('holds at most KEY_CACHE_MAX signal keys per connection, the least recently used going first', async () => {
    const store = new MemoryAuthStore();
    const h = harness({}, store);
    await h.session.start();
    const keys = h.socket().config.auth.keys;
    const many = Object.fromEntries(Array.from({ length: KEY_CACHE_MAX }, (_, i) => [String(i), { public: Buffer.from([1]), private: Buffer.from([2]) }]));
    await keys.set({ 'pre-key': many });
    // 0 used again: 1 is now the least recently used, and goes when one more key comes in.
    await keys.get('pre-key', ['0']);
    await keys.set({ 'pre-key': { extra: { public: Buffer.from([3]), private: Buffer.from([4]) } } });
    store.reads.length = 0;
    await keys.get('pre-key', ['0', '2', 'extra']);
    expect(store.reads).toEqual([]);
    await keys.get('pre-key', ['1']);
    expect(store.reads).toEqual([['pre-key-1']]);
    await h.session.stop();
  });

  it('writes the credentials with a key only when they changed', async () => {
    const store = new MemoryAuthStore();
    const first = await useAuthStoreState(store);
    await first.saveCreds();
    store.writes.length = 0;
    const { state } = await useAuthStoreState(store);
    await state.keys.set({ session: { a: Buffer.from([1]) } });
    await state.keys.set({ session: { b: Buffer.from([2]) } });
    expect(store.writes).toEqual([['session-a'], ['session-b']]);
    state.creds.nextPreKeyId += 30;
    await state.keys.set({ 'pre-key': { '1': { public: Buffer.from([1]), private: Buffer.from([2]) } } });
    await state.keys.set({ session: { c: Buffer.from([3]) } });
    expect(store.writes.slice(2)).toEqual([['pre-key-1', 'creds'], ['session-c']]);
    expect(JSON.parse(store.rows.get('creds')!).nextPreKeyId).toBe(state.creds.nextPreKeyId);
  });

  it('does not count credentials as stored when their write failed', async () => {
    const store = new MemoryAuthStore();
    let fail = true;
    const flaky: AuthStore = {
      get: (k) => store.get(k),
      getMany: (k) => store.getMany(k),
      clear: () => store.clear(),
      set: async (entries) => {
        if (fail) throw new Error('database down');
        await store.set(entries);
      },
    };
    const { state, saveCreds } = await useAuthStoreState(flaky);
    state.creds.nextPreKeyId = 77;
    await expect(saveCreds()).rejects.toThrow('database down');
    fail = false;
    await state.keys.set({ session: { a: Buffer.from([1]) } });
    expect(JSON.parse(store.rows.get('creds')!).nextPreKeyId).toBe(77);
  });

  it('writes credential snapshots in order', async () => {
    const writes: unknown[] = [];
    const store = new MemoryAuthStore();
    const slow: AuthStore = {
      get: (k) => store.get(k),
      getMany: (k) => store.getMany(k),
      clear: () => store.clear(),
      set: async (entries) => {
        await new Promise((resolve) => setTimeout(resolve, writes.length === 0 ? 20 : 0));
        writes.push((entries.creds as { nextPreKeyId: number }).nextPreKeyId);
        await store.set(entries);
      },
    };
    const { state, saveCreds } = await useAuthStoreState(slow);
    state.creds.nextPreKeyId = 10;
    const a = saveCreds();
    state.creds.nextPreKeyId = 20;
    const b = saveCreds();
    await Promise.all([a, b]);
    expect(writes.at(-1)).toBe(20);
    expect(JSON.parse(store.rows.get('creds')!).nextPreKeyId).toBe(20);
  });
});

// --- inbound --------------------------------------------------------------------------------------

describe('BaileysSession inbound events', () => {
  const connected = async (options: BaileysProviderOptions = {}) => {
    const h = harness(options);
    await h.session.start();
    h.socket().open();
    await h.idle();
    return h;
  };

  it('delivers notify messages and append messages typed on the phone, and skips other upsert kinds', async () => {
    const h = await connected();
    h.socket().emit('messages.upsert', { type: 'notify', messages: [wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net` }, { conversation: 'hello' }, { pushName: 'Maria' })] });
    h.socket().emit('messages.upsert', {
      type: 'append',
      messages: [wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'PHONE1' }, { extendedTextMessage: { text: 'typed on the phone' } })],
    });
    h.socket().emit('messages.upsert', { type: 'other' as 'notify', messages: [wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'NO' }, { conversation: 'x' })] });
    await h.idle();
    expect(h.rec.messages.map((m) => [m.id, m.fromMe, m.body])).toEqual([
      ['IN1', false, 'hello'],
      ['PHONE1', true, 'typed on the phone'],
    ]);
    expect(h.rec.messages[0].chat).toEqual({ number: CUSTOMER, lid: null, name: 'Maria' });
    await h.session.stop();
  });

  it('delivers a media message at once with its media pending, then hands the media over as a stream', async () => {
    const downloads: string[] = [];
    const h = await connected({
      downloadMedia: async (msg) => {
        downloads.push(msg.key.id!);
        return Readable.from([Buffer.from('%PDF-'), Buffer.from('1.7')]);
      },
    });
    const downloadsWhenStored: string[][] = [];
    const message = h.rec.events.message;
    h.rec.events.message = async (m) => {
      downloadsWhenStored.push([...downloads]);
      await message(m);
    };
    h.socket().emit('messages.upsert', {
      type: 'notify',
      messages: [
        wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'DOC1' }, { documentMessage: { mimetype: 'application/pdf', fileName: 'invoice.pdf', caption: 'here', fileLength: 8 } }),
      ],
    });
    await h.idle();
    const [m] = h.rec.messages;
    expect(m).toMatchObject({ id: 'DOC1', body: 'here', mediaType: 'application', mediaStatus: 'pending' });
    expect(m.media).toBeUndefined();
    // Stored before any byte was fetched.
    expect(downloadsWhenStored).toEqual([[]]);
    expect(downloads).toEqual(['DOC1']);
    expect(h.rec.media).toEqual([{ id: 'DOC1', mimetype: 'application/pdf', filename: 'invoice.pdf', fileLength: 8, data: '%PDF-1.7' }]);
    await h.session.stop();
  });

  it('fetches nothing the handler does not open (an echo of our own send, a duplicate)', async () => {
    const downloads: string[] = [];
    const h = await connected({
      downloadMedia: async (msg) => {
        downloads.push(msg.key.id!);
        return Buffer.from('img');
      },
    });
    h.rec.events.mediaDownloaded = async () => undefined;
    h.socket().emit('messages.upsert', { type: 'notify', messages: [wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'IMG0' }, { imageMessage: { mimetype: 'image/jpeg' } })] });
    await h.idle();
    expect(h.rec.messages.map((m) => m.id)).toEqual(['IMG0']);
    expect(downloads).toEqual([]);
    await h.session.stop();
  });

  it('still delivers a message whose media cannot be downloaded, and says why', async () => {
    const h = await connected({
      downloadMedia: async () => {
        throw new Error('media expired (410)');
      },
    });
    h.socket().emit('messages.upsert', {
      type: 'notify',
      messages: [wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'IMG1' }, { imageMessage: { mimetype: 'image/jpeg', caption: 'photo' } })],
    });
    h.socket().emit('messages.upsert', { type: 'notify', messages: [wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'TXT2' }, { conversation: 'after' })] });
    await h.idle();
    expect(h.rec.messages.map((m) => m.id)).toEqual(['IMG1', 'TXT2']);
    expect(h.rec.messages[0]).toMatchObject({ mediaType: 'image', body: 'photo', mediaStatus: 'pending' });
    expect(h.rec.messages[0].media).toBeUndefined();
    expect(h.rec.media).toEqual([{ id: 'IMG1', error: 'media expired (410)' }]);
    await h.session.stop();
  });

  it('handles the chats of one upsert side by side, each chat in order (by phone number or LID alike)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const h = await connected({
      downloadMedia: async () => {
        await held;
        return Buffer.from('img');
      },
    });
    const OTHER = '5511977776666';
    h.socket().emit('messages.upsert', {
      type: 'notify',
      messages: [
        // Our customer by LID first (its photo is slow to download), then by phone number.
        wa({ remoteJid: `${CUSTOMER_LID}@lid`, remoteJidAlt: `${CUSTOMER}@s.whatsapp.net`, id: 'A1' }, { imageMessage: { mimetype: 'image/jpeg' } }),
        wa({ remoteJid: `${OTHER}@s.whatsapp.net`, id: 'B1' }, { conversation: 'b1' }),
        wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'A2' }, { conversation: 'a2' }),
        wa({ remoteJid: `${OTHER}@s.whatsapp.net`, id: 'B2' }, { conversation: 'b2' }),
      ],
    });
    // The photo's download holds nobody: every message is delivered, each chat's in order.
    await vi.waitFor(() => expect(h.rec.messages).toHaveLength(4));
    const order = h.rec.messages.map((m) => m.id);
    expect(order.indexOf('A1')).toBeLessThan(order.indexOf('A2'));
    expect(order.indexOf('B1')).toBeLessThan(order.indexOf('B2'));
    expect(h.rec.media).toEqual([]);
    release();
    await h.idle();
    expect(h.rec.media).toMatchObject([{ id: 'A1', data: 'img' }]);
    await h.session.stop();
  });

  it('a slow download holds no chat, not even its own: later messages and updates go on', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const h = await connected({
      downloadMedia: async () => {
        await held;
        return Buffer.from('video');
      },
    });
    const OTHER = '5511977776666';
    const upsert = (msg: WAMessage) => h.socket().emit('messages.upsert', { type: 'notify', messages: [msg] });
    upsert(wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'VIDEO' }, { videoMessage: { mimetype: 'video/mp4' } }));
    upsert(wa({ remoteJid: `${OTHER}@s.whatsapp.net`, id: 'B1' }, { conversation: 'b1' }));
    h.socket().emit('messages.update', [{ key: { remoteJid: `${OTHER}@s.whatsapp.net`, fromMe: true, id: 'OURS-B' }, update: { status: proto.WebMessageInfo.Status.READ } }]);
    // The same customer's next message and a receipt do not wait for the video either.
    upsert(wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'A2' }, { conversation: 'a2' }));
    h.socket().emit('messages.update', [{ key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'OURS-A' }, update: { status: proto.WebMessageInfo.Status.READ } }]);
    await vi.waitFor(() => expect(h.rec.updates.map((u) => u.id).sort()).toEqual(['OURS-A', 'OURS-B']));
    await vi.waitFor(() => expect(h.rec.messages.map((m) => m.id).sort()).toEqual(['A2', 'B1', 'VIDEO']));
    const order = h.rec.messages.map((m) => m.id);
    expect(order.indexOf('VIDEO')).toBeLessThan(order.indexOf('A2'));
    expect(h.rec.media).toEqual([]);
    release();
    await h.idle();
    expect(h.rec.media).toMatchObject([{ id: 'VIDEO', data: 'video' }]);
    await h.session.stop();
  });

  it('gives up on a media download that never starts, or stalls half-way', async () => {
    const stalled = new PassThrough();
    stalled.write(Buffer.from('first chunk'));
    const h = await connected({
      mediaTimeoutMs: 30,
      downloadMedia: async (msg) => (msg.key.id === 'VID1' ? new Promise<Buffer>(() => undefined) : stalled),
    });
    h.socket().emit('messages.upsert', {
      type: 'notify',
      messages: [
        wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'VID1' }, { videoMessage: { mimetype: 'video/mp4' } }),
        wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'VID2' }, { videoMessage: { mimetype: 'video/mp4' } }),
      ],
    });
    await h.idle();
    expect(h.rec.messages.map((m) => [m.id, m.mediaStatus])).toEqual([
      ['VID1', 'pending'],
      ['VID2', 'pending'],
    ]);
    const byId = Object.fromEntries(h.rec.media.map((m) => [m.id, m.error]));
    expect(byId).toEqual({ VID1: 'timed out after 30 ms', VID2: 'media download stalled for 30 ms' });
    // The network download is aborted with it.
    expect(stalled.destroyed).toBe(true);
    await h.session.stop();
  });

  it('fetches a stored message’s media again from its stored object (messages.raw, JSON), once however often asked', async () => {
    const got: WAMessage[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const h = await connected({
      downloadMedia: async (msg) => {
        got.push(msg);
        await held;
        return Buffer.from('again');
      },
    });
    const mediaKey = Buffer.from('0123456789abcdef0123456789abcdef');
    const original = wa(
      { remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'DOC9' },
      { documentMessage: { mimetype: 'application/pdf', fileName: 'boleto.pdf', fileLength: 5, mediaKey, url: 'https://mmg.whatsapp.net/d/f/x.enc' } },
    );
    // As the pipeline stores it: JSON text in a jsonb column.
    const raw = JSON.parse(JSON.stringify(original)) as unknown;
    await h.session.refetchMedia('DOC9', raw);
    await h.session.refetchMedia('DOC9', raw);
    release();
    await h.idle();
    expect(h.rec.media).toEqual([{ id: 'DOC9', mimetype: 'application/pdf', filename: 'boleto.pdf', fileLength: 5, data: 'again' }]);
    expect(got).toHaveLength(1);
    expect(got[0].key).toMatchObject({ id: 'DOC9', remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: false });
    expect(Buffer.from(got[0].message!.documentMessage!.mediaKey!).equals(mediaKey)).toBe(true);
    // Done: a later request fetches it once more.
    await h.session.refetchMedia('DOC9', raw);
    await h.idle();
    expect(got).toHaveLength(2);
    await h.session.stop();
  });

  it('a media still downloading since it arrived is not fetched a second time when asked again', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let downloads = 0;
    const h = await connected({
      downloadMedia: async () => {
        downloads += 1;
        await held;
        return Buffer.from('img');
      },
    });
    let stored!: () => void;
    const isStored = new Promise<void>((resolve) => (stored = resolve));
    const message = h.rec.events.message;
    h.rec.events.message = async (m) => {
      await message(m);
      stored();
    };
    const msg = wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'IMG7' }, { imageMessage: { mimetype: 'image/jpeg', url: 'https://mmg.whatsapp.net/x.enc' } });
    h.socket().emit('messages.upsert', { type: 'notify', messages: [msg] });
    await isStored;
    await h.session.refetchMedia('IMG7', JSON.parse(JSON.stringify(msg)));
    release();
    await h.idle();
    expect(downloads).toBe(1);
    expect(h.rec.media).toEqual([{ id: 'IMG7', mimetype: 'image/jpeg', data: 'img' }]);
    await h.session.stop();
  });

  it('refuses to fetch again while not connected, or from an object without media or of another message', async () => {
    const h = await connected();
    const text = wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'TXT9' }, { conversation: 'oi' });
    const image = JSON.parse(JSON.stringify(wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'IMG9' }, { imageMessage: { mimetype: 'image/jpeg' } })));
    const code = (p: Promise<void>) => p.then(() => 'resolved', (err: AppError) => err.code);
    expect(await code(h.session.refetchMedia('TXT9', JSON.parse(JSON.stringify(text))))).toBe('ERR_NO_MEDIA_TO_FETCH');
    expect(await code(h.session.refetchMedia('IMG9', null))).toBe('ERR_NO_MEDIA_TO_FETCH');
    expect(await code(h.session.refetchMedia('OTHER', image))).toBe('ERR_NO_MEDIA_TO_FETCH');
    h.socket().close(500);
    expect(await code(h.session.refetchMedia('IMG9', image))).toBe('ERR_WAPP_NOT_INITIALIZED');
    await h.idle();
    expect(h.rec.media).toEqual([]);
    await h.session.stop();
  });

  it('names group chats from metadata fetched once, and reports the sender with both ids', async () => {
    const h = await connected();
    const group = '120363025246125888@g.us';
    const fromGroup = (id: string) =>
      wa({ remoteJid: group, id, participant: `${CUSTOMER_LID}@lid`, participantAlt: `${CUSTOMER}@s.whatsapp.net` }, { conversation: `msg ${id}` }, { pushName: 'Maria' });
    h.socket().emit('messages.upsert', { type: 'notify', messages: [fromGroup('G1'), fromGroup('G2')] });
    h.socket().emit('messages.upsert', { type: 'notify', messages: [fromGroup('G3')] });
    await h.idle();
    expect(h.socket().groupLookups).toBe(1);
    expect(h.rec.messages).toHaveLength(3);
    for (const m of h.rec.messages) {
      expect(m.chat).toEqual({ number: '120363025246125888', lid: null, isGroup: true, name: 'Clientes VIP' });
      expect(m.participant).toEqual({ number: CUSTOMER, lid: CUSTOMER_LID, name: 'Maria' });
    }
    // a subject change is cached and reported as a contact update of the group
    h.socket().emit('groups.update', [{ id: group, subject: 'Clientes Gold' }]);
    h.socket().emit('messages.upsert', { type: 'notify', messages: [fromGroup('G4')] });
    await h.idle();
    expect(h.rec.contacts).toContainEqual({ number: '120363025246125888', lid: null, isGroup: true, name: 'Clientes Gold' });
    expect(h.rec.messages.at(-1)?.chat.name).toBe('Clientes Gold');
    expect(h.socket().groupLookups).toBe(1);
    await h.session.stop();
  });

  it('reports a customer written to by LID and by phone number with both ids', async () => {
    const h = await connected();
    h.socket().emit('messages.upsert', {
      type: 'notify',
      messages: [
        wa({ remoteJid: `${CUSTOMER_LID}@lid`, remoteJidAlt: `${CUSTOMER}@s.whatsapp.net`, id: 'L1' }, { conversation: 'by lid' }),
        wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, remoteJidAlt: `${CUSTOMER_LID}@lid`, id: 'P1' }, { conversation: 'by phone' }),
      ],
    });
    await h.idle();
    expect(h.rec.messages.map((m) => m.chat)).toEqual([
      { number: CUSTOMER, lid: CUSTOMER_LID },
      { number: CUSTOMER, lid: CUSTOMER_LID },
    ]);
    await h.session.stop();
  });

  it("completes a LID-only sender's number from Baileys' LID mapping store", async () => {
    const h = harness();
    await h.session.start();
    h.socket().signalRepository = {
      lidMapping: { getPNForLID: async (lid) => (lid === `${CUSTOMER_LID}@lid` ? `${CUSTOMER}:0@s.whatsapp.net` : null) },
    };
    h.socket().open();
    h.socket().emit('messages.upsert', { type: 'notify', messages: [wa({ remoteJid: `${CUSTOMER_LID}@lid` }, { conversation: 'hi' })] });
    h.socket().emit('messages.upsert', { type: 'notify', messages: [wa({ remoteJid: '111222333@lid', id: 'UNKNOWN' }, { conversation: 'hi' })] });
    await h.idle();
    expect(h.rec.messages.map((m) => m.chat)).toEqual([
      { number: CUSTOMER, lid: CUSTOMER_LID },
      { number: null, lid: '111222333' },
    ]);
    await h.session.stop();
  });

  it('writes a mention of a LID as the phone number Baileys knows for it, and leaves an unknown one', async () => {
    const h = harness();
    await h.session.start();
    h.socket().signalRepository = {
      lidMapping: { getPNForLID: async (lid) => (lid === `${CUSTOMER_LID}@lid` ? `${CUSTOMER}:0@s.whatsapp.net` : null) },
    };
    h.socket().open();
    const text = `@${CUSTOMER_LID} e @111222333 podem ver? @${CUSTOMER_LID}9 não é menção`;
    const mention = wa(
      { remoteJid: '120363025246125888@g.us', participant: '999888777666555@lid' },
      { extendedTextMessage: { text, contextInfo: { mentionedJid: [`${CUSTOMER_LID}@lid`, '111222333@lid'] } } },
    );
    h.socket().emit('messages.upsert', { type: 'notify', messages: [mention] });
    await h.idle();
    expect(h.rec.messages[0].body).toBe(`@${CUSTOMER} e @111222333 podem ver? @${CUSTOMER_LID}9 não é menção`);
    await h.session.stop();
  });

  it('turns a vote on our stored poll into the options chosen; a vote on a poll it lacks stays a placeholder', async () => {
    const h = await connected();
    const secret = randomBytes(32);
    const poll = proto.WebMessageInfo.fromObject({
      key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'POLL1' },
      message: { pollCreationMessageV3: { name: 'Horário?', options: [{ optionName: 'Manhã' }, { optionName: 'Tarde' }] }, messageContextInfo: { messageSecret: secret } },
    });
    h.rec.events.sentMessage = async (id) => (id === 'POLL1' ? JSON.parse(JSON.stringify(poll)) : null);
    // Encrypted as WhatsApp does (the inverse of Baileys' decryptPollVote); the harness's phone is 5511900001111.
    const voter = `${CUSTOMER}@s.whatsapp.net`;
    const sign = Buffer.concat([Buffer.from('POLL1'), Buffer.from('5511900001111@s.whatsapp.net'), Buffer.from(voter), Buffer.from('Poll Vote'), new Uint8Array([1])]);
    const key = hmacSign(sign, hmacSign(secret, new Uint8Array(32), 'sha256'), 'sha256');
    const iv = randomBytes(12);
    const plain = proto.Message.PollVoteMessage.encode({ selectedOptions: [createHash('sha256').update('Tarde').digest()] }).finish();
    const vote = (id: string, pollId: string) =>
      wa({ remoteJid: voter, id }, {
        pollUpdateMessage: {
          pollCreationMessageKey: { remoteJid: voter, fromMe: true, id: pollId },
          vote: { encPayload: aesEncryptGCM(plain, key, iv, Buffer.from(`POLL1\u0000${voter}`)), encIv: iv },
        },
      });
    h.socket().emit('messages.upsert', { type: 'notify', messages: [vote('V1', 'POLL1'), vote('V2', 'POLL_GONE')] });
    await h.idle();
    expect(h.rec.messages.map((m) => [m.id, m.mediaType, m.body, m.quotedId])).toEqual([
      ['V1', 'chat', '🗳️ Tarde', 'POLL1'],
      ['V2', 'unavailable', 'pollVote', 'POLL_GONE'],
    ]);
    await h.session.stop();
  });

  it('reports edits and revokes once, though Baileys announces them twice', async () => {
    const h = await connected();
    const chat = `${CUSTOMER}@s.whatsapp.net`;
    // the protocol messages as upserts...
    h.socket().emit('messages.upsert', {
      type: 'notify',
      messages: [
        wa({ remoteJid: chat, id: 'E1' }, {
          editedMessage: {
            message: {
              protocolMessage: { key: { remoteJid: chat, fromMe: true, id: 'ORIG1' }, type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT, editedMessage: { conversation: 'fixed' } },
            },
          },
        }),
        wa({ remoteJid: chat, id: 'R1' }, { protocolMessage: { key: { remoteJid: chat, fromMe: true, id: 'ORIG2' }, type: proto.Message.ProtocolMessage.Type.REVOKE } }),
      ],
    });
    // ...and the updates Baileys derives from them
    h.socket().emit('messages.update', [
      { key: { remoteJid: chat, fromMe: false, id: 'ORIG1' }, update: { message: { editedMessage: { message: { conversation: 'fixed' } } } } },
      { key: { remoteJid: chat, fromMe: false, id: 'ORIG2' }, update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE } },
    ]);
    await h.idle();
    const customer = { chat: { number: CUSTOMER, lid: null }, fromMe: false };
    expect(h.rec.updates).toEqual([
      { id: 'ORIG1', fromMe: false, editedBody: 'fixed', author: customer },
      { id: 'ORIG2', fromMe: false, revoked: true, author: customer },
    ]);
    expect(h.rec.messages).toEqual([]);
    // a second, different edit of the same message is news
    h.socket().emit('messages.update', [{ key: { remoteJid: chat, fromMe: false, id: 'ORIG1' }, update: { message: { editedMessage: { message: { conversation: 'fixed again' } } } } }]);
    await h.idle();
    expect(h.rec.updates.at(-1)).toEqual({ id: 'ORIG1', fromMe: false, editedBody: 'fixed again', author: customer });
    await h.session.stop();
  });

  it('says whether a group delete comes from an admin of the group, as its metadata says', async () => {
    const h = await connected();
    const group = `${GROUP}@g.us`;
    const admin = '5511911112222@s.whatsapp.net';
    const member = '5511933334444@s.whatsapp.net';
    h.socket().emit('groups.upsert', [
      { id: group, owner: undefined, subject: 'Equipe', participants: [{ id: admin, admin: 'admin' }, { id: member, admin: null }] },
    ]);
    const revokeBy = (participant: string, id: string) =>
      wa({ remoteJid: group, participant, id }, { protocolMessage: { key: { remoteJid: group, fromMe: false, participant: member, id: `TARGET-${id}` }, type: proto.Message.ProtocolMessage.Type.REVOKE } });
    h.socket().emit('messages.upsert', { type: 'notify', messages: [revokeBy(admin, 'A'), revokeBy(member, 'M')] });
    await h.idle();
    expect(h.rec.updates.map((u) => [u.id, u.author?.groupAdmin])).toEqual([
      ['TARGET-A', true],
      ['TARGET-M', false],
    ]);
    await h.session.stop();
  });

  it('reports delivery statuses and user receipts as acks', async () => {
    const h = await connected();
    const key = { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: '3EB0ABC' };
    h.socket().emit('messages.update', [
      { key, update: { status: proto.WebMessageInfo.Status.SERVER_ACK } },
      { key, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } },
      { key, update: { status: proto.WebMessageInfo.Status.READ } },
      { key, update: { pollUpdates: [] } },
    ]);
    h.socket().emit('message-receipt.update', [
      { key: { ...key, remoteJid: '120363025246125888@g.us', id: 'GRP1' }, receipt: proto.UserReceipt.fromObject({ userJid: `${CUSTOMER}@s.whatsapp.net`, playedTimestamp: 1_700_000_000 }) },
    ]);
    await h.idle();
    // In order within a chat; the group is a chat of its own.
    expect(h.rec.updates.filter((u) => u.id === '3EB0ABC')).toEqual([
      { id: '3EB0ABC', fromMe: true, ack: 1 },
      { id: '3EB0ABC', fromMe: true, ack: 2 },
      { id: '3EB0ABC', fromMe: true, ack: 3 },
    ]);
    expect(h.rec.updates.filter((u) => u.id === 'GRP1')).toEqual([{ id: 'GRP1', fromMe: true, ack: 4 }]);
    await h.session.stop();
  });

  it('passes on an error receipt for our message and a reaction taken back', async () => {
    const h = await connected();
    const jid = `${CUSTOMER}@s.whatsapp.net`;
    h.socket().emit('messages.update', [
      { key: { remoteJid: jid, fromMe: true, id: '3EB0ERR' }, update: { status: proto.WebMessageInfo.Status.ERROR, messageStubParameters: ['479'] } },
    ]);
    h.socket().emit('messages.upsert', {
      type: 'notify',
      messages: [wa({ remoteJid: jid, id: 'UNREACT' }, { reactionMessage: { key: { remoteJid: jid, fromMe: true, id: '3EB0ERR' }, text: '' } })],
    });
    await h.idle();
    expect(h.rec.updates).toEqual([
      { id: '3EB0ERR', fromMe: true, sendError: 'ERR_WAPP_SEND_REFUSED' },
      { id: '3EB0ERR', reactionRemoved: { fromMe: false } },
    ]);
    expect(h.rec.messages).toEqual([]);
    await h.session.stop();
  });

  it('passes contact updates and calls on', async () => {
    const h = await connected();
    h.socket().emit('contacts.upsert', [{ id: `${CUSTOMER_LID}@lid`, phoneNumber: `${CUSTOMER}@s.whatsapp.net`, notify: 'Maria' }]);
    h.socket().emit('contacts.update', [{ id: `${CUSTOMER}@s.whatsapp.net`, imgUrl: 'https://pps.whatsapp.net/v/t61/abc.jpg' }, { id: 'x@g.us', name: 'ignored' }]);
    const date = new Date(1_700_000_000_000);
    h.socket().emit('call', [{ chatId: `${CUSTOMER}@s.whatsapp.net`, from: `${CUSTOMER}@s.whatsapp.net`, id: 'CALL1', date, status: 'offer', offline: false }]);
    await h.idle();
    expect(h.rec.contacts).toEqual([
      { number: CUSTOMER, lid: CUSTOMER_LID, name: 'Maria' },
      { number: CUSTOMER, lid: null, profilePicUrl: 'https://pps.whatsapp.net/v/t61/abc.jpg' },
    ]);
    expect(h.rec.calls).toEqual([{ from: { number: CUSTOMER, lid: null }, status: 'offer', at: date }]);
    await h.session.stop();
  });

  it('keeps going when a handler fails', async () => {
    const h = await connected();
    let calls = 0;
    h.rec.events.message = async (m) => {
      calls += 1;
      if (calls === 1) throw new Error('database down');
      h.rec.messages.push(m);
    };
    h.socket().emit('messages.upsert', {
      type: 'notify',
      messages: [wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'A' }, { conversation: 'a' }), wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'B' }, { conversation: 'b' })],
    });
    await h.idle();
    expect(h.rec.messages.map((m) => m.id)).toEqual(['B']);
    await h.session.stop();
  });

  it('logs no message body and no QR code at info level', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const h = harness({ downloadMedia: async () => Promise.reject(new Error('gone')) }, new MemoryAuthStore(), pino({ level: 'info' }, sink));
    await h.session.start();
    h.socket().emit('connection.update', { qr: '2@SECRET-QR-CODE' });
    h.socket().open();
    h.socket().emit('messages.upsert', {
      type: 'notify',
      messages: [
        wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'S1' }, { conversation: 'my card is 4111 1111' }),
        wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'S2' }, { imageMessage: { mimetype: 'image/jpeg', caption: 'secret caption' } }),
      ],
    });
    h.socket().close(DisconnectReason.connectionLost);
    await h.idle();
    await h.session.stop();
    const output = lines.join('');
    expect(output).toContain('QR code issued');
    expect(output).toContain('media download failed');
    expect(output).not.toContain('SECRET-QR-CODE');
    expect(output).not.toContain('4111');
    expect(output).not.toContain('secret caption');
  });
});

// --- outbound -------------------------------------------------------------------------------------

describe('BaileysSession outbound', () => {
  const to: ChannelPeer = { number: CUSTOMER, lid: CUSTOMER_LID };

  const connected = async () => {
    const h = harness();
    await h.session.start();
    h.socket().open();
    await h.idle();
    return h;
  };

  it('refuses every call with ERR_WAPP_NOT_INITIALIZED until connected', async () => {
    const h = harness();
    await h.session.start();
    const calls = [
      () => h.session.sendText({ to, text: 'x' }),
      () => h.session.sendMedia({ to, data: Buffer.from('x'), mimetype: 'image/png', filename: 'a.png' }),
      () => h.session.deleteMessage(to, 'ID', true),
      () => h.session.markRead(to, [{ id: 'ID' }]),
      () => h.session.checkNumber(CUSTOMER),
    ];
    for (const call of calls) {
      const err = await call().then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('ERR_WAPP_NOT_INITIALIZED');
    }
    expect(h.socket().sent).toEqual([]);
    await h.session.stop();
  });

  it('sends text to the phone-number jid and returns the id and time', async () => {
    const h = await connected();
    const sent = await h.session.sendText({ to, text: 'Olá!' });
    expect(sent.id).toBe('3EB0SENT1');
    expect(sent.timestamp.getTime()).toBe(1_700_000_100_000);
    expect(h.socket().sent[0]).toEqual({ jid: `${CUSTOMER}@s.whatsapp.net`, content: { text: 'Olá!' }, options: undefined });
    await h.session.sendText({ to: { number: null, lid: CUSTOMER_LID }, text: 'by lid' });
    await h.session.sendText({ to: { number: '120363025246125888', lid: null, isGroup: true }, text: 'group' });
    expect(h.socket().sent.map((s) => s.jid)).toEqual([`${CUSTOMER}@s.whatsapp.net`, `${CUSTOMER_LID}@lid`, '120363025246125888@g.us']);
    await h.session.stop();
  });

  it('quotes the stored original message, Buffers included, or a minimal one from key and text', async () => {
    const h = await connected();
    const original = wa(
      { remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'ORIG' },
      { imageMessage: { mimetype: 'image/jpeg', caption: 'the photo', jpegThumbnail: Buffer.from([1, 2, 3]) } },
    );
    // as it comes back from a JSON column
    const raw = JSON.parse(JSON.stringify(original));
    await h.session.sendText({ to, text: 'about this', quoted: { id: 'ORIG', fromMe: false, raw } });
    const quoted = h.socket().sent[0].options?.quoted;
    expect(quoted?.key).toMatchObject({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'ORIG', fromMe: false });
    expect(quoted?.message?.imageMessage?.caption).toBe('the photo');
    expect([...(quoted?.message?.imageMessage?.jpegThumbnail ?? [])]).toEqual([1, 2, 3]);

    await h.session.sendText({ to, text: 'reply', quoted: { id: 'MINE', fromMe: true, body: 'what we said' } });
    expect(h.socket().sent[1].options?.quoted).toEqual({
      key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'MINE' },
      message: { conversation: 'what we said' },
    });
    await h.session.stop();
  });

  it('sends photos and videos with caption, voice notes as ptt, audio files as audio and the rest as documents', async () => {
    const h = await connected();
    const data = Buffer.from('bytes');
    await h.session.sendMedia({ to, data, mimetype: 'image/jpeg', filename: 'a.jpg', caption: 'photo' });
    await h.session.sendMedia({ to, data, mimetype: 'video/mp4', filename: 'v.mp4', caption: 'clip' });
    await h.session.sendMedia({ to, data, mimetype: 'audio/ogg; codecs=opus', filename: 'note.ogg', voiceNote: true });
    await h.session.sendMedia({ to, data, mimetype: 'audio/mpeg', filename: 'song.mp3' });
    await h.session.sendMedia({ to, data, mimetype: 'application/pdf', filename: 'invoice.pdf', caption: 'your invoice' });
    expect(h.socket().sent.map((s) => s.content)).toEqual([
      { image: data, mimetype: 'image/jpeg', caption: 'photo' },
      { video: data, mimetype: 'video/mp4', caption: 'clip' },
      { audio: data, mimetype: 'audio/ogg; codecs=opus', ptt: true },
      { audio: data, mimetype: 'audio/mpeg', ptt: false },
      { document: data, mimetype: 'application/pdf', fileName: 'invoice.pdf', caption: 'your invoice' },
    ]);
    expect(mediaContent({ to, data, mimetype: 'image/gif', filename: 'x.gif' })).toEqual({ document: data, mimetype: 'image/gif', fileName: 'x.gif', caption: undefined });
    await h.session.stop();
  });

  it('turns a channel failure into ERR_SENDING_WAPP_MSG and ERR_DELETE_WAPP_MSG', async () => {
    const h = await connected();
    h.socket().failSends = true;
    await expect(h.session.sendText({ to, text: 'x' })).rejects.toMatchObject({ code: 'ERR_SENDING_WAPP_MSG' });
    await expect(h.session.sendMedia({ to, data: Buffer.from('x'), mimetype: 'application/pdf', filename: 'a.pdf' })).rejects.toMatchObject({
      code: 'ERR_SENDING_WAPP_MSG',
    });
    await expect(h.session.deleteMessage(to, 'ID', true)).rejects.toMatchObject({ code: 'ERR_DELETE_WAPP_MSG' });
    await h.session.stop();
  });

  it('deletes for everyone with the key the message was stored with (a LID chat, a group participant)', async () => {
    const h = await connected();
    const sentByLid = JSON.parse(JSON.stringify(proto.WebMessageInfo.fromObject({
      key: { remoteJid: `${CUSTOMER_LID}@lid`, fromMe: true, id: '3EB0LID' },
      message: { conversation: 'hi' },
    })));
    await h.session.deleteMessage(to, '3EB0LID', true, sentByLid);
    expect(h.socket().sent[0]).toEqual({
      jid: `${CUSTOMER_LID}@lid`,
      content: { delete: { remoteJid: `${CUSTOMER_LID}@lid`, fromMe: true, id: '3EB0LID' } },
      options: undefined,
    });
    const inGroup = { key: { remoteJid: '120363025246125888@g.us', fromMe: true, id: '3EB0GRP', participant: '88800011122233@lid' } };
    await h.session.deleteMessage({ number: '120363025246125888', lid: null, isGroup: true }, '3EB0GRP', true, inGroup);
    expect(h.socket().sent[1]!.content).toEqual({ delete: { remoteJid: '120363025246125888@g.us', fromMe: true, id: '3EB0GRP', participant: '88800011122233@lid' } });
    // A stored copy of another message is not trusted for this one.
    await h.session.deleteMessage(to, '3EB0OTHER', true, sentByLid);
    expect(h.socket().sent[2]!.jid).toBe(`${CUSTOMER}@s.whatsapp.net`);
    await h.session.stop();
  });

  it('deletes for everyone with the message key', async () => {
    const h = await connected();
    await h.session.deleteMessage(to, '3EB0OLD', true);
    expect(h.socket().sent[0]).toEqual({
      jid: `${CUSTOMER}@s.whatsapp.net`,
      content: { delete: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: '3EB0OLD' } },
      options: undefined,
    });
    await h.session.stop();
  });

  it('marks messages read with their keys', async () => {
    const h = await connected();
    await h.session.markRead(to, [{ id: 'A' }, { id: 'B' }]);
    await h.session.markRead({ number: '120363025246125888', lid: null, isGroup: true }, [{ id: 'C', participant: CUSTOMER }]);
    expect(h.socket().read).toEqual([
      [
        { remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'A', fromMe: false, participant: undefined },
        { remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'B', fromMe: false, participant: undefined },
      ],
      [{ remoteJid: '120363025246125888@g.us', id: 'C', fromMe: false, participant: `${CUSTOMER}@s.whatsapp.net` }],
    ]);
    await h.session.stop();
  });

  it('sends a read receipt to the address the message came from (a LID chat, a LID-addressed group)', async () => {
    const h = await connected();
    const group = '120363025246125888@g.us';
    const inGroup = wa({ remoteJid: group, id: 'G1', participant: `${CUSTOMER_LID}@lid`, participantAlt: `${CUSTOMER}@s.whatsapp.net` }, { conversation: 'oi' });
    const byLid = wa({ remoteJid: `${CUSTOMER_LID}@lid`, id: 'L1', remoteJidAlt: `${CUSTOMER}@s.whatsapp.net` }, { conversation: 'oi' });
    // Stored as the messages table keeps it (jsonb): the participant column holds the sender's number.
    const stored = (m: WAMessage) => JSON.parse(JSON.stringify(m)) as unknown;
    await h.session.markRead({ number: '120363025246125888', lid: null, isGroup: true }, [{ id: 'G1', participant: CUSTOMER, raw: stored(inGroup) }]);
    await h.session.markRead(to, [{ id: 'L1', raw: stored(byLid) }]);
    expect(h.socket().read).toEqual([
      [{ remoteJid: group, id: 'G1', fromMe: false, participant: `${CUSTOMER_LID}@lid` }],
      [{ remoteJid: `${CUSTOMER_LID}@lid`, id: 'L1', fromMe: false }],
    ]);
    await h.session.stop();
  });

  it('checks a number and returns the canonical digits, or null', async () => {
    const h = await connected();
    // the fake network answers with the ninth digit added, as WhatsApp does for old Brazilian mobiles
    expect(await h.session.checkNumber('+55 11 8888-7777')).toBe(CUSTOMER);
    expect(await h.session.checkNumber('1 202 555 0100')).toBeNull();
    expect(await h.session.checkNumber('abc')).toBeNull();
    await h.session.stop();
  });

  it('paces number checks per connection and reuses their answers', async () => {
    vi.useFakeTimers();
    try {
      const h = harness({ numberChecks: { max: 2, windowMs: 60_000 } });
      await h.session.start();
      h.socket().open();
      await h.idle();
      const asked: string[] = [];
      const onWhatsApp = h.socket().onWhatsApp;
      h.socket().onWhatsApp = async (...jids: string[]) => {
        asked.push(...jids);
        return onWhatsApp(...jids);
      };
      const checks = ['5511911110001', '5511911110002', '5511911110003'].map((n) => h.session.checkNumber(n));
      await settle();
      expect(asked).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(59_999);
      expect(asked).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(await Promise.all(checks)).toEqual(['55119911110001', '55119911110002', '55119911110003']);
      expect(asked).toHaveLength(3);
      // Asked again: answered from what WhatsApp said, with no query.
      expect(await h.session.checkNumber('+55 11 91111-0001')).toBe('55119911110001');
      expect(asked).toHaveLength(3);
      // A check waiting its turn when the session stops is refused, not left hanging.
      await h.session.checkNumber('5511911110004');
      const waiting = h.session.checkNumber('5511911110005');
      await settle();
      expect(asked).toHaveLength(4);
      await h.session.stop();
      await expect(waiting).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('builds a quoted message without raw from key and body', () => {
    expect(quotedMessage('1@s.whatsapp.net', { id: 'Q', fromMe: false })).toEqual({
      key: { remoteJid: '1@s.whatsapp.net', fromMe: false, id: 'Q' },
      message: { conversation: '' },
    });
  });
});

// --- production robustness (issue 11) ------------------------------------------------------------

describe('BaileysSession on real phones', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** What the messages table keeps of a message we sent: Baileys' WebMessageInfo as jsonb (JSON text). */
  const storedRaw = (msg: WAMessage): unknown => JSON.parse(JSON.stringify(msg));

  it('answers a retry request from the stored sent message, Buffers included, after a reconnect too', async () => {
    const sentImage = proto.WebMessageInfo.fromObject({
      key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: '3EB0STORED1' },
      message: { imageMessage: { caption: 'the invoice', mimetype: 'image/jpeg', mediaKey: Buffer.from('0123456789abcdef0123456789abcdef') } },
      messageTimestamp: 1_700_000_100,
    }) as WAMessage;
    const h = harness();
    const asked: string[] = [];
    h.rec.events.sentMessage = async (id) => {
      asked.push(id);
      return id === '3EB0STORED1' ? storedRaw(sentImage) : null;
    };
    await h.session.start();
    h.socket().open();
    const first = h.socket().config;
    const answer = await first.getMessage!({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: '3EB0STORED1' });
    expect(answer?.imageMessage?.caption).toBe('the invoice');
    expect(Buffer.from(answer!.imageMessage!.mediaKey!)).toEqual(Buffer.from('0123456789abcdef0123456789abcdef'));
    expect(await first.getMessage!({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'UNKNOWN' })).toBeUndefined();
    expect(asked).toEqual(['3EB0STORED1', 'UNKNOWN']);

    // The phone's retry counters outlive the socket: the same cache is handed to the next one.
    first.msgRetryCounterCache!.set('3EB0STORED1', 1);
    h.socket().close(DisconnectReason.connectionLost);
    await vi.advanceTimersByTimeAsync(2_000);
    await settle();
    expect(h.sockets).toHaveLength(2);
    const second = h.socket().config;
    expect(second.msgRetryCounterCache).toBe(first.msgRetryCounterCache);
    expect(second.msgRetryCounterCache!.get('3EB0STORED1')).toBe(1);
    expect((await second.getMessage!({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: '3EB0STORED1' }))?.imageMessage?.caption).toBe('the invoice');
    await h.session.stop();
  });

  it('ignores status broadcasts, broadcast lists and newsletters before decryption, and asks for no full history', async () => {
    const h = harness();
    await h.session.start();
    const config = h.socket().config;
    expect(config.syncFullHistory).toBe(false);
    for (const jid of ['status@broadcast', '1234567890@broadcast', '120363025246125999@newsletter']) expect(config.shouldIgnoreJid!(jid), jid).toBe(true);
    for (const jid of [`${CUSTOMER}@s.whatsapp.net`, `${CUSTOMER_LID}@lid`, '120363025246125888@g.us']) expect(config.shouldIgnoreJid!(jid), jid).toBeFalsy();
    await h.session.stop();
  });

  it('announces the current WhatsApp Web version, fetched once for all sessions', async () => {
    let fetches = 0;
    const h = harness({ fetchWebVersion: async () => (fetches++, [2, 3000, 1_029_000_001]) });
    await h.session.start();
    expect(h.socket().config.version).toEqual([2, 3000, 1_029_000_001]);
    h.socket().close(DisconnectReason.connectionLost);
    await vi.advanceTimersByTimeAsync(2_000);
    await settle();
    expect(h.sockets).toHaveLength(2);
    expect(h.socket().config.version).toEqual([2, 3000, 1_029_000_001]);
    expect(fetches).toBe(1);
    await h.session.stop();
  });

  it("falls back to Baileys' bundled version when the fetch fails or does not answer in time", async () => {
    let tries = 0;
    const failing = harness({
      webVersionFailureTtlMs: 60_000,
      fetchWebVersion: async () => (tries++, Promise.reject(new Error('offline'))),
    });
    await failing.session.start();
    expect(failing.sockets).toHaveLength(1);
    expect(failing.socket().config.version).toBeUndefined();
    // Offline, a reconnect does not wait for another fetch: the failure stands for a while...
    failing.socket().close(DisconnectReason.connectionLost);
    await vi.advanceTimersByTimeAsync(2_000);
    await settle();
    expect(failing.sockets).toHaveLength(2);
    expect(tries).toBe(1);
    // ...then the next connection tries again.
    await vi.advanceTimersByTimeAsync(60_000);
    failing.socket().close(DisconnectReason.connectionLost);
    // The second reconnect in a row backs off longer (at most 10 s here).
    await vi.advanceTimersByTimeAsync(10_000);
    await settle();
    expect(failing.sockets).toHaveLength(3);
    expect(tries).toBe(2);
    await failing.session.stop();

    vi.useRealTimers();
    const hanging = harness({
      webVersionTimeoutMs: 20,
      fetchWebVersion: (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    });
    await hanging.session.start();
    expect(hanging.sockets).toHaveLength(1);
    expect(hanging.socket().config.version).toBeUndefined();
    await hanging.session.stop();
  });

  it('uses the version set by the setting without fetching', async () => {
    let fetches = 0;
    const h = harness({ webVersion: '2.3000.1020304050', fetchWebVersion: async () => (fetches++, [2, 3000, 1]) });
    await h.session.start();
    expect(h.socket().config.version).toEqual([2, 3000, 1_020_304_050]);
    expect(fetches).toBe(0);
    await h.session.stop();
  });

  it('on 405 says the version was refused and fetches the current one again before reconnecting', async () => {
    const versions: [number, number, number][] = [[2, 3000, 1], [2, 3000, 2]];
    const h = harness({ fetchWebVersion: async () => versions.shift() });
    await h.session.start();
    h.socket().close(405);
    await h.idle();
    expect(h.rec.statuses.at(-1)).toEqual({ status: 'OPENING', info: { reason: 'versionRefused:405' } });
    await vi.advanceTimersByTimeAsync(2_000);
    await settle();
    expect(h.sockets).toHaveLength(2);
    expect(h.socket().config.version).toEqual([2, 3000, 2]);
    await h.session.stop();
  });

  it('on 440 (connection replaced) while another process holds the lease: stops, keeps the credentials and says so, without reconnecting', async () => {
    let leaseChecks = 0;
    const h = harness({}, new MemoryAuthStore(), silent, {
      holdsLease: async () => {
        leaseChecks += 1;
        return false;
      },
    });
    await h.session.start();
    h.socket().emit('creds.update', { registered: true });
    h.socket().open();
    h.socket().close(DisconnectReason.connectionReplaced);
    await settle();
    await h.idle();
    expect(leaseChecks).toBe(1);
    expect(h.rec.statuses.at(-1)).toEqual({ status: 'DISCONNECTED', info: { reason: 'connectionReplaced:440' } });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(h.sockets).toHaveLength(1);
    expect(h.store.clears).toBe(0);
    expect(h.store.rows.has('creds')).toBe(true);
    // An admin's reconnect starts it again with the same credentials.
    await h.session.start();
    expect(h.sockets).toHaveLength(2);
    expect(h.socket().config.auth.creds.registered).toBe(true);
    await h.session.stop();
  });

  it('gives Baileys group metadata from a cache that fetches on a miss, survives reconnects, follows members and lasts a day', async () => {
    let now = 1_000_000;
    const h = harness({ now: () => now });
    await h.session.start();
    const group = `${GROUP}@g.us`;
    const members = (socket: FakeSocket, ids: string[]) => {
      socket.groupMetadata = async (jid) => {
        socket.groupLookups += 1;
        return { id: jid, subject: 'Equipe', owner: undefined, participants: ids.map((id) => ({ id, admin: null })) };
      };
    };
    members(h.socket(), ['5511911112222@s.whatsapp.net']);
    h.socket().open();
    // What Baileys' relayMessage calls before each group send (messages-send.js).
    const cached = (jid: string) => h.socket().config.cachedGroupMetadata!(jid);
    expect((await cached(group))?.participants).toHaveLength(1);
    await cached(group);
    expect(h.socket().groupLookups).toBe(1);

    h.socket().close(DisconnectReason.connectionLost);
    await vi.advanceTimersByTimeAsync(2_000);
    await settle();
    expect(h.sockets).toHaveLength(2);
    members(h.socket(), ['5511911112222@s.whatsapp.net', '5511933334444@s.whatsapp.net']);
    h.socket().open();
    expect((await cached(group))?.participants).toHaveLength(1);
    expect(h.socket().groupLookups).toBe(0);

    h.socket().emit('group-participants.update', { id: group, author: '5511911112222@s.whatsapp.net', participants: [], action: 'add' });
    expect((await cached(group))?.participants).toHaveLength(2);
    expect(h.socket().groupLookups).toBe(1);
    await cached(group);
    expect(h.socket().groupLookups).toBe(1);

    now += 24 * 60 * 60_000;
    await cached(group);
    expect(h.socket().groupLookups).toBe(2);
    await h.session.stop();
  });

  it('on 440 while this process still holds the lease: one more try after a minute, then stops for good', async () => {
    let ours = true;
    const h = harness({ reconnect: { baseMs: 2_000, maxMs: 10_000, jitter: 0, replacedRetryMs: 60_000 } }, new MemoryAuthStore(), silent, {
      holdsLease: async () => ours,
    });
    await h.session.start();
    h.socket().open();
    h.socket().close(DisconnectReason.connectionReplaced);
    await settle();
    await h.idle();
    expect(h.rec.statuses.at(-1)).toEqual({ status: 'OPENING', info: { reason: 'connectionReplaced:440' } });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(h.sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(h.sockets).toHaveLength(2);
    // Replaced again at once: the one try was spent; it stops even with the lease.
    h.socket().open();
    h.socket().close(DisconnectReason.connectionReplaced);
    await settle();
    await h.idle();
    expect(h.rec.statuses.at(-1)).toEqual({ status: 'DISCONNECTED', info: { reason: 'connectionReplaced:440' } });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(h.sockets).toHaveLength(2);

    // Started again by an admin, a 440 after the lease went elsewhere stops at once.
    await h.session.start();
    h.socket().open();
    ours = false;
    h.socket().close(DisconnectReason.connectionReplaced);
    await settle();
    await h.idle();
    expect(h.rec.statuses.at(-1)).toEqual({ status: 'DISCONNECTED', info: { reason: 'connectionReplaced:440' } });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reuses the credentials in memory on a restart WhatsApp asks for (515), and reloads them after other closes', async () => {
    const store = new MemoryAuthStore();
    const h = harness({}, store);
    await h.session.start();
    const paired = h.socket().config.auth.creds;
    h.socket().emit('connection.update', { qr: 'code' });
    // The scan: Baileys updates the creds; the save may not have landed when WhatsApp asks for a restart.
    h.socket().emit('creds.update', { me: { id: '5511900001111:7@s.whatsapp.net', name: 'Atrium' } });
    store.rows.delete('creds');
    h.socket().close(DisconnectReason.restartRequired);
    await vi.advanceTimersByTimeAsync(0);
    await settle();
    expect(h.sockets).toHaveLength(2);
    expect(h.socket().config.auth.creds).toBe(paired);
    expect(h.socket().config.auth.creds.me?.id).toBe('5511900001111:7@s.whatsapp.net');

    await h.idle();
    h.socket().emit('creds.update', { registered: true });
    await settle();
    h.socket().close(DisconnectReason.connectionLost);
    await vi.advanceTimersByTimeAsync(2_000);
    await settle();
    expect(h.sockets).toHaveLength(3);
    expect(h.socket().config.auth.creds).not.toBe(paired);
    expect(h.socket().config.auth.creds.registered).toBe(true);
    await h.session.stop();
  });

  it('passes on each phone number ↔ LID pair Baileys learns (lid-mapping.update), and those contacts.upsert brings', async () => {
    const h = harness();
    await h.session.start();
    h.socket().open();
    h.socket().emit('lid-mapping.update', { lid: `${CUSTOMER_LID}@lid`, pn: `${CUSTOMER}@s.whatsapp.net` });
    h.socket().emit('lid-mapping.update', { lid: 'not-a-jid', pn: `${CUSTOMER}@s.whatsapp.net` });
    h.socket().emit('contacts.upsert', [{ id: `5511977776666@s.whatsapp.net`, lid: '203948570000001@lid' }]);
    await h.idle();
    expect(h.rec.contacts).toEqual([
      { number: CUSTOMER, lid: CUSTOMER_LID },
      { number: '5511977776666', lid: '203948570000001' },
    ]);
    await h.session.stop();
  });

  it('replies in a disappearing chat with the chat’s timer, and stops once the customer turns it off', async () => {
    vi.useRealTimers();
    const h = harness();
    await h.session.start();
    h.socket().open();
    const to: ChannelPeer = { number: CUSTOMER, lid: null };
    h.socket().emit('messages.upsert', {
      type: 'notify',
      messages: [wa({ remoteJid: `${CUSTOMER_LID}@lid`, remoteJidAlt: `${CUSTOMER}@s.whatsapp.net`, id: 'EPH1' }, { extendedTextMessage: { text: 'oi', contextInfo: { expiration: 604_800 } } })],
    });
    await h.idle();
    await h.session.sendText({ to, text: 'Olá' });
    expect(h.socket().sent[0]!.options).toEqual({ ephemeralExpiration: 604_800 });
    await h.session.sendMedia({ to, data: Buffer.from('x'), mimetype: 'image/png', filename: 'a.png', quoted: { id: 'EPH1', fromMe: false, body: 'oi' } });
    expect(h.socket().sent[1]!.options).toMatchObject({ ephemeralExpiration: 604_800, quoted: { key: { id: 'EPH1' } } });

    h.socket().emit('messages.upsert', {
      type: 'notify',
      messages: [wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'EPH2' }, { protocolMessage: { type: proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING, ephemeralExpiration: 0 } })],
    });
    await h.idle();
    await h.session.sendText({ to, text: 'de novo' });
    expect(h.socket().sent[2]!.options).toBeUndefined();
    // Another chat never had a timer.
    await h.session.sendText({ to: { number: '5511977776666', lid: null }, text: 'x' });
    expect(h.socket().sent[3]!.options).toBeUndefined();
    await h.session.stop();
  });

  it('remembers a chat’s timer across a restart of the server (kept with the session’s keys)', async () => {
    vi.useRealTimers();
    const store = new MemoryAuthStore();
    const before = harness({}, store);
    await before.session.start();
    before.socket().open();
    before.socket().emit('messages.upsert', {
      type: 'notify',
      messages: [wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'EPH3' }, { extendedTextMessage: { text: 'oi', contextInfo: { expiration: 86_400 } } })],
    });
    await before.idle();
    await vi.waitFor(async () => expect(await store.get(`chat-expiration:${CUSTOMER}@s.whatsapp.net`)).toBe(86_400));
    await before.session.stop();

    // A new session on the same keys (the server restarted): the first reply already carries the timer.
    const after = harness({}, store);
    await after.session.start();
    after.socket().open();
    await after.session.sendText({ to: { number: CUSTOMER, lid: null }, text: 'voltei' });
    expect(after.socket().sent[0]!.options).toEqual({ ephemeralExpiration: 86_400 });
    await after.session.stop();
  });

  it('gives a pairing code for a phone number while a QR code is on offer, and only then', async () => {
    vi.useRealTimers();
    const h = harness();
    await h.session.start();
    await expect(h.session.requestPairingCode('+55 11 98888-7777')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    h.socket().emit('connection.update', { qr: '2@code' });
    await h.idle();
    expect(await h.session.requestPairingCode('+55 11 98888-7777')).toBe('ABCD1234');
    expect(h.socket().pairingRequests).toEqual(['5511988887777']);
    h.socket().open();
    await h.idle();
    await expect(h.session.requestPairingCode('5511988887777')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    await h.session.stop();
  });
});
