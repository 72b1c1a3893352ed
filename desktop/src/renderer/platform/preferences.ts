import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@atrium/shared';
import type { DesktopSettings, TodoItem } from '../../common/desktop-api';
import { callDesktop, hasDesktop } from './desktop-bridge';

export type { TodoItem };
export type ThemeMode = 'light' | 'dark';

/** What this device remembers (spec 01 sections 1, 2 and 9). */
export interface Preferences {
  /** Null: follow the system until the user toggles. */
  theme: ThemeMode | null;
  language: Language;
  /** 0..1, step 0.1. */
  volume: number;
  /** The ticket input's sign-message switch. */
  signMessage: boolean;
  /** The personal to-do list (the todolist feature's data; this device only). */
  todoList: TodoItem[];
  /** The flag that shows the campaign and flow routes. */
  cshow: boolean;
  /** The server a desktop install talks to ('' in the browser: same origin). */
  serverUrl: string;
}

export type PreferenceKey = keyof Preferences;
type StoredKey = Exclude<PreferenceKey, 'serverUrl'>;

export const DEFAULT_PREFERENCES: Preferences = {
  theme: null,
  language: DEFAULT_LANGUAGE,
  volume: 1,
  signMessage: true,
  todoList: [],
  cshow: false,
  serverUrl: '',
};

/** The local-storage names, kept from the product family so an existing browser profile carries over. */
export const STORAGE_KEYS: Record<StoredKey, string> = {
  theme: 'preferredTheme',
  language: 'language',
  volume: 'volume',
  signMessage: 'signOption',
  todoList: 'tasks',
  cshow: 'cshow',
};

/** The desktop store's name of each preference. */
const DESKTOP_KEYS = {
  theme: 'theme',
  language: 'language',
  volume: 'volume',
  signMessage: 'signMessage',
  todoList: 'todos',
  cshow: 'cshow',
} as const satisfies Record<StoredKey, keyof DesktopSettings>;

const clampVolume = (value: unknown): number => {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return DEFAULT_PREFERENCES.volume;
  return Math.round(Math.min(1, Math.max(0, n)) * 10) / 10;
};

const isTodo = (t: unknown): t is TodoItem => {
  const item = t as Partial<TodoItem> | null;
  return (
    !!item &&
    typeof item === 'object' &&
    typeof item.id === 'string' &&
    typeof item.text === 'string' &&
    typeof item.createdAt === 'string' &&
    typeof item.updatedAt === 'string'
  );
};

/** Turns whatever a store held into a valid value, so a corrupt entry means the default, not a crash. */
export const normalise = <K extends PreferenceKey>(key: K, raw: unknown): Preferences[K] => {
  const value = ((): unknown => {
    switch (key) {
      case 'theme':
        return raw === 'light' || raw === 'dark' ? raw : null;
      case 'language':
        return typeof raw === 'string' && (LANGUAGES as readonly string[]).includes(raw) ? raw : DEFAULT_LANGUAGE;
      case 'volume':
        return raw === null || raw === undefined || raw === '' ? DEFAULT_PREFERENCES.volume : clampVolume(raw);
      case 'signMessage':
        return !(raw === false || raw === 'false');
      case 'todoList':
        return Array.isArray(raw) ? raw.filter(isTodo) : [];
      case 'cshow':
        return raw === true;
      case 'serverUrl':
        return typeof raw === 'string' ? raw : '';
      default:
        return raw;
    }
  })();
  return value as Preferences[K];
};

const storage = (): Storage | undefined => {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
};

/** Local storage: strings as they are (the family stores 'dark', '0.5'), everything else as JSON. */
const readLocal = (key: StoredKey): unknown => {
  const raw = storage()?.getItem(STORAGE_KEYS[key]);
  // cshow only has to exist (the family stores it as the string "null").
  if (key === 'cshow') return raw !== null && raw !== undefined;
  if (raw === null || raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
};

const writeLocal = (key: StoredKey, value: unknown): void => {
  const store = storage();
  if (!store) return;
  const name = STORAGE_KEYS[key];
  try {
    if (key === 'cshow') {
      if (value) store.setItem(name, 'null');
      else store.removeItem(name);
    } else if (value === null || value === undefined) store.removeItem(name);
    else store.setItem(name, typeof value === 'string' ? value : JSON.stringify(value));
  } catch {
    // Full or unavailable storage: the preference still applies for this session.
  }
};

const fromDesktop = (key: StoredKey, settings: Partial<DesktopSettings>): unknown => {
  const value = settings[DESKTOP_KEYS[key]];
  return key === 'theme' && value === 'system' ? null : value;
};

const toDesktop = (key: StoredKey, value: unknown): unknown => (key === 'theme' && value === null ? 'system' : value);

/**
 * Reads every preference: from the desktop's store when the build has one (a value it lacks falls back
 * to local storage), else from local storage.
 */
export const loadPreferences = async (): Promise<Preferences> => {
  const settings = hasDesktop('getSettings') ? await callDesktop('getSettings') : undefined;
  const result = { ...DEFAULT_PREFERENCES };
  for (const key of Object.keys(STORAGE_KEYS) as StoredKey[]) {
    let raw = settings ? fromDesktop(key, settings) : undefined;
    if (raw === undefined) raw = readLocal(key);
    (result as Record<string, unknown>)[key] = normalise(key, raw);
  }
  result.serverUrl = normalise('serverUrl', await callDesktop('getServerUrl'));
  return result;
};

/** Stores one preference where it lives (the desktop's store, and the local copy). */
export const savePreference = async <K extends PreferenceKey>(key: K, value: Preferences[K]): Promise<void> => {
  if (key === 'serverUrl') {
    await callDesktop('setServerUrl', value as string);
    return;
  }
  const stored = key as StoredKey;
  writeLocal(stored, value);
  if (hasDesktop('setSetting')) {
    const desktopKey = DESKTOP_KEYS[stored];
    await callDesktop('setSetting', desktopKey, toDesktop(stored, value) as DesktopSettings[typeof desktopKey]);
  }
};

/** Desktop only: whether the user has chosen a server yet (the first-run question). */
export const hasChosenServer = async (): Promise<boolean> => (await callDesktop('hasServerUrl')) ?? true;

/** Desktop only: stores the server address; resolves with the normalised origin (or null if refused). */
export const chooseServer = async (url: string): Promise<string | null> => (await callDesktop('setServerUrl', url)) ?? null;
