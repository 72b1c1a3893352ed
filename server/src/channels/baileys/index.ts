import { makeWASocket } from '@whiskeysockets/baileys';
import type { ChannelProvider, ChannelSession, SessionOptions } from '../types.js';
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
  /** Reconnect backoff: baseMs (default 2000) doubling to maxMs (default 60000), ±jitter (default 0.2). */
  reconnect?: { baseMs?: number; maxMs?: number; jitter?: number };
  /** QR codes shown without a scan before TIMEOUT (default 5). */
  maxQrCodes?: number;
  /** Fetches a message's media (default: Baileys' downloadMediaMessage). */
  downloadMedia?: MediaDownloader;
  mediaTimeoutMs?: number;
  groupLookupTimeoutMs?: number;
  /** Level of Baileys' own logs (default 'warn'). */
  baileysLogLevel?: string;
  socketConfig?: BaileysSessionConfig['socketConfig'];
}

export const createBaileysProvider = (options: BaileysProviderOptions = {}): ChannelProvider => {
  const config: BaileysSessionConfig = {
    socketFactory: options.socketFactory ?? ((socketConfig) => makeWASocket(socketConfig)),
    reconnect: {
      baseMs: options.reconnect?.baseMs ?? 2_000,
      maxMs: options.reconnect?.maxMs ?? 60_000,
      jitter: options.reconnect?.jitter ?? 0.2,
    },
    maxQrCodes: options.maxQrCodes ?? 5,
    downloadMedia: options.downloadMedia ?? defaultDownloadMedia,
    mediaTimeoutMs: options.mediaTimeoutMs ?? 120_000,
    groupLookupTimeoutMs: options.groupLookupTimeoutMs ?? 5_000,
    baileysLogLevel: options.baileysLogLevel ?? 'warn',
    socketConfig: options.socketConfig ?? {},
  };
  return {
    name: BAILEYS_PROVIDER_NAME,
    createSession: (session: SessionOptions): ChannelSession => new BaileysSession(session, config),
  };
};

export { BaileysSession, defaultDownloadMedia, disconnectCode, mediaContent, quotedMessage } from './session.js';
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
