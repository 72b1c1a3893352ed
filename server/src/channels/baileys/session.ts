import {
  Browsers,
  DisconnectReason,
  downloadMediaMessage,
  getContentType,
  isJidBroadcast,
  isJidNewsletter,
  jidDecode,
  makeCacheableSignalKeyStore,
  normalizeMessageContent,
  proto,
  toNumber,
  type AnyMessageContent,
  type BaileysEventEmitter,
  type BaileysEventMap,
  type AuthenticationState,
  type GroupMetadata,
  type MiscMessageGenerationOptions,
  type SocketConfig,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
  type WASocket,
  type WAVersion,
} from '@whiskeysockets/baileys';
import path from 'node:path';
import { pipeline, Readable, Transform } from 'node:stream';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { OGG_OPUS_MIMETYPE, readOggOpus } from '../../media/ogg.js';
import type {
  ChannelPeer,
  ChannelSession,
  InboundMessage,
  ChannelStatus,
  MessageUpdate,
  OutboundMedia,
  OutboundText,
  QuotedRef,
  SentMessage,
  SessionOptions,
  StatusInfo,
  UpdateAuthor,
} from '../types.js';
import { createKeyCache, useAuthStoreState } from './auth-state.js';
import { InboundSpool, isDatabaseUnreachable } from './spool.js';
import { TtlCache } from './ttl-cache.js';
import { WindowLimit } from './window-limit.js';
import {
  identityOf,
  jidForPeer,
  mentionedJids,
  PLACEHOLDER_KINDS,
  readPollVote,
  toCallEvent,
  toContactUpdate,
  toInboundMessage,
  toMessageUpdate,
  toReceiptUpdate,
  type MediaDescriptor,
  type OwnIdentity,
} from './mapping.js';

/** The part of a Baileys socket a session uses; makeWASocket's result satisfies it, and so can a test double. */
export interface BaileysSocket {
  ev: Pick<BaileysEventEmitter, 'on' | 'off'>;
  user?: WASocket['user'];
  end: WASocket['end'];
  logout: WASocket['logout'];
  sendMessage: WASocket['sendMessage'];
  readMessages: WASocket['readMessages'];
  onWhatsApp: WASocket['onWhatsApp'];
  groupMetadata: WASocket['groupMetadata'];
  updateMediaMessage: WASocket['updateMediaMessage'];
  sendPresenceUpdate?: WASocket['sendPresenceUpdate'];
  presenceSubscribe?: WASocket['presenceSubscribe'];
  requestPairingCode?: WASocket['requestPairingCode'];
  signalRepository?: { lidMapping?: { getPNForLID(lid: string): Promise<string | null> } };
}

export type SocketFactory = (config: UserFacingSocketConfig) => BaileysSocket;

/** A media's decrypted bytes as a stream (a Buffer is accepted too, from tests and embedders). */
export type MediaDownloader = (message: WAMessage, socket: BaileysSocket, logger: SocketConfig['logger']) => Promise<Readable | Buffer>;

export interface BaileysSessionConfig {
  /** Builds the socket; makeWASocket unless a test or an embedder says otherwise. */
  socketFactory: SocketFactory;
  /**
   * Reconnect delays: baseMs doubling per failed attempt up to maxMs, each varied by ±jitter (a fraction);
   * the doubling starts over only once a connection stayed open stableMs. After a 440 while this process
   * still holds the lease, one more try after replacedRetryMs.
   */
  reconnect: { baseMs: number; maxMs: number; jitter: number; stableMs: number; replacedRetryMs: number };
  /** QR codes shown without a scan before the session gives up with TIMEOUT. */
  maxQrCodes: number;
  downloadMedia: MediaDownloader;
  /** Limit on a media download's start and on each of its pauses; also on a first group-subject lookup. */
  mediaTimeoutMs: number;
  groupLookupTimeoutMs: number;
  /** Level of Baileys' own logs (it is chatty and may log protocol details). */
  baileysLogLevel: string;
  /** Extra socket options (browser, version, ...). */
  socketConfig: Partial<SocketConfig>;
  /**
   * The WhatsApp Web version to announce: the current one, fetched (within a time limit) or set by the
   * WA_WEB_VERSION setting; undefined falls back to the one bundled with Baileys. `fresh` after a 405.
   */
  webVersion: (fresh?: boolean) => Promise<WAVersion | undefined>;
  /**
   * Where messages the database could not take wait to be stored (spool.ts: a file per connection); none
   * without it. `spoolRetry`: the wait before another try, doubling from minMs to maxMs while it fails.
   */
  spoolDir?: string;
  spoolRetry?: { minMs: number; maxMs: number };
  /**
   * Number checks (onWhatsApp) asked of WhatsApp per connection: at most `max` within `windowMs` (more wait
   * their turn), answers reused for `ttlMs` (one that says "not on WhatsApp" for an hour at most).
   */
  numberChecks: { max: number; windowMs: number; ttlMs: number };
  /** The clock of the caches and of the backoff's reset (injected by tests); default Date.now. */
  now?: () => number;
}

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
/**
 * What a session keeps in memory, bounded in count and in time (least recently used out), so a number that
 * runs for a year holds no more than one that runs for a day. Group metadata lives a day (Baileys sends to
 * a group's members from it); a chat's disappearing timer is read again from the store when it expired.
 */
export const SESSION_CACHES = {
  groups: { max: 1_000, ttlMs: DAY_MS },
  groupSubjects: { max: 2_000, ttlMs: DAY_MS },
  chatExpirations: { max: 5_000, ttlMs: 6 * HOUR_MS },
  /** Baileys' own default for its retry counters is an hour. */
  retryCounters: { max: 5_000, ttlMs: HOUR_MS },
  checkedNumbers: { max: 5_000 },
} as const;

/** What WhatsApp's media servers answer for a file they no longer keep: the phone must upload it again. */
const MEDIA_GONE = new Set([404, 410]);

export const defaultDownloadMedia: MediaDownloader = async (message, socket, logger) => {
  const context = { logger, reuploadRequest: (m: WAMessage) => socket.updateMediaMessage(m) };
  try {
    return await downloadMediaMessage(message, 'stream', {}, context);
  } catch (err) {
    // Baileys (7.0.0-rc14) asks for the re-upload only on an error with a `status`, but its own HTTP
    // errors are Booms with `output.statusCode`: an expired file would never come back. Asked here.
    const code = disconnectCode(err);
    if (code === undefined || !MEDIA_GONE.has(code)) throw err;
    logger?.info({ key: message.key, code }, 'media gone from the server; asking the phone to upload it again');
    return downloadMediaMessage(await socket.updateMediaMessage(message), 'stream', {}, context);
  }
};

/**
 * The download as its reader gets it: failed when no byte came for `idleMs` or when the session ends,
 * and the network download aborted with it (a reader that stops, too, ends the download).
 */
const watchedDownload = (source: Readable, idleMs: number, signal: AbortSignal): Readable => {
  let timer: NodeJS.Timeout | undefined;
  const out = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      arm();
      done(null, chunk);
    },
  });
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => out.destroy(new Error(`media download stalled for ${idleMs} ms`)), idleMs);
  };
  const onStop = () => out.destroy(new Error('session stopped'));
  const done = () => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onStop);
  };
  if (signal.aborted) onStop();
  else signal.addEventListener('abort', onStop, { once: true });
  arm();
  out.once('close', done);
  pipeline(source, out, done);
  return out;
};

/** Media downloads at once per session: outside the chats' lanes, so they never hold a chat up. */
const DOWNLOADS_AT_ONCE = 4;

const LOGGED_OUT = new Set<number>([DisconnectReason.loggedOut, DisconnectReason.forbidden]);
/** WhatsApp refuses the announced WhatsApp Web version (it was retired). */
export const VERSION_REFUSED = 405;

/**
 * Why a connection closed, as a code the clients translate (connections feature, `closeReasons.*`): a name
 * and WhatsApp's status code after a colon. Undefined for a plain drop.
 */
export const closeReason = (code: number | undefined): string | undefined => {
  switch (code) {
    case undefined:
      return undefined;
    case DisconnectReason.loggedOut:
      return 'loggedOut:401';
    case DisconnectReason.forbidden:
      return 'forbidden:403';
    case DisconnectReason.connectionReplaced:
      return 'connectionReplaced:440';
    case VERSION_REFUSED:
      return 'versionRefused:405';
    case DisconnectReason.restartRequired:
      return 'restartRequired:515';
    case DisconnectReason.badSession:
      return 'badSession:500';
    case DisconnectReason.multideviceMismatch:
      return 'multideviceMismatch:411';
    case DisconnectReason.unavailableService:
      return 'unavailableService:503';
    default:
      return `connectionClosed:${code}`;
  }
};

/**
 * What a message says about its chat's disappearing messages, in seconds (0: off), or undefined when
 * it says nothing: the timer in its contextInfo, or a change of the setting.
 */
export const chatExpirationOf = (msg: WAMessage): number | undefined => {
  const content = normalizeMessageContent(msg.message);
  if (!content) return undefined;
  const protocol = content.protocolMessage;
  if (protocol?.type === proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING) return toNumber(protocol.ephemeralExpiration ?? 0);
  const type = getContentType(content);
  const inner = type ? (content[type] as { contextInfo?: proto.IContextInfo | null } | undefined) : undefined;
  const expiration = inner && typeof inner === 'object' ? inner.contextInfo?.expiration : undefined;
  return expiration === undefined || expiration === null ? undefined : toNumber(expiration);
};

/** Status broadcasts, broadcast lists and channels (newsletters) are not customers: dropped before decryption. */
export const ignoredJid = (jid: string): boolean => !!(isJidBroadcast(jid) || isJidNewsletter(jid));

/** The status code of a disconnect error (a Boom carries it in output.statusCode). */
export const disconnectCode = (error: unknown): number | undefined => {
  const e = error as { output?: { statusCode?: unknown }; data?: { statusCode?: unknown } } | undefined;
  const code = e?.output?.statusCode ?? e?.data?.statusCode;
  return typeof code === 'number' ? code : undefined;
};

const PHOTO = new Set(['image/jpeg', 'image/png', 'image/webp']);
const MOVIE = new Set(['video/mp4', 'video/3gpp']);

/** A voice note's length in whole seconds, shown on the phone before it plays; undefined when not Ogg/Opus. */
const voiceNoteSeconds = (data: Buffer): number | undefined => {
  try {
    return Math.max(1, Math.round(readOggOpus(data).seconds));
  } catch {
    return undefined;
  }
};

/** How a file goes out: photos and playable videos with their caption, audio as voice note or file, the rest as documents. */
export const mediaContent = (message: OutboundMedia): AnyMessageContent => {
  const mimetype = message.mimetype.split(';')[0].trim().toLowerCase();
  const caption = message.caption || undefined;
  if (message.voiceNote) {
    // Phones play a push-to-talk note declared exactly as Ogg/Opus, and show its length before it plays.
    const seconds = voiceNoteSeconds(message.data);
    return { audio: message.data, mimetype: seconds === undefined ? message.mimetype : OGG_OPUS_MIMETYPE, ptt: true, seconds };
  }
  if (PHOTO.has(mimetype)) return { image: message.data, mimetype: message.mimetype, caption };
  if (MOVIE.has(mimetype)) return { video: message.data, mimetype: message.mimetype, caption };
  if (mimetype.startsWith('audio/')) return { audio: message.data, mimetype: message.mimetype, ptt: false };
  return { document: message.data, mimetype: message.mimetype, fileName: message.filename, caption };
};

/** Turns JSON-stored Buffers (either BufferJSON's base64 or Buffer.toJSON's byte array) back into Buffers. */
const reviveBuffers = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(reviveBuffers);
  if (value && typeof value === 'object' && !Buffer.isBuffer(value) && !(value instanceof Uint8Array)) {
    const v = value as Record<string, unknown>;
    if (v.type === 'Buffer' && (typeof v.data === 'string' || Array.isArray(v.data))) {
      return typeof v.data === 'string' ? Buffer.from(v.data, 'base64') : Buffer.from(v.data as number[]);
    }
    return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, reviveBuffers(inner)]));
  }
  return value;
};

/** A message object as stored (`messages.raw`, JSON) back as Baileys' own; undefined when it is none. */
export const storedWAMessage = (raw: unknown): WAMessage | undefined => {
  const stored = raw as { key?: unknown; message?: unknown } | null | undefined;
  if (!stored || typeof stored !== 'object' || !stored.key || !stored.message) return undefined;
  try {
    const message = proto.WebMessageInfo.fromObject(reviveBuffers(stored) as Record<string, unknown>) as WAMessage;
    return message.key?.id ? message : undefined;
  } catch {
    return undefined;
  }
};

/** The message a reply quotes: the stored original when we have it, else its key and text. */
export const quotedMessage = (jid: string, quoted: QuotedRef): WAMessage => {
  const raw = quoted.raw as { key?: unknown; message?: unknown } | null | undefined;
  if (raw && typeof raw === 'object' && raw.key && raw.message) {
    const original = proto.WebMessageInfo.fromObject(reviveBuffers(raw) as Record<string, unknown>) as WAMessage;
    if (original.key?.id) return original;
  }
  return {
    key: { remoteJid: jid, fromMe: quoted.fromMe, id: quoted.id },
    message: { conversation: quoted.body ?? '' },
  };
};

/** How many chats are handled side by side (a history burst downloads only so much media at once). */
const CHATS_AT_ONCE = 16;
/** Attempts at a spooled message failing for another reason than the database being unreachable. */
const SPOOL_MAX_FAILURES = 5;

/** Runs tasks one after another; a failing task is logged and does not stop the next. */
class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly onError: (err: unknown) => void) {}

  push(task: () => Promise<void> | void): void {
    this.tail = this.tail.then(task).catch(this.onError);
  }

  idle(): Promise<void> {
    return this.tail;
  }
}

/**
 * One lane per chat: a chat's messages and updates run in order, and chats never wait for each other, so a
 * long media download holds its own chat only, not every other customer of the connection. A task goes
 * after the last task of every chat id it names (a chat known by phone number and by LID is one chat);
 * at most `max` tasks run at once. A failing task is logged and does not stop its lane.
 */
class ChatLanes {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly pending = new Set<Promise<void>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly max: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  push(chatIds: string[], task: () => Promise<void>): void {
    const before = [...new Set(chatIds.map((id) => this.tails.get(id)).filter((t): t is Promise<void> => !!t))];
    const run = Promise.all(before)
      .then(() => this.acquire())
      .then(async () => {
        try {
          await task();
        } catch (err) {
          this.onError(err);
        } finally {
          this.release();
        }
      });
    for (const id of chatIds) this.tails.set(id, run);
    this.pending.add(run);
    void run.then(() => {
      this.pending.delete(run);
      for (const id of chatIds) if (this.tails.get(id) === run) this.tails.delete(id);
    });
  }

  private acquire(): Promise<void> {
    if (this.running < this.max) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }

  /** Resolves once every task pushed so far (and any pushed meanwhile) has run. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}

type Listeners = { [E in keyof BaileysEventMap]?: (arg: BaileysEventMap[E]) => void };

export class BaileysSession implements ChannelSession {
  private socket: BaileysSocket | undefined;
  private listeners: Listeners = {};
  /** Bumped whenever the current socket is replaced or dropped, so late callbacks know they are stale. */
  private generation = 0;
  private running = false;
  private connected = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private attempts = 0;
  /** When the current connection opened (this.now()), to tell a stable connection from one that drops at once. */
  private openedAt: number | undefined;
  /** The one retry after a 440 was spent (until a connection proves stable or an admin starts it again). */
  private replacedRetried = false;
  private qrCount = 0;
  private me: OwnIdentity = {};
  /** The last status handed to the handlers ('qrcode' once a code is shown), to report changes only. */
  private lastStatus: ChannelStatus | undefined;
  private lastReason: string | undefined;
  /** Aborted on stop/logout: ends waits (media, group lookups) that a dead socket would never settle. */
  private lifetime = new AbortController();
  private readonly groups: TtlCache<string, GroupMetadata>;
  private readonly groupSubjects: TtlCache<string, string>;
  private readonly groupLookups = new Map<string, Promise<GroupMetadata | undefined>>();
  private readonly seenUpdates = new Set<string>();
  /** Disappearing-message timer per chat jid (seconds), as the chat's messages announce it: our replies follow it. */
  private readonly chatExpirations: TtlCache<string, number>;
  /**
   * How often each message was asked for again (a phone that could not decrypt it), kept across the
   * socket restarts of this session so a retry after a reconnect is still counted and answered.
   */
  private readonly retryCounters: ReturnType<typeof createKeyCache>;
  /** WhatsApp rate-limits (and flags) accounts that check many numbers: checks are paced and their answers kept. */
  private readonly numberChecks: WindowLimit;
  private readonly checkedNumbers: TtlCache<string, string | null>;
  /** The auth state in memory, reused on a restart WhatsApp asks for (515) instead of a reload racing the last save. */
  private authState: { state: AuthenticationState; saveCreds: () => Promise<void> } | undefined;
  private restartWithState = false;
  /** Ask for the WhatsApp Web version again (WhatsApp refused the one announced). */
  private freshVersion = false;
  private readonly lifecycle: SerialQueue;
  private readonly inbound: SerialQueue;
  private readonly chats: ChatLanes;
  /** Media downloads, each its own lane (DOWNLOADS_AT_ONCE at a time), started once their message is stored. */
  private readonly downloads: ChatLanes;
  /** Ids of the messages whose media is being fetched (or about to be): a refetch of one of them starts nothing. */
  private readonly downloading = new Set<string>();
  private readonly log: Logger;
  private readonly baileysLog: Logger;
  /** Messages acknowledged to WhatsApp that the database could not take yet; stored from here once it answers. */
  private readonly spool: InboundSpool | undefined;
  private spoolLoaded = false;
  private spoolTimer: NodeJS.Timeout | undefined;
  private spoolDelay: number;
  private draining: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly options: SessionOptions,
    private readonly config: BaileysSessionConfig,
  ) {
    this.log = options.logger;
    this.now = config.now ?? Date.now;
    this.groups = new TtlCache({ ...SESSION_CACHES.groups, now: this.now });
    this.groupSubjects = new TtlCache({ ...SESSION_CACHES.groupSubjects, now: this.now });
    this.chatExpirations = new TtlCache({ ...SESSION_CACHES.chatExpirations, now: this.now });
    this.retryCounters = createKeyCache({ ...SESSION_CACHES.retryCounters, now: this.now });
    this.numberChecks = new WindowLimit(config.numberChecks.max, config.numberChecks.windowMs, this.now);
    this.checkedNumbers = new TtlCache({ max: SESSION_CACHES.checkedNumbers.max, ttlMs: config.numberChecks.ttlMs, now: this.now });
    this.baileysLog = options.logger.child({ module: 'baileys' }, { level: config.baileysLogLevel });
    this.lifecycle = new SerialQueue((err) => this.log.error({ err }, 'channel status handler failed'));
    this.inbound = new SerialQueue((err) => this.log.error({ err }, 'channel event handler failed'));
    this.chats = new ChatLanes(CHATS_AT_ONCE, (err) => this.log.error({ err }, 'channel event handler failed'));
    this.downloads = new ChatLanes(DOWNLOADS_AT_ONCE, (err) => this.log.error({ err }, 'media handler failed'));
    this.spool = config.spoolDir ? new InboundSpool(path.join(config.spoolDir, `${options.whatsappId}.jsonl`)) : undefined;
    this.spoolDelay = this.spoolRetry.minMs;
  }

  private get spoolRetry(): { minMs: number; maxMs: number } {
    return this.config.spoolRetry ?? { minMs: 1_000, maxMs: 30_000 };
  }

  /** Resolves when every event received so far has been handed to the handlers. */
  async whenIdle(): Promise<void> {
    await Promise.all([this.lifecycle.idle(), this.inbound.idle(), this.chats.idle()]);
    await this.downloads.idle();
  }

  get isConnected(): boolean {
    return this.connected;
  }

  canSend(): boolean {
    return this.connected && this.socket !== undefined;
  }

  get hasPendingReconnect(): boolean {
    return this.reconnectTimer !== undefined;
  }

  async start(): Promise<void> {
    await this.endSocket(this.halt());
    this.authState = undefined;
    this.restartWithState = false;
    this.running = true;
    this.lifetime = new AbortController();
    this.attempts = 0;
    this.openedAt = undefined;
    this.replacedRetried = false;
    this.qrCount = 0;
    this.reportStatus('OPENING');
    await this.connect();
    await this.resumeSpool();
  }

  async stop(): Promise<void> {
    this.pauseSpool();
    const socket = this.halt();
    await this.endSocket(socket);
    // What waits stays in the file: the next start of this connection (here or after a restart) stores it.
    await this.spool?.close();
  }

  async logout(): Promise<void> {
    this.pauseSpool();
    const wasConnected = this.connected;
    const socket = this.halt();
    if (socket && wasConnected) {
      try {
        await socket.logout();
      } catch (err) {
        this.log.warn({ err }, 'logout request failed; forgetting the credentials anyway');
      }
    }
    await this.endSocket(socket);
    await this.options.auth.clear();
    this.reportStatus('DISCONNECTED', { unlinked: true });
    await this.lifecycle.idle();
  }

  async sendText(message: OutboundText): Promise<SentMessage> {
    return this.send('ERR_SENDING_WAPP_MSG', message.to, (socket, jid) =>
      this.sendOptions(jid, message).then((options) => socket.sendMessage(jid, { text: message.text }, options)),
    );
  }

  async sendMedia(message: OutboundMedia): Promise<SentMessage> {
    return this.send('ERR_SENDING_WAPP_MSG', message.to, async (socket, jid) =>
      socket.sendMessage(jid, mediaContent(message), await this.sendOptions(jid, message)),
    );
  }

  async sendPresence(to: ChannelPeer, presence: 'composing' | 'recording' | 'paused'): Promise<void> {
    const socket = this.liveSocket();
    const jid = jidForPeer(to);
    try {
      if (presence !== 'paused') await socket.presenceSubscribe?.(jid);
      await socket.sendPresenceUpdate?.(presence, jid);
    } catch (err) {
      // "typing…" is a courtesy: the message goes without it.
      this.log.debug({ err }, 'presence update failed');
    }
  }

  /**
   * Baileys' send options: the id the outbox chose, a quote, and in a disappearing chat its timer (else the
   * reply would stay forever on the customer's phone).
   */
  private async sendOptions(jid: string, message: { id?: string; quoted?: QuotedRef }): Promise<MiscMessageGenerationOptions | undefined> {
    const { id, quoted } = message;
    const expiration = await this.chatExpiration(jid);
    if (!id && !quoted && !expiration) return undefined;
    return {
      ...(id ? { messageId: id } : {}),
      ...(quoted ? { quoted: quotedMessage(jid, quoted) } : {}),
      ...(expiration ? { ephemeralExpiration: expiration } : {}),
    };
  }

  /**
   * A chat's disappearing-messages timer: kept with the session's keys (`chat-expiration:{jid}`), so a
   * restart does not forget it, and in memory once read (0: none).
   */
  private async chatExpiration(jid: string): Promise<number> {
    const known = this.chatExpirations.get(jid);
    if (known !== undefined) return known;
    const stored = (await this.options.auth.get<number>(`chat-expiration:${jid}`).catch(() => null)) ?? 0;
    this.chatExpirations.set(jid, stored);
    return stored;
  }

  private learnExpiration(msg: WAMessage): void {
    const expiration = chatExpirationOf(msg);
    if (expiration === undefined) return;
    const changes: Record<string, number | null> = {};
    for (const jid of [msg.key.remoteJid, msg.key.remoteJidAlt]) {
      if (!jid || this.chatExpirations.get(jid) === expiration) continue;
      this.chatExpirations.set(jid, expiration);
      changes[`chat-expiration:${jid}`] = expiration > 0 ? expiration : null;
    }
    if (Object.keys(changes).length === 0) return;
    // A lost write only means a later reply without the timer until the chat's next message says it again.
    this.options.auth.set(changes).catch((err: unknown) => this.log.warn({ err }, 'chat timer not saved'));
  }

  async deleteMessage(to: ChannelPeer, id: string, fromMe: boolean, raw?: unknown): Promise<void> {
    // The key the message was sent with: a chat addressed by LID, or a group (with its participant),
    // is deleted only by that exact key, not one rebuilt from the contact's number.
    const stored = (raw as { key?: WAMessageKey } | null | undefined)?.key;
    const key = stored?.id === id && stored.remoteJid ? stored : undefined;
    await this.send('ERR_DELETE_WAPP_MSG', to, (socket, jid) => {
      const remoteJid = key?.remoteJid ?? jid;
      const deleteKey: WAMessageKey = { remoteJid, fromMe: key?.fromMe ?? fromMe, id };
      if (key?.participant) deleteKey.participant = key.participant;
      return socket.sendMessage(remoteJid, { delete: deleteKey });
    });
  }

  async markRead(chat: ChannelPeer, ids: { id: string; participant?: string; raw?: unknown }[]): Promise<void> {
    const socket = this.liveSocket();
    if (ids.length === 0) return;
    const remoteJid = jidForPeer(chat);
    const keys: WAMessageKey[] = ids.map(({ id, participant, raw }) => {
      // The address the message came from (a LID chat, a LID-addressed group's participant): a receipt
      // to an address rebuilt from the contact's number does not reach the sender.
      const stored = (raw as { key?: WAMessageKey } | null | undefined)?.key;
      if (stored?.id === id && stored.remoteJid) {
        const key: WAMessageKey = { remoteJid: stored.remoteJid, id, fromMe: false };
        if (stored.participant) key.participant = stored.participant;
        return key;
      }
      return {
        remoteJid,
        id,
        fromMe: false,
        participant: participant ? (participant.includes('@') ? participant : `${participant.replace(/\D/g, '')}@s.whatsapp.net`) : undefined,
      };
    });
    try {
      await socket.readMessages(keys);
    } catch (err) {
      // A missed read receipt costs the customer two blue ticks, not worth failing the caller.
      this.log.warn({ err }, 'read receipt failed');
    }
  }

  async checkNumber(number: string): Promise<string | null> {
    this.liveSocket();
    const digits = number.replace(/\D/g, '');
    if (!digits) return null;
    const known = this.checkedNumbers.get(digits);
    if (known !== undefined) return known;
    try {
      await this.numberChecks.take(this.lifetime.signal);
    } catch {
      throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    }
    // The connection may have dropped while this waited its turn.
    const socket = this.liveSocket();
    let results: { jid: string; exists: boolean }[] | undefined;
    try {
      results = await socket.onWhatsApp(`${digits}@s.whatsapp.net`);
    } catch (err) {
      this.log.warn({ err }, 'number check failed');
      throw new AppError('ERR_WAPP_CHECK_CONTACT');
    }
    const hit = results?.find((r) => r.exists);
    const canonical = hit ? (identityOf(hit.jid).number ?? null) : null;
    // A number may join WhatsApp any day: "not on it" is kept an hour at most.
    this.checkedNumbers.set(digits, canonical, canonical ? undefined : Math.min(HOUR_MS, this.config.numberChecks.ttlMs));
    return canonical;
  }

  async requestPairingCode(number: string): Promise<string> {
    const socket = this.socket;
    // Only while a QR code is on offer: the socket is up and waits for a phone.
    if (!socket || this.connected || this.lastStatus !== 'qrcode' || !socket.requestPairingCode) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    const digits = number.replace(/\D/g, '');
    try {
      return await socket.requestPairingCode(digits);
    } catch (err) {
      this.log.warn({ err }, 'pairing code request failed');
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', { reason: 'pairing code refused' });
    }
  }

  // --- connection ---------------------------------------------------------------------------------

  private async connect(): Promise<void> {
    if (!this.running) return;
    const generation = ++this.generation;
    try {
      const reuse = this.restartWithState && this.authState;
      this.restartWithState = false;
      const { state, saveCreds } = reuse ? this.authState! : await useAuthStoreState(this.options.auth);
      this.authState = { state, saveCreds };
      const fresh = this.freshVersion;
      this.freshVersion = false;
      const version = this.config.socketConfig.version ?? (await this.config.webVersion(fresh));
      if (!this.running || generation !== this.generation) return;
      const socket = this.config.socketFactory({
        browser: Browsers.ubuntu('Atrium'),
        markOnlineOnConnect: false,
        // Our sends are stored when sent; an echo of them would only race that write.
        emitOwnEvents: false,
        // No history import exists: do not ask the phone for its whole history at pairing.
        syncFullHistory: false,
        shouldIgnoreJid: ignoredJid,
        getMessage: (key) => this.storedMessage(key),
        msgRetryCounterCache: this.retryCounters,
        // Baileys sends to a group's members from this (else it queries WhatsApp on every group send,
        // which WhatsApp rate-limits): our cache, kept across reconnects, fetched once on a miss.
        cachedGroupMetadata: (jid) => this.groupMetadata(jid),
        ...(version ? { version } : {}),
        ...this.config.socketConfig,
        logger: this.baileysLog as unknown as SocketConfig['logger'],
        auth: {
          creds: state.creds,
          keys: makeCacheableSignalKeyStore(state.keys, this.baileysLog as unknown as SocketConfig['logger'], createKeyCache({ now: this.now })),
        },
      });
      this.attach(socket, state.creds, saveCreds);
    } catch (err) {
      if (generation !== this.generation) return;
      this.log.error({ err }, 'could not open the WhatsApp socket');
      this.scheduleReconnect(undefined);
    }
  }

  private attach(socket: BaileysSocket, creds: object, saveCreds: () => Promise<void>): void {
    this.socket = socket;
    const current = () => this.socket === socket && this.running;
    const listeners: Listeners = {
      'connection.update': (update) => {
        if (!current()) return;
        if (update.qr) this.onQr(update.qr);
        if (update.connection === 'open') this.onOpen(socket);
        if (update.connection === 'close') this.onClose(update.lastDisconnect?.error);
      },
      'creds.update': (update) => {
        // Baileys merges the update itself; merging again keeps a socket that does not still correct.
        Object.assign(creds, update);
        saveCreds().catch((err: unknown) => this.log.error({ err }, 'could not save WhatsApp credentials'));
      },
      'messages.upsert': ({ messages, type }) => {
        if (!current() || (type !== 'notify' && type !== 'append')) return;
        for (const msg of messages) this.learnExpiration(msg);
        this.handleUpsert(messages, socket);
      },
      'messages.update': (updates) => {
        if (!current()) return;
        for (const u of updates) {
          const update = toMessageUpdate(u);
          if (update) this.chats.push([u.key.remoteJid ?? ''], () => this.receiveUpdate(update));
        }
      },
      'message-receipt.update': (receipts) => {
        if (!current()) return;
        for (const r of receipts) {
          const update = toReceiptUpdate(r);
          if (update) this.chats.push([r.key.remoteJid ?? ''], () => this.receiveUpdate(update));
        }
      },
      'lid-mapping.update': ({ lid, pn }) => {
        if (!current()) return;
        // Baileys learnt which phone number a privacy id (LID) stands for: the contact keeps both.
        const number = identityOf(pn).number;
        const lidDigits = identityOf(lid).lid;
        // In the lanes of both addresses: after the messages of either that arrived before it.
        if (number && lidDigits) this.chats.push([lid, pn], () => this.options.events.contactUpdate({ number, lid: lidDigits }));
      },
      'contacts.upsert': (contacts) => this.onContacts(socket, contacts),
      'contacts.update': (contacts) => this.onContacts(socket, contacts),
      call: (calls) => {
        const handler = this.options.events.call;
        if (!current() || !handler) return;
        for (const c of calls) {
          const call = toCallEvent(c);
          if (call) this.inbound.push(() => handler.call(this.options.events, call));
        }
      },
      'groups.upsert': (groups) => {
        if (!current()) return;
        for (const g of groups) this.rememberGroup(g);
      },
      'groups.update': (updates) => {
        if (!current()) return;
        for (const g of updates) {
          if (!g.id) continue;
          const known = this.groups.get(g.id);
          if (known) this.groups.set(g.id, { ...known, ...g } as GroupMetadata);
          if (g.subject && g.subject !== this.groupSubjects.get(g.id)) {
            this.groupSubjects.set(g.id, g.subject);
            const peer: ChannelPeer = { number: jidDecode(g.id)?.user ?? null, lid: null, isGroup: true, name: g.subject };
            this.inbound.push(() => this.options.events.contactUpdate(peer));
          }
        }
      },
      'group-participants.update': ({ id }) => {
        if (!current()) return;
        // Sending to a group encrypts for its members: stale members are fetched again.
        this.refreshGroup(id, socket);
      },
    };
    for (const [event, listener] of Object.entries(listeners)) {
      socket.ev.on(event as keyof BaileysEventMap, listener as (arg: unknown) => void);
    }
    this.listeners = listeners;
  }

  private onQr(code: string): void {
    this.qrCount += 1;
    if (this.qrCount > this.config.maxQrCodes) {
      this.log.info({ qrCodes: this.config.maxQrCodes }, 'no QR code scanned in time; giving up');
      const socket = this.halt();
      void this.endSocket(socket);
      this.reportStatus('TIMEOUT', { reason: 'qrcodeNotScanned' });
      return;
    }
    this.log.info({ qrCode: this.qrCount }, 'QR code issued');
    this.lastStatus = 'qrcode';
    this.report(() => this.options.events.qr(code));
  }

  private onOpen(socket: BaileysSocket): void {
    this.connected = true;
    // The backoff is not reset here: a connection that opens and drops at once would retry every few
    // seconds forever. It starts over once the connection proved stable (onClose).
    this.openedAt = this.now();
    this.qrCount = 0;
    const user = socket.user;
    this.me = { number: identityOf(user?.id).number ?? identityOf(user?.phoneNumber).number, lid: identityOf(user?.lid).lid };
    const number = this.me.number ?? undefined;
    this.log.info({ number }, 'WhatsApp connected');
    this.reportStatus('CONNECTED', number ? { number } : undefined);
  }

  private onClose(error: unknown): void {
    const code = disconnectCode(error);
    const reason = closeReason(code);
    this.connected = false;
    if (this.openedAt !== undefined && this.now() - this.openedAt >= this.config.reconnect.stableMs) {
      this.attempts = 0;
      this.replacedRetried = false;
    }
    this.openedAt = undefined;
    this.detach();
    if (code !== undefined && LOGGED_OUT.has(code)) {
      this.log.info({ code }, 'WhatsApp logged out; forgetting the credentials');
      this.halt();
      this.lastStatus = 'DISCONNECTED';
      this.report(async () => {
        await this.options.auth.clear();
        await this.options.events.status('DISCONNECTED', { reason: reason ?? 'loggedOut:401', unlinked: true });
      });
      return;
    }
    if (code === DisconnectReason.connectionReplaced) {
      void this.onReplaced(reason!);
      return;
    }
    if (code === VERSION_REFUSED) {
      this.log.warn({ code }, 'WhatsApp refused the WhatsApp Web version; fetching the current one');
      this.freshVersion = true;
    }
    if (code === DisconnectReason.restartRequired) this.restartWithState = true;
    // While retrying, one OPENING is enough (the handlers write it and push it to clients); a refused
    // version is said even mid-retry, as it will not go away by itself.
    if (this.lastStatus !== 'OPENING' || (code === VERSION_REFUSED && reason !== this.lastReason)) {
      this.reportStatus('OPENING', { reason: reason ?? 'connectionClosed' });
    }
    this.scheduleReconnect(code);
  }

  /**
   * Another session took this number over (440). When it is another process of ours, it holds the lease
   * now: reconnecting would knock it off in turn, forever; stop and keep the credentials. When this process
   * still holds the lease, the other was a stray (a partition healed, a phone's old link): one more try
   * after about a minute, so a number is not left with nobody connected; a second 440 stops it for good.
   */
  private async onReplaced(reason: string): Promise<void> {
    const generation = this.generation;
    let ours = false;
    if (!this.replacedRetried) {
      try {
        ours = this.options.holdsLease ? await this.options.holdsLease() : true;
      } catch (err) {
        this.log.warn({ err }, 'lease check after a 440 failed; taking the lease as lost');
      }
    }
    // Stopped or started again meanwhile: that call decided.
    if (!this.running || generation !== this.generation) return;
    if (!ours) {
      this.log.warn({ code: DisconnectReason.connectionReplaced }, 'WhatsApp connection replaced by another session; not reconnecting');
      this.halt();
      this.reportStatus('DISCONNECTED', { reason });
      return;
    }
    this.replacedRetried = true;
    const delay = this.config.reconnect.replacedRetryMs;
    this.log.warn({ code: DisconnectReason.connectionReplaced, delayMs: delay }, 'WhatsApp connection replaced while this process holds the lease; one more try');
    this.reportStatus('OPENING', { reason });
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
  }

  /** Next delay: none after a restart request (it follows a scan), else doubling from baseMs to maxMs with jitter. */
  private nextDelay(code: number | undefined): number {
    if (code === DisconnectReason.restartRequired) return 0;
    const { baseMs, maxMs, jitter } = this.config.reconnect;
    const exact = Math.min(maxMs, baseMs * 2 ** this.attempts);
    this.attempts += 1;
    const varied = exact * (1 + jitter * (Math.random() * 2 - 1));
    return Math.max(0, Math.round(Math.min(maxMs, varied)));
  }

  private scheduleReconnect(code: number | undefined): void {
    if (!this.running) return;
    clearTimeout(this.reconnectTimer);
    const delay = this.nextDelay(code);
    this.log.info({ code, delayMs: delay, attempt: this.attempts }, 'WhatsApp connection closed; reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
  }

  /** Stops everything that could act later: reconnects, the socket's listeners, pending waits. Returns the socket to end. */
  private halt(): BaileysSocket | undefined {
    this.running = false;
    this.connected = false;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.lifetime.abort();
    return this.detach();
  }

  private detach(): BaileysSocket | undefined {
    const socket = this.socket;
    this.generation += 1;
    this.socket = undefined;
    if (socket) {
      for (const [event, listener] of Object.entries(this.listeners)) {
        socket.ev.off(event as keyof BaileysEventMap, listener as (arg: unknown) => void);
      }
    }
    this.listeners = {};
    return socket;
  }

  private async endSocket(socket: BaileysSocket | undefined): Promise<void> {
    if (!socket) return;
    try {
      await socket.end(undefined);
    } catch (err) {
      this.log.debug({ err }, 'closing the socket failed');
    }
  }

  private report(task: () => Promise<void> | void): void {
    this.lifecycle.push(task);
  }

  private reportStatus(status: ChannelStatus, info?: StatusInfo): void {
    this.lastStatus = status;
    this.lastReason = info?.reason;
    this.report(() => (info ? this.options.events.status(status, info) : this.options.events.status(status)));
  }

  // --- inbound ------------------------------------------------------------------------------------

  /**
   * The messages of one upsert (a burst after reconnecting can hold hundreds), each chat's in its lane: in
   * order within the chat, side by side with other chats (so the pipeline writes them in batches). A chat
   * seen by phone number and by LID in the same burst is one chat.
   */
  private handleUpsert(messages: WAMessage[], socket: BaileysSocket): void {
    const chats: { jids: Set<string>; messages: WAMessage[] }[] = [];
    const chatOf = new Map<string, { jids: Set<string>; messages: WAMessage[] }>();
    for (const msg of messages) {
      const jids = [msg.key.remoteJid, msg.key.remoteJidAlt].filter((j): j is string => !!j);
      let chat = jids.map((j) => chatOf.get(j)).find((c) => c !== undefined);
      if (!chat) chats.push((chat = { jids: new Set(), messages: [] }));
      chat.messages.push(msg);
      for (const jid of jids) {
        chat.jids.add(jid);
        chatOf.set(jid, chat);
      }
    }
    for (const chat of chats) {
      this.chats.push([...chat.jids], async () => {
        for (const msg of chat.messages) {
          await this.receive(msg, socket).catch((err: unknown) => this.log.error({ err }, 'channel event handler failed'));
        }
      });
    }
  }

  /**
   * A message WhatsApp has been told we received: handled, or, when the database cannot take it, kept in
   * the spool and stored from there. While messages wait there, a new one goes behind them (its chat's
   * order holds).
   */
  private async receive(msg: WAMessage, socket: BaileysSocket): Promise<void> {
    const spool = this.spool;
    if (!spool) return this.handleMessage(msg, socket);
    if (!spool.holds) {
      try {
        await this.handleMessage(msg, socket);
        return;
      } catch (err) {
        this.log.warn({ err, messageId: msg.key.id }, 'inbound message not stored; kept in the spool to store later');
      }
    }
    await spool.add([{ message: msg }]);
    this.drainSoon();
  }

  /** A receipt, edit or delete: handed over, or spooled like a message (behind the messages waiting there). */
  private async receiveUpdate(update: MessageUpdate): Promise<void> {
    const spool = this.spool;
    if (!spool) return this.deliverUpdate(update);
    if (!spool.holds) {
      try {
        await this.deliverUpdate(update);
        return;
      } catch (err) {
        this.log.warn({ err, messageId: update.id }, 'message update not stored; kept in the spool to store later');
      }
    }
    await spool.add([{ update }]);
    this.drainSoon();
  }

  /** What an earlier run left in the spool is stored now (the session starts). */
  private async resumeSpool(): Promise<void> {
    if (!this.spool) return;
    if (!this.spoolLoaded) {
      await this.spool.load().catch((err: unknown) => this.log.error({ err }, 'reading the inbound spool failed'));
      this.spoolLoaded = true;
      if (this.spool.holds) this.log.warn({ waiting: this.spool.size }, 'inbound messages waiting in the spool');
    }
    this.spoolDelay = this.spoolRetry.minMs;
    if (this.spool.holds) this.drainSoon(0);
  }

  private pauseSpool(): void {
    clearTimeout(this.spoolTimer);
    this.spoolTimer = undefined;
  }

  private drainSoon(delay = this.spoolDelay): void {
    if (this.spoolTimer || this.draining || !this.running) return;
    this.spoolTimer = setTimeout(() => {
      this.spoolTimer = undefined;
      this.draining = this.drain()
        .catch((err: unknown) => this.log.error({ err }, 'storing the inbound spool failed'))
        .finally(() => {
          this.draining = undefined;
          if (this.spool?.holds) this.drainSoon();
        });
    }, delay);
  }

  /**
   * Stores the spool's messages in order. The database still unreachable: the round ends and the next
   * waits twice as long (up to spoolRetry.maxMs). A message failing otherwise is tried again in later
   * rounds and given up (logged) after SPOOL_MAX_FAILURES, so it does not hold the others forever.
   */
  private async drain(): Promise<void> {
    const spool = this.spool!;
    let progressed = true;
    while (progressed && this.running && spool.holds) {
      progressed = false;
      for (const entry of [...spool.entries()]) {
        const socket = this.socket;
        if (!this.running || !socket) return;
        try {
          if (entry.message) await this.handleMessage(entry.message, socket);
          else await this.deliverUpdate(entry.update);
        } catch (err) {
          if (isDatabaseUnreachable(err)) {
            this.spoolDelay = Math.min(this.spoolDelay * 2, this.spoolRetry.maxMs);
            this.log.warn({ err, waiting: spool.size }, 'database still unreachable; the inbound spool waits');
            return;
          }
          entry.failures += 1;
          if (entry.failures < SPOOL_MAX_FAILURES) {
            this.log.warn({ err, messageId: entry.message?.key.id ?? entry.update?.id }, 'spooled inbound message not stored; tried again later');
            continue;
          }
          this.log.error({ err, messageId: entry.message?.key.id ?? entry.update?.id }, 'spooled inbound message could not be stored; given up');
        }
        await spool.done(entry);
        progressed = true;
        this.spoolDelay = this.spoolRetry.minMs;
      }
    }
  }

  private async handleMessage(msg: WAMessage, socket: BaileysSocket): Promise<void> {
    const mapped = toInboundMessage(msg, { groupName: (jid) => this.groupSubjects.get(jid), me: this.me });
    if (!mapped) return;
    if (mapped.kind === 'update') {
      await this.deliverUpdate(mapped.update);
      return;
    }
    const message = mapped.message;
    const remoteJid = msg.key.remoteJid!;
    if (message.mediaType === 'unavailable' && message.body === PLACEHOLDER_KINDS.pollUpdateMessage) await this.readVote(message, msg);
    if (message.chat.isGroup && !message.chat.name) {
      const subject = await this.groupSubject(remoteJid, socket);
      if (subject) message.chat.name = subject;
    }
    await this.completeNumber(message.chat, socket);
    if (message.participant) await this.completeNumber(message.participant, socket);
    await this.mentionByNumber(message, msg, socket);
    // The message is stored at once, its media pending; the download follows outside the chat's lane.
    const media = mapped.media && this.options.events.mediaDownloaded ? mapped.media : undefined;
    if (mapped.media) message.mediaStatus = media ? 'pending' : 'failed';
    // Counted as downloading from before it is stored: a resume at connect racing this must not fetch it too.
    if (media) this.downloading.add(message.id);
    try {
      await this.options.events.message(message);
    } catch (err) {
      if (media) this.downloading.delete(message.id);
      throw err;
    }
    if (media) this.fetchMedia(msg, socket, message.id, media);
  }

  /**
   * The media of a stored message, fetched again (a download that failed, or one a crash or a stop cut
   * off): from the message object kept with it, through the same path as a new one. Baileys asks the phone
   * to upload media WhatsApp's servers no longer have (reuploadRequest), so an old file can come back.
   */
  async refetchMedia(id: string, raw: unknown): Promise<void> {
    const socket = this.liveSocket();
    if (!this.options.events.mediaDownloaded) throw new AppError('ERR_MEDIA_REFETCH_UNSUPPORTED');
    const msg = storedWAMessage(raw);
    if (!msg || msg.key.id !== id) throw new AppError('ERR_NO_MEDIA_TO_FETCH');
    const mapped = toInboundMessage(msg, { me: this.me });
    if (mapped?.kind !== 'message' || !mapped.media) throw new AppError('ERR_NO_MEDIA_TO_FETCH');
    if (this.downloading.has(id)) return;
    this.fetchMedia(msg, socket, id, mapped.media);
  }

  /**
   * Hands the message's media over as a stream the handler reads to a file (never held whole here). The
   * download starts only when the handler opens it (a duplicate or an echo of our own send is not fetched).
   */
  private fetchMedia(msg: WAMessage, socket: BaileysSocket, id: string, media: MediaDescriptor): void {
    const handler = this.options.events.mediaDownloaded!;
    const signal = this.lifetime.signal;
    const idleMs = this.config.mediaTimeoutMs;
    this.downloading.add(id);
    this.downloads.push([`media:${id}`], async () => {
      const open = async (): Promise<Readable> => {
        try {
          const got = await this.within(idleMs, this.config.downloadMedia(msg, socket, this.baileysLog));
          return watchedDownload(Buffer.isBuffer(got) ? Readable.from([got]) : got, idleMs, signal);
        } catch (err) {
          this.log.warn({ err, messageId: id }, 'media download failed');
          throw err;
        }
      };
      try {
        await handler({ id, mimetype: media.mimetype, filename: media.filename, fileLength: media.fileLength, open });
      } finally {
        this.downloading.delete(id);
      }
    });
  }

  /** Edits and deletes reach us twice (the protocol message and Baileys' own update): pass each on once. */
  private async deliverUpdate(update: MessageUpdate): Promise<void> {
    const result = { ...update };
    if (result.revoked && result.author?.chat.isGroup) result.author = { ...result.author, groupAdmin: this.isGroupAdmin(result.author) };
    if (result.editedBody !== undefined && !this.firstTime(`${update.id}|edit|${result.editedBody}`)) delete result.editedBody;
    if (result.revoked && !this.firstTime(`${update.id}|revoked`)) delete result.revoked;
    if (result.ack === undefined && result.editedBody === undefined && !result.revoked && !result.sendError && !result.reactionRemoved) return;
    try {
      await this.options.events.messageUpdate(result);
    } catch (err) {
      // Not applied (the spool tries again): the next attempt is not a repeat to drop.
      if (result.editedBody !== undefined) this.seenUpdates.delete(`${update.id}|edit|${result.editedBody}`);
      if (result.revoked) this.seenUpdates.delete(`${update.id}|revoked`);
      throw err;
    }
  }

  /** Whether a group delete's author is an admin of the group, as the cached metadata says (unknown: no). */
  private isGroupAdmin(author: UpdateAuthor): boolean {
    const group = this.groups.get(`${author.chat.number}@g.us`);
    const who = author.fromMe ? this.me : author.participant;
    if (!group || !who) return false;
    return group.participants.some((p) => {
      if (!p.admin) return false;
      const ids = [p.id, p.lid, p.phoneNumber].map((jid) => identityOf(jid));
      return ids.some((id) => (!!who.number && id.number === who.number) || (!!who.lid && id.lid === who.lid));
    });
  }

  private firstTime(key: string): boolean {
    if (this.seenUpdates.has(key)) return false;
    this.seenUpdates.add(key);
    if (this.seenUpdates.size > 2000) this.seenUpdates.delete(this.seenUpdates.values().next().value!);
    return true;
  }

  private onContacts(socket: BaileysSocket, contacts: Parameters<typeof toContactUpdate>[0][]): void {
    if (this.socket !== socket || !this.running) return;
    for (const c of contacts) {
      const peer = toContactUpdate(c);
      if (!peer) continue;
      const jids = [c.id, c.lid, c.phoneNumber].filter((j): j is string => !!j);
      this.chats.push(jids, () => this.options.events.contactUpdate(peer));
    }
  }

  private rememberGroup(group: GroupMetadata): void {
    this.groups.set(group.id, group);
    if (group.subject) this.groupSubjects.set(group.id, group.subject);
  }

  /** A group's subject: cached, else from its metadata (fetched once, within a time limit). */
  private async groupSubject(jid: string, socket: BaileysSocket): Promise<string | undefined> {
    const known = this.groupSubjects.get(jid);
    if (known) return known;
    return (await this.groupMetadata(jid, socket))?.subject || undefined;
  }

  /**
   * A group's metadata: cached for a day and across reconnects, else fetched from WhatsApp (concurrent asks
   * share the fetch) within a time limit; undefined when that fails (Baileys then asks WhatsApp itself).
   */
  private groupMetadata(jid: string, socket: BaileysSocket | undefined = this.socket): Promise<GroupMetadata | undefined> {
    const known = this.groups.get(jid);
    if (known) return Promise.resolve(known);
    if (!socket) return Promise.resolve(undefined);
    return this.fetchGroup(jid, socket);
  }

  private fetchGroup(jid: string, socket: BaileysSocket): Promise<GroupMetadata | undefined> {
    let lookup = this.groupLookups.get(jid);
    if (!lookup) {
      lookup = this.within(this.config.groupLookupTimeoutMs, socket.groupMetadata(jid))
        .then((group) => {
          this.rememberGroup(group);
          return group;
        })
        .catch((err: unknown) => {
          this.log.warn({ err, group: jid }, 'group metadata lookup failed');
          return undefined;
        })
        .finally(() => this.groupLookups.delete(jid));
      this.groupLookups.set(jid, lookup);
    }
    return lookup;
  }

  /** Members joined or left: the metadata is fetched again, after any fetch already under way (it may predate the change). */
  private refreshGroup(jid: string, socket: BaileysSocket): void {
    this.groups.delete(jid);
    const before = this.groupLookups.get(jid) ?? Promise.resolve(undefined);
    void before.then(() => {
      if (this.socket !== socket || !this.running) return;
      this.groups.delete(jid);
      return this.fetchGroup(jid, socket);
    });
  }

  /** Adds the phone number of a LID-only peer when Baileys has learnt the pair (a local lookup). */
  private async completeNumber(peer: ChannelPeer, socket: BaileysSocket): Promise<void> {
    if (peer.isGroup || peer.number || !peer.lid) return;
    const lidMapping = socket.signalRepository?.lidMapping;
    if (!lidMapping) return;
    try {
      const pn = await lidMapping.getPNForLID(`${peer.lid}@lid`);
      const number = identityOf(pn).number;
      if (number) peer.number = number;
    } catch (err) {
      this.log.debug({ err }, 'LID lookup failed');
    }
  }

  /**
   * A mention in a LID-addressed group is written "@<LID>", digits nobody recognises: it names the person by
   * the phone number instead when Baileys has learnt the pair (a local lookup); else it stays as it is.
   */
  private async mentionByNumber(message: InboundMessage, msg: WAMessage, socket: BaileysSocket): Promise<void> {
    const lidMapping = socket.signalRepository?.lidMapping;
    if (!lidMapping || !message.body) return;
    const lids = new Set(mentionedJids(msg).map((jid) => identityOf(jid).lid).filter((lid): lid is string => !!lid));
    for (const lid of lids) {
      const written = new RegExp(`@${lid}(?!\\d)`, 'g');
      if (!message.body.includes(`@${lid}`)) continue;
      try {
        const number = identityOf(await lidMapping.getPNForLID(`${lid}@lid`)).number;
        if (number) message.body = message.body.replace(written, `@${number}`);
      } catch (err) {
        this.log.debug({ err }, 'LID lookup for a mention failed');
      }
    }
  }

  /** The promise, or a rejection after `ms` or when the session stops; never leaves a timer behind. */
  private within<T>(ms: number, promise: Promise<T>): Promise<T> {
    const signal = this.lifetime.signal;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const limit = new Promise<never>((_, reject) => {
      if (signal.aborted) return reject(new Error('session stopped'));
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
      onAbort = () => reject(new Error('session stopped'));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    return Promise.race([promise, limit]).finally(() => {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    });
  }

  /** A vote on a poll we sent (its secret is in the stored copy) becomes the options chosen, as text. */
  private async readVote(message: InboundMessage, msg: WAMessage): Promise<void> {
    const pollId = msg.message?.pollUpdateMessage?.pollCreationMessageKey?.id;
    const poll = pollId ? await this.storedMessage({ id: pollId }) : undefined;
    const body = poll ? readPollVote(msg, poll, this.me) : undefined;
    if (body === undefined) return;
    message.body = body;
    message.mediaType = 'chat';
  }

  /**
   * A message we sent, for a phone that asks for it again (it could not decrypt it): from the stored
   * copy, so the answer survives reconnects and restarts. Nothing for a message we do not have.
   */
  private async storedMessage(key: WAMessageKey): Promise<proto.IMessage | undefined> {
    const lookup = this.options.events.sentMessage;
    if (!key.id || !lookup) return undefined;
    try {
      const raw = (await lookup.call(this.options.events, key.id)) as { message?: unknown } | null | undefined;
      if (!raw || typeof raw !== 'object' || !raw.message) return undefined;
      return proto.Message.fromObject(reviveBuffers(raw.message) as Record<string, unknown>);
    } catch (err) {
      this.log.warn({ err, messageId: key.id }, 'stored message lookup for a retry failed');
      return undefined;
    }
  }

  // --- outbound -----------------------------------------------------------------------------------

  private liveSocket(): BaileysSocket {
    if (!this.socket || !this.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return this.socket;
  }

  private async send(
    failure: 'ERR_SENDING_WAPP_MSG' | 'ERR_DELETE_WAPP_MSG',
    to: ChannelPeer,
    action: (socket: BaileysSocket, jid: string) => Promise<WAMessage | undefined>,
  ): Promise<SentMessage> {
    const socket = this.liveSocket();
    const jid = jidForPeer(to);
    let sent: WAMessage | undefined;
    try {
      sent = await action(socket, jid);
    } catch (err) {
      this.log.warn({ err }, failure === 'ERR_DELETE_WAPP_MSG' ? 'delete for everyone failed' : 'send failed');
      throw new AppError(failure);
    }
    if (!sent?.key?.id) throw new AppError(failure);
    const seconds = toNumber(sent.messageTimestamp ?? 0);
    return { id: sent.key.id, timestamp: seconds > 0 ? new Date(seconds * 1000) : new Date(), raw: sent };
  }
}
