import { describe, expect, it } from 'vitest';
import { canEncrypt, createSecureTokenStore, REFRESH_TOKEN_KEY, type SafeStorageLike } from './secure-token.js';
import { MemoryBackend } from './testing/fakes.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.refresh-token-for-ana.c2lnbmF0dXJl';

/** A reversible stand-in for the OS keychain: the key never appears in what it returns. */
class FakeSafeStorage implements SafeStorageLike {
  available = true;
  backendName = 'gnome_libsecret';
  key = 0x5a;
  isEncryptionAvailable = () => this.available;
  getSelectedStorageBackend = () => this.backendName;
  encryptString = (plain: string) => Buffer.from([...Buffer.from(`v10${plain}`)].map((b) => b ^ this.key));
  decryptString = (encrypted: Buffer) => {
    const plain = Buffer.from([...encrypted].map((b) => b ^ this.key)).toString();
    if (!plain.startsWith('v10')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return plain.slice(3);
  };
}

describe('secure token store', () => {
  it('stores the token encrypted when safeStorage can encrypt', () => {
    const safeStorage = new FakeSafeStorage();
    const backend = new MemoryBackend();
    const tokens = createSecureTokenStore({ safeStorage, backend, platform: 'win32' });
    tokens.set(TOKEN);
    const stored = backend.get(REFRESH_TOKEN_KEY);
    expect(typeof stored).toBe('string');
    expect(stored).not.toContain(TOKEN);
    expect(JSON.stringify([...backend.data])).not.toContain('refresh-token-for-ana');
    expect(tokens.isPersistent()).toBe(true);
    expect(tokens.get()).toBe(TOKEN);
    // A restart reads it back from disk.
    expect(createSecureTokenStore({ safeStorage, backend, platform: 'win32' }).get()).toBe(TOKEN);
  });

  it('keeps the token only in memory when encryption is unavailable', () => {
    const safeStorage = new FakeSafeStorage();
    safeStorage.available = false;
    const backend = new MemoryBackend();
    const tokens = createSecureTokenStore({ safeStorage, backend, platform: 'linux' });
    tokens.set(TOKEN);
    expect(tokens.get()).toBe(TOKEN);
    expect(tokens.isPersistent()).toBe(false);
    expect(backend.data.size).toBe(0);
    expect(createSecureTokenStore({ safeStorage, backend, platform: 'linux' }).get()).toBeNull();
  });

  it("treats Linux's basic_text fallback as no encryption", () => {
    const safeStorage = new FakeSafeStorage();
    safeStorage.backendName = 'basic_text';
    expect(canEncrypt(safeStorage, 'linux')).toBe(false);
    expect(canEncrypt(safeStorage, 'darwin')).toBe(true);
    const backend = new MemoryBackend();
    const tokens = createSecureTokenStore({ safeStorage, backend, platform: 'linux' });
    tokens.set(TOKEN);
    expect(backend.has(REFRESH_TOKEN_KEY)).toBe(false);
    expect(tokens.get()).toBe(TOKEN);
  });

  it('drops a stale encrypted token when a new one can only live in memory', () => {
    const safeStorage = new FakeSafeStorage();
    const backend = new MemoryBackend();
    const tokens = createSecureTokenStore({ safeStorage, backend, platform: 'darwin' });
    tokens.set('old-token');
    safeStorage.available = false;
    tokens.set(TOKEN);
    expect(backend.has(REFRESH_TOKEN_KEY)).toBe(false);
    expect(tokens.get()).toBe(TOKEN);
  });

  it('discards a clear-text value found under the key', () => {
    const backend = new MemoryBackend();
    backend.set(REFRESH_TOKEN_KEY, TOKEN);
    const tokens = createSecureTokenStore({ safeStorage: new FakeSafeStorage(), backend, platform: 'win32' });
    expect(tokens.get()).toBeNull();
    expect(backend.has(REFRESH_TOKEN_KEY)).toBe(false);
  });

  it('forgets a token the keychain can no longer decrypt', () => {
    const safeStorage = new FakeSafeStorage();
    const backend = new MemoryBackend();
    createSecureTokenStore({ safeStorage, backend, platform: 'win32' }).set(TOKEN);
    safeStorage.key = 0x13; // another user profile / a reset keychain
    const tokens = createSecureTokenStore({ safeStorage, backend, platform: 'win32' });
    expect(tokens.get()).toBeNull();
    expect(backend.has(REFRESH_TOKEN_KEY)).toBe(false);
  });

  it('clears from disk and memory', () => {
    const safeStorage = new FakeSafeStorage();
    const backend = new MemoryBackend();
    const tokens = createSecureTokenStore({ safeStorage, backend, platform: 'win32' });
    tokens.set(TOKEN);
    tokens.clear();
    expect(tokens.get()).toBeNull();
    expect(backend.data.size).toBe(0);
    safeStorage.available = false;
    tokens.set(TOKEN);
    tokens.clear();
    expect(tokens.get()).toBeNull();
  });

  it('refuses values that are not tokens', () => {
    const tokens = createSecureTokenStore({ safeStorage: new FakeSafeStorage(), backend: new MemoryBackend(), platform: 'win32' });
    for (const bad of ['', 42, null, { token: TOKEN }, 'x'.repeat(9000)]) expect(() => tokens.set(bad)).toThrow(TypeError);
    expect(tokens.get()).toBeNull();
  });
});
