/**
 * The desktop app's preferences: their types, defaults and the rules every stored value obeys. Pure
 * functions, so main validates with them and the browser build can keep the same rules.
 */

/** Interface languages (the same list as @atrium/shared's LANGUAGES; a test keeps them equal). */
export const LANGUAGES = ['pt', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

export interface TodoItem {
  id: string;
  text: string;
  /** ISO 8601 date-times. */
  createdAt: string;
  updatedAt: string;
}

export interface DesktopSettings {
  theme: Theme;
  language: Language;
  /** 0 to 1. */
  volume: number;
  /** Sign outgoing messages with the agent's name. */
  signMessage: boolean;
  todos: TodoItem[];
  /** Shows the campaign and flow-builder routes (the spec's `cshow` flag). */
  cshow: boolean;
}

export type SettingKey = keyof DesktopSettings;

export const DEFAULT_SERVER_URL = 'http://localhost:8080';

export const DEFAULT_SETTINGS: Readonly<DesktopSettings> = Object.freeze({
  theme: 'system',
  language: 'en',
  volume: 1,
  signMessage: true,
  todos: [],
  cshow: false,
});

export const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS) as SettingKey[];

export const LIMITS = {
  serverUrlLength: 2048,
  todos: 1000,
  todoText: 5000,
  todoId: 100,
} as const;

export class InvalidSettingError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid ${key}: ${reason}`);
    this.name = 'InvalidSettingError';
  }
}

export const isSettingKey = (key: unknown): key is SettingKey =>
  typeof key === 'string' && Object.hasOwn(DEFAULT_SETTINGS, key);

/** An http(s) origin such as `https://desk.example.com:8443`; anything else (paths, credentials) is refused. */
export function normalizeServerUrl(input: unknown): string {
  if (typeof input !== 'string') throw new InvalidSettingError('serverUrl', 'not a string');
  const text = input.trim();
  if (text.length === 0 || text.length > LIMITS.serverUrlLength) throw new InvalidSettingError('serverUrl', 'empty or too long');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidSettingError('serverUrl', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidSettingError('serverUrl', 'only http and https');
  if (url.username !== '' || url.password !== '') throw new InvalidSettingError('serverUrl', 'credentials are not allowed');
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new InvalidSettingError('serverUrl', 'must be an origin, without path, query or fragment');
  }
  return url.origin;
}

const isIsoDate = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 40 && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));

function parseTodo(value: unknown, index: number): TodoItem {
  const fail = (reason: string): never => {
    throw new InvalidSettingError('todos', `entry ${index}: ${reason}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('not an object');
  const { id, text, createdAt, updatedAt } = value as Record<string, unknown>;
  if (typeof id !== 'string' || id.length === 0 || id.length > LIMITS.todoId) return fail('bad id');
  if (typeof text !== 'string' || text.trim().length === 0) return fail('blank text');
  if (text.length > LIMITS.todoText) return fail('text too long');
  if (!isIsoDate(createdAt) || !isIsoDate(updatedAt)) return fail('dates must be ISO 8601');
  // Only the known fields are kept, so nothing else rides along into the store.
  return { id, text, createdAt, updatedAt };
}

function parseTodos(value: unknown, lenient: boolean): TodoItem[] {
  if (!Array.isArray(value)) throw new InvalidSettingError('todos', 'not a list');
  if (!lenient && value.length > LIMITS.todos) throw new InvalidSettingError('todos', `more than ${LIMITS.todos} entries`);
  const todos: TodoItem[] = [];
  const ids = new Set<string>();
  for (const [index, entry] of value.entries()) {
    let todo: TodoItem;
    try {
      todo = parseTodo(entry, index);
      if (ids.has(todo.id)) throw new InvalidSettingError('todos', `entry ${index}: duplicate id`);
    } catch (error) {
      if (lenient) continue;
      throw error;
    }
    ids.add(todo.id);
    todos.push(todo);
  }
  return lenient ? todos.slice(0, LIMITS.todos) : todos;
}

function expectBoolean(key: SettingKey, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new InvalidSettingError(key, 'not a boolean');
  return value;
}

function parse<K extends SettingKey>(key: K, value: unknown, lenient: boolean): DesktopSettings[K] {
  const parsed: DesktopSettings[SettingKey] = (() => {
    switch (key) {
      case 'theme':
        if (!(THEMES as readonly unknown[]).includes(value)) throw new InvalidSettingError(key, 'unknown theme');
        return value as Theme;
      case 'language':
        if (!(LANGUAGES as readonly unknown[]).includes(value)) throw new InvalidSettingError(key, 'unknown language');
        return value as Language;
      case 'volume':
        if (typeof value !== 'number' || Number.isNaN(value)) throw new InvalidSettingError(key, 'not a number');
        return Math.min(1, Math.max(0, value));
      case 'signMessage':
      case 'cshow':
        return expectBoolean(key, value);
      case 'todos':
        return parseTodos(value, lenient);
      default:
        throw new InvalidSettingError(String(key), 'unknown setting');
    }
  })();
  return parsed as DesktopSettings[K];
}

/** Validates a value about to be stored: clamps the volume, refuses everything else that is wrong. */
export function parseSetting<K extends SettingKey>(key: K, value: unknown): DesktopSettings[K] {
  if (!isSettingKey(key)) throw new InvalidSettingError(String(key), 'unknown setting');
  return parse(key, value, false);
}

/** Reads back a stored value: missing or damaged values give the default, damaged to-dos are dropped. */
export function readSetting<K extends SettingKey>(key: K, stored: unknown): DesktopSettings[K] {
  if (stored === undefined) return structuredClone(DEFAULT_SETTINGS[key]);
  try {
    return parse(key, stored, true);
  } catch {
    return structuredClone(DEFAULT_SETTINGS[key]);
  }
}
