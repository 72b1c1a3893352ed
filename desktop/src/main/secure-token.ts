import type { IpcRegistrar } from './ipc.js';
import type { KeyValueBackend } from './store.js';

/** The part of Electron's safeStorage used here. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron. */
  getSelectedStorageBackend?(): string;
}

export const REFRESH_TOKEN_KEY = 'refreshToken';
/** Marks a stored value as safeStorage ciphertext; anything else found under the key is discarded. */
const CIPHERTEXT_PREFIX = 'safeStorage:v1:';
const MAX_TOKEN_LENGTH = 8192;

export interface SecureTokenStore {
  get(): string | null;
  set(token: unknown): void;
  clear(): void;
  /** Whether the token survives a restart (encrypted at rest) or lives only in memory. */
  isPersistent(): boolean;
}

/**
 * True when safeStorage really encrypts. On Linux without a keyring Electron falls back to
 * 'basic_text', a fixed key: that is clear text in disguise, so it counts as unavailable.
 */
export function canEncrypt(safeStorage: SafeStorageLike, platform: string): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') return false;
  return true;
}

export function createSecureTokenStore(deps: {
  safeStorage: SafeStorageLike;
  backend: Pick<KeyValueBackend, 'get' | 'set' | 'delete'>;
  platform: string;
}): SecureTokenStore {
  const { safeStorage, backend, platform } = deps;
  let inMemory: string | null = null;
  // Asked on every call: safeStorage answers only after the app is ready, and a keyring can come and go.
  const persistent = () => canEncrypt(safeStorage, platform);

  const readStored = (): string | null => {
    const stored = backend.get(REFRESH_TOKEN_KEY);
    if (stored === undefined) return null;
    if (typeof stored !== 'string' || !stored.startsWith(CIPHERTEXT_PREFIX)) {
      backend.delete(REFRESH_TOKEN_KEY);
      return null;
    }
    try {
      return safeStorage.decryptString(Buffer.from(stored.slice(CIPHERTEXT_PREFIX.length), 'base64'));
    } catch {
      // Another user's or a reset keychain: the token is lost, sign in again.
      backend.delete(REFRESH_TOKEN_KEY);
      return null;
    }
  };

  return {
    get: () => (persistent() ? readStored() : inMemory),
    set(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
        throw new TypeError('A refresh token is a non-empty string');
      }
      if (persistent()) {
        backend.set(REFRESH_TOKEN_KEY, CIPHERTEXT_PREFIX + safeStorage.encryptString(token).toString('base64'));
        inMemory = null;
      } else {
        // Never written in clear; an older encrypted token would be stale, so it goes too.
        backend.delete(REFRESH_TOKEN_KEY);
        inMemory = token;
      }
    },
    clear() {
      inMemory = null;
      backend.delete(REFRESH_TOKEN_KEY);
    },
    isPersistent: persistent,
  };
}

export function registerSecureTokenIpc(ipc: IpcRegistrar, tokens: SecureTokenStore): void {
  ipc.handle('getRefreshToken', () => tokens.get());
  ipc.handle('setRefreshToken', (token) => {
    tokens.set(token);
  });
  ipc.handle('clearRefreshToken', () => {
    tokens.clear();
  });
}
