import {
  DEFAULT_SERVER_URL,
  InvalidSettingError,
  SETTING_KEYS,
  isSettingKey,
  normalizeServerUrl,
  parseSetting,
  readSetting,
  type DesktopSettings,
  type SettingKey,
} from '../common/settings.js';
import type { IpcRegistrar } from './ipc.js';

/** What the settings need from electron-store (an in-memory map in tests). */
export interface KeyValueBackend {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  has(key: string): boolean;
  delete(key: string): void;
}

export const SERVER_URL_KEY = 'serverUrl';

export interface SettingsStore {
  getSettings(): DesktopSettings;
  getSetting<K extends SettingKey>(key: K): DesktopSettings[K];
  /** Validates (throws InvalidSettingError), stores and returns the stored value. */
  setSetting(key: unknown, value: unknown): DesktopSettings[SettingKey];
  getServerUrl(): string;
  hasServerUrl(): boolean;
  /** Returns the normalised origin and whether it differs from the one in use before. */
  setServerUrl(url: unknown): { url: string; changed: boolean };
}

/** The server used until the user picks one: ATRIUM_SERVER_URL when it is a valid origin, else the default. */
export function defaultServerUrl(fromEnv: string | undefined): string {
  if (fromEnv === undefined || fromEnv === '') return DEFAULT_SERVER_URL;
  try {
    return normalizeServerUrl(fromEnv);
  } catch {
    return DEFAULT_SERVER_URL;
  }
}

export function createSettingsStore(backend: KeyValueBackend, options: { defaultServerUrl?: string } = {}): SettingsStore {
  const fallbackUrl = options.defaultServerUrl ?? DEFAULT_SERVER_URL;

  const storedServerUrl = (): string | undefined => {
    const stored = backend.get(SERVER_URL_KEY);
    try {
      return normalizeServerUrl(stored);
    } catch {
      return undefined;
    }
  };

  const getSetting = <K extends SettingKey>(key: K): DesktopSettings[K] => readSetting(key, backend.get(key));

  return {
    getSettings: () => Object.fromEntries(SETTING_KEYS.map((key) => [key, getSetting(key)])) as unknown as DesktopSettings,
    getSetting,
    setSetting(key, value) {
      if (!isSettingKey(key)) throw new InvalidSettingError(String(key), 'unknown setting');
      const parsed = parseSetting(key, value);
      backend.set(key, parsed);
      return parsed;
    },
    getServerUrl: () => storedServerUrl() ?? fallbackUrl,
    hasServerUrl: () => storedServerUrl() !== undefined,
    setServerUrl(input) {
      const url = normalizeServerUrl(input);
      const before = storedServerUrl() ?? fallbackUrl;
      backend.set(SERVER_URL_KEY, url);
      return { url, changed: url !== before };
    },
  };
}

export interface StoreIpcHooks {
  onSettingChanged?: (key: SettingKey, value: DesktopSettings[SettingKey]) => void;
  /** A different server: the refresh token of the old one is worthless there. */
  onServerChanged?: (url: string) => void;
}

export function registerStoreIpc(ipc: IpcRegistrar, store: SettingsStore, hooks: StoreIpcHooks = {}): void {
  ipc.handle('getSettings', () => store.getSettings());
  ipc.handle('getSetting', (key) => {
    if (!isSettingKey(key)) throw new InvalidSettingError(String(key), 'unknown setting');
    return store.getSetting(key);
  });
  ipc.handle('setSetting', (key, value) => {
    const stored = store.setSetting(key, value);
    hooks.onSettingChanged?.(key as SettingKey, stored);
    return stored;
  });
  ipc.handle('getServerUrl', () => store.getServerUrl());
  ipc.handle('hasServerUrl', () => store.hasServerUrl());
  ipc.handle('setServerUrl', (input) => {
    const { url, changed } = store.setServerUrl(input);
    if (changed) hooks.onServerChanged?.(url);
    return url;
  });
}
