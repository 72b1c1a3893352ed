import {
  BufferJSON,
  initAuthCreds,
  proto,
  type AuthenticationCreds,
  type AuthenticationState,
  type CacheStore,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys';
import type { AuthStore } from '../types.js';
import { cacheStore, type TtlCacheOptions } from './ttl-cache.js';

/**
 * A Baileys auth state kept in the session's AuthStore (PostgreSQL), never on disk: the credentials
 * under `creds`, every signal key under `${type}-${id}`. Buffers go through Baileys' BufferJSON, so
 * what is stored is plain JSON and comes back with its Buffers.
 */
export const CREDS_KEY = 'creds';

export const keyName = (type: string, id: string): string => `${type}-${id}`;

/** A value as plain JSON (Buffers as `{type: 'Buffer', data: base64}`). */
export const toStored = (value: unknown): unknown => JSON.parse(JSON.stringify(value, BufferJSON.replacer));

/** A stored value with its Buffers revived. */
export const fromStored = <T>(value: unknown): T => JSON.parse(JSON.stringify(value), BufferJSON.reviver) as T;

export interface StoredAuthState {
  state: AuthenticationState;
  /** Writes the current credentials; calls are applied in order. */
  saveCreds(): Promise<void>;
}

export const useAuthStoreState = async (store: AuthStore): Promise<StoredAuthState> => {
  const stored = await store.get(CREDS_KEY);
  const creds: AuthenticationCreds = stored ? fromStored<AuthenticationCreds>(stored) : initAuthCreds();

  const keys: SignalKeyStore = {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const found = ids.length > 0 ? await store.getMany(ids.map((id) => keyName(type, id))) : {};
      const data: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const id of ids) {
        const raw = found[keyName(type, id)];
        if (raw === undefined || raw === null) continue;
        const value = fromStored<SignalDataTypeMap[T]>(raw);
        data[id] =
          type === 'app-state-sync-key'
            ? (proto.Message.AppStateSyncKeyData.fromObject(value as object) as unknown as SignalDataTypeMap[T])
            : value;
      }
      return data;
    },
    async set(data: SignalDataSet) {
      const entries: Record<string, unknown> = {};
      for (const type of Object.keys(data) as (keyof SignalDataSet)[]) {
        for (const [id, value] of Object.entries(data[type] ?? {})) {
          entries[keyName(type, id)] = value ? toStored(value) : null;
        }
      }
      if (Object.keys(entries).length === 0) return;
      // The creds travel with the keys (one write) when they changed: they hold the counters (next pre-key
      // id, signed pre-key) that say which keys exist, and must never be stored ahead of or behind them.
      await write(entries);
    },
  };

  /** The credentials as last stored (JSON text): unchanged ones are not written again with every key. */
  let storedCreds: string | undefined = stored ? JSON.stringify(toStored(creds)) : undefined;
  let writes: Promise<void> = Promise.resolve();
  /**
   * Chained so that an older snapshot never lands after a newer one; the snapshot of the credentials is
   * taken when its turn comes, and goes along only when it differs from the one stored.
   */
  const write = (entries: Record<string, unknown>): Promise<void> => {
    const next = writes.then(async () => {
      const snapshot = toStored(creds);
      const text = JSON.stringify(snapshot);
      const changed = text !== storedCreds;
      const all = changed ? { ...entries, [CREDS_KEY]: snapshot } : entries;
      if (Object.keys(all).length === 0) return;
      await store.set(all);
      if (changed) storedCreds = text;
    });
    writes = next.catch(() => undefined);
    return next;
  };
  const saveCreds = (): Promise<void> => write({});

  return { state: { creds, keys }, saveCreds };
};

/** How long a signal key stays in memory after it was read or written (Baileys' own default: 5 minutes). */
export const KEY_CACHE_TTL_MS = 5 * 60_000;
/** Signal keys kept in memory per connection at most (least recently used out). */
export const KEY_CACHE_MAX = 5_000;

/**
 * An in-process cache in front of the key store (what makeCacheableSignalKeyStore wants): bounded in size
 * and in time, without timers, so nothing outlives the socket it serves and an idle number holds no keys.
 */
export const createKeyCache = (options: Partial<TtlCacheOptions> = {}): CacheStore =>
  cacheStore({ max: options.max ?? KEY_CACHE_MAX, ttlMs: options.ttlMs ?? KEY_CACHE_TTL_MS, now: options.now });
