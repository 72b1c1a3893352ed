import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  InvalidSettingError,
  LIMITS,
  normalizeServerUrl,
  parseSetting,
  readSetting,
  type TodoItem,
} from './settings.js';

const todo = (id: string, text = `task ${id}`): TodoItem => ({
  id,
  text,
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T11:00:00.000Z',
});

describe('defaults', () => {
  it('follow the spec', () => {
    expect(DEFAULT_SETTINGS).toEqual({ theme: 'system', language: 'en', volume: 1, signMessage: true, todos: [], cshow: false });
  });
});

describe('parseSetting', () => {
  it('clamps the volume to 0..1 and refuses non-numbers', () => {
    expect(parseSetting('volume', 0.4)).toBe(0.4);
    expect(parseSetting('volume', 1.7)).toBe(1);
    expect(parseSetting('volume', -0.2)).toBe(0);
    expect(parseSetting('volume', Infinity)).toBe(1);
    expect(() => parseSetting('volume', Number.NaN)).toThrow(InvalidSettingError);
    expect(() => parseSetting('volume', '0.5')).toThrow(InvalidSettingError);
  });

  it('accepts pt, en and es only', () => {
    for (const language of ['pt', 'en', 'es']) expect(parseSetting('language', language)).toBe(language);
    expect(() => parseSetting('language', 'fr')).toThrow(/language/);
    expect(() => parseSetting('language', 'EN')).toThrow(InvalidSettingError);
  });

  it('accepts the three themes only', () => {
    expect(parseSetting('theme', 'dark')).toBe('dark');
    expect(() => parseSetting('theme', 'blue')).toThrow(InvalidSettingError);
  });

  it('wants real booleans for flags', () => {
    expect(parseSetting('signMessage', false)).toBe(false);
    expect(parseSetting('cshow', true)).toBe(true);
    expect(() => parseSetting('cshow', 'true')).toThrow(InvalidSettingError);
    expect(() => parseSetting('signMessage', 1)).toThrow(InvalidSettingError);
  });

  it('refuses unknown keys, including prototype names', () => {
    expect(() => parseSetting('serverUrl' as never, 'x')).toThrow(/unknown setting/);
    expect(() => parseSetting('__proto__' as never, {})).toThrow(/unknown setting/);
  });

  it('keeps valid to-dos and only their known fields', () => {
    const extra = { ...todo('a'), html: '<img onerror=alert(1)>' };
    expect(parseSetting('todos', [extra, todo('b')])).toEqual([todo('a'), todo('b')]);
  });

  it('refuses blank, duplicated, undated or too many to-dos', () => {
    expect(() => parseSetting('todos', [todo('a', '   ')])).toThrow(/blank/);
    expect(() => parseSetting('todos', [todo('a'), todo('a')])).toThrow(/duplicate/);
    expect(() => parseSetting('todos', [{ ...todo('a'), createdAt: 'yesterday' }])).toThrow(/ISO/);
    expect(() => parseSetting('todos', [{ ...todo('a'), id: 7 }])).toThrow(/id/);
    expect(() => parseSetting('todos', { 0: todo('a') })).toThrow(/list/);
    const many = Array.from({ length: LIMITS.todos + 1 }, (_, i) => todo(String(i)));
    expect(() => parseSetting('todos', many)).toThrow(/more than/);
  });
});

describe('readSetting', () => {
  it('gives the default for missing or damaged values', () => {
    expect(readSetting('volume', undefined)).toBe(1);
    expect(readSetting('language', 'klingon')).toBe('en');
    expect(readSetting('signMessage', 'yes')).toBe(true);
    expect(readSetting('volume', 9)).toBe(1);
  });

  it('drops damaged to-dos but keeps the good ones', () => {
    expect(readSetting('todos', [todo('a'), { id: 'b' }, todo('a'), todo('c')])).toEqual([todo('a'), todo('c')]);
    expect(readSetting('todos', 'nonsense')).toEqual([]);
  });

  it('returns a fresh default list each time', () => {
    const first = readSetting('todos', undefined);
    first.push(todo('x'));
    expect(readSetting('todos', undefined)).toEqual([]);
    expect(DEFAULT_SETTINGS.todos).toEqual([]);
  });
});

describe('normalizeServerUrl', () => {
  it('reduces an http(s) address to its origin', () => {
    expect(normalizeServerUrl('http://localhost:8080')).toBe('http://localhost:8080');
    expect(normalizeServerUrl('  https://Desk.Example.com/  ')).toBe('https://desk.example.com');
    expect(normalizeServerUrl('https://desk.example.com:443')).toBe('https://desk.example.com');
    expect(normalizeServerUrl('http://[::1]:8080')).toBe('http://[::1]:8080');
  });

  it('refuses other schemes, paths, queries, credentials and non-URLs', () => {
    for (const bad of [
      'ftp://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'app://atrium',
      'http://example.com/api',
      'http://example.com/?x=1',
      'http://example.com/#x',
      'http://user:pw@example.com',
      'localhost:8080',
      '',
      42,
      null,
    ]) {
      expect(() => normalizeServerUrl(bad), String(bad)).toThrow(InvalidSettingError);
    }
  });
});
