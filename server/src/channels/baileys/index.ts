import { fetchLatestWaWebVersion, makeWASocket, type WAVersion } from '@whiskeysockets/baileys';
import type { ChannelProvider, ChannelSession, SessionOptions } from '../types.js';
import { CREDS_KEY } from './auth-state.js';
import {
  BaileysSession,
  defaultDownloadMedia,
  type BaileysSessionConfig,
  type MediaDownloader,
  type SocketFactory,
} from './session.js';

/**
 * The `beta` channel: WhatsApp through Baileys (a WhatsApp Web client), credentials in PostgreSQL
 * through the session's AuthStore.
 */
export const BAILEYS_PROVIDER_NAME = 'beta';

export interface BaileysProviderOptions {
  /** Builds the socket (default: Baileys' makeWASocket). Tests pass a fake with the same `ev` API. */
  socketFactory?: SocketFactory;
  /**
   * Reconnect backoff: baseMs (default 2000) doubling to maxMs (default 60000), ±jitter (default 0.2),
   * starting over once a connection stayed open stableMs (default 3 minutes); after a 440 under our own
   * lease, one more try after replacedRetryMs (default a minute).
   */
  reconnect?: { baseMs?: number; maxMs?: number; jitter?: number; stableMs?: number; replacedRetryMs?: number };
  /** QR codes shown without a scan before TIMEOUT (default 5). */
  maxQrCodes?: number;
  /** Fetches a message's media (default: Baileys' downloadMediaMessage). */
  downloadMedia?: MediaDownloader;
  mediaTimeoutMs?: number;
  groupLookupTimeoutMs?: number;
  /** Level of Baileys' own logs (default 'warn'). */
  baileysLogLevel?: string;
  socketConfig?: BaileysSessionConfig['socketConfig'];
  /** How long a failed version fetch stands before another try (default 5 minutes). */
  webVersionFailureTtlMs?: number;
  /** A fixed WhatsApp Web version ("2.3000.1023456789"); default: WA_WEB_VERSION, else fetched. */
  webVersion?: string;
  /** Fetches the current WhatsApp Web version (default: Baileys' fetchLatestWaWebVersion from web.whatsapp.com). */
  fetchWebVersion?: (signal: AbortSignal) => Promise<WAVersion | undefined>;
  /** Limit on that fetch (default 5000 ms) and how long its answer is reused (default 6 h). */
  webVersionTimeoutMs?: number;
  webVersionTtlMs?: number;
  /** Where messages the database could not take wait (a file per connection; default none: app.ts sets DATA_DIR/spool). */
  spoolDir?: string;
  spoolRetry?: { minMs: number; maxMs: number };
  /**
   * Number checks per connection: at most max (default 60) within windowMs (default a minute), answers
   * reused ttlMs (default a day; "not on WhatsApp" an hour at most).
   */
  numberChecks?: { max?: number; windowMs?: number; ttlMs?: number };
  /** The clock of the sessions' caches and backoff (tests inject one); default Date.now. */
  now?: () => number;
}

/** "2.3000.1023456789" as Baileys' version triple, or undefined when it is not one. */
export const parseWebVersion = (text: string | undefined): WAVersion | undefined => {
  const m = /^\s*(\d+)\.(\d+)\.(\d+)\s*$/.exec(text ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
};

const fetchLatest = async (signal: AbortSignal): Promise<WAVersion | undefined> => {
  const result = await fetchLatestWaWebVersion({ signal });
  // On failure Baileys answers its bundled version with an error: that is our fallback anyway.
  return result.error ? undefined : result.version;
};

/**
 * The version every session announces: the setting when given; else the current one, fetched once for
 * all sessions within a time limit and reused for a while (again at once when WhatsApp refused it);
 * else undefined, Baileys' bundled version.
 */
export const webVersionSource = (options: {
  fixed?: WAVersion;
  fetch: (signal: AbortSignal) => Promise<WAVersion | undefined>;
  timeoutMs: number;
  ttlMs: number;
  /** How long a failed fetch stands before the next connection tries again (offline: no 5 s wait on each reconnect). */
  failureTtlMs?: number;
  now?: () => number;
}): ((fresh?: boolean) => Promise<WAVersion | undefined>) => {
  const now = options.now ?? Date.now;
  const failureTtlMs = options.failureTtlMs ?? 5 * 60_000;
  let cached: { version: WAVersion | undefined; until: number } | undefined;
  let pending: Promise<WAVersion | undefined> | undefined;
  return async (fresh = false) => {
    if (options.fixed) return options.fixed;
    if (!fresh && cached && now() < cached.until) return cached.version;
    pending ??= options
      .fetch(AbortSignal.timeout(options.timeoutMs))
      .catch(() => undefined)
      .then((version) => {
        // A failed fetch stands for minutes, not hours: the bundled version meanwhile, then another try.
        cached = { version, until: now() + (version ? options.ttlMs : failureTtlMs) };
        return version;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
};

export const createBaileysProvider = (options: BaileysProviderOptions = {}): ChannelProvider => {
  const config: BaileysSessionConfig = {
    socketFactory: options.socketFactory ?? ((socketConfig) => makeWASocket(socketConfig)),
    reconnect: {
      baseMs: options.reconnect?.baseMs ?? 2_000,
      maxMs: options.reconnect?.maxMs ?? 60_000,
      jitter: options.reconnect?.jitter ?? 0.2,
      stableMs: options.reconnect?.stableMs ?? 3 * 60_000,
      replacedRetryMs: options.reconnect?.replacedRetryMs ?? 60_000,
    },
    maxQrCodes: options.maxQrCodes ?? 5,
    downloadMedia: options.downloadMedia ?? defaultDownloadMedia,
    mediaTimeoutMs: options.mediaTimeoutMs ?? 120_000,
    groupLookupTimeoutMs: options.groupLookupTimeoutMs ?? 5_000,
    baileysLogLevel: options.baileysLogLevel ?? 'warn',
    socketConfig: options.socketConfig ?? {},
    numberChecks: {
      // The contact lists' own pace (4 a second): the cap holds every caller together to it, not below it.
      max: options.numberChecks?.max ?? 240,
      windowMs: options.numberChecks?.windowMs ?? 60_000,
      ttlMs: options.numberChecks?.ttlMs ?? 24 * 60 * 60_000,
    },
    now: options.now,
    webVersion: webVersionSource({
      fixed: parseWebVersion(options.webVersion ?? process.env.WA_WEB_VERSION),
      fetch: options.fetchWebVersion ?? fetchLatest,
      timeoutMs: options.webVersionTimeoutMs ?? 5_000,
      ttlMs: options.webVersionTtlMs ?? 6 * 60 * 60 * 1000,
      failureTtlMs: options.webVersionFailureTtlMs,
    }),
    spoolDir: options.spoolDir,
    spoolRetry: options.spoolRetry,
  };
  return {
    name: BAILEYS_PROVIDER_NAME,
    createSession: (session: SessionOptions): ChannelSession => new BaileysSession(session, config),
    // Baileys sets `me` once a phone has scanned the code.
    isPaired: async (auth) => !!(await auth.get<{ me?: { id?: string } }>(CREDS_KEY))?.me?.id,
  };
};

export { BaileysSession, closeReason, defaultDownloadMedia, disconnectCode, ignoredJid, mediaContent, quotedMessage } from './session.js';
export type { BaileysSessionConfig, BaileysSocket, MediaDownloader, SocketFactory } from './session.js';
export {
  identityOf,
  jidForPeer,
  mediaTypeForMime,
  peerFromJids,
  textOf,
  toCallEvent,
  toContactUpdate,
  toInboundMessage,
  toMessageUpdate,
  toReceiptUpdate,
} from './mapping.js';
export type { BaileysMapped, MappingContext, MediaDescriptor, OwnIdentity } from './mapping.js';
export { CREDS_KEY, createKeyCache, fromStored, keyName, toStored, useAuthStoreState } from './auth-state.js';
export type { StoredAuthState } from './auth-state.js';
