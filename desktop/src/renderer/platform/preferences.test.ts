import { describe, expect, it } from 'vitest';
import { chooseServer, hasChosenServer, loadPreferences, savePreference } from './preferences';

const TODO = { id: 't1', text: 'call back', createdAt: '2025-01-01T10:00:00.000Z', updatedAt: '2025-01-01T10:00:00.000Z' };

/** A stand-in for window.desktop with the settings part of the DesktopApi contract. */
const installDesktop = (initial: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => {
  const settings: Record<string, unknown> = {
    theme: 'system',
    language: 'en',
    volume: 1,
    signMessage: true,
    todos: [],
    cshow: false,
    ...initial,
  };
  let server = 'http://localhost:8080';
  (globalThis as { desktop?: unknown }).desktop = {
    getSettings: async () => ({ ...settings }),
    getSetting: async (key: string) => settings[key],
    setSetting: async (key: string, value: unknown) => {
      settings[key] = value;
      return value;
    },
    getServerUrl: async () => server,
    hasServerUrl: async () => server !== 'http://localhost:8080',
    setServerUrl: async (url: string) => {
      server = new URL(url).origin;
      return server;
    },
    getVersion: async () => '8.0.1',
    ...extra,
  };
  return settings;
};

describe('preferences in the browser (local storage)', () => {
  it('defaults: system theme, en, volume 1, sign message on, no cshow, same-origin server', async () => {
    expect(await loadPreferences()).toEqual({
      theme: null,
      language: 'en',
      volume: 1,
      signMessage: true,
      todoList: [],
      cshow: false,
      serverUrl: '',
    });
  });

  it('stores and reads back each preference', async () => {
    await savePreference('theme', 'dark');
    await savePreference('language', 'es');
    await savePreference('volume', 0.3);
    await savePreference('signMessage', false);
    await savePreference('todoList', [TODO]);
    await savePreference('cshow', true);
    expect(await loadPreferences()).toMatchObject({
      theme: 'dark',
      language: 'es',
      volume: 0.3,
      signMessage: false,
      todoList: [TODO],
      cshow: true,
    });
  });

  it('reads the family’s own entries: cshow only has to exist, volume as a string', async () => {
    localStorage.setItem('cshow', 'null');
    localStorage.setItem('volume', '0.5');
    localStorage.setItem('preferredTheme', 'light');
    expect(await loadPreferences()).toMatchObject({ cshow: true, volume: 0.5, theme: 'light' });
    await savePreference('cshow', false);
    expect(localStorage.getItem('cshow')).toBeNull();
  });

  it('turns corrupt values into defaults', async () => {
    localStorage.setItem('volume', '7');
    localStorage.setItem('language', 'klingon');
    localStorage.setItem('tasks', '{not json');
    expect(await loadPreferences()).toMatchObject({ volume: 1, language: 'en', todoList: [] });
    localStorage.setItem('tasks', JSON.stringify([TODO, { text: 'no id' }]));
    expect((await loadPreferences()).todoList).toEqual([TODO]);
  });

  it('has no server question in the browser', async () => {
    expect(await hasChosenServer()).toBe(true);
  });
});

describe('preferences in the desktop app (window.desktop)', () => {
  it('reads everything from the desktop store at once, with the server address', async () => {
    installDesktop({ theme: 'dark', volume: 0.7, todos: [TODO], cshow: true });
    expect(await loadPreferences()).toEqual({
      theme: 'dark',
      language: 'en',
      volume: 0.7,
      signMessage: true,
      todoList: [TODO],
      cshow: true,
      serverUrl: 'http://localhost:8080',
    });
  });

  it('writes through setSetting with the desktop’s names: todos, and "system" for a theme that follows the system', async () => {
    const settings = installDesktop({ theme: 'dark' });
    await savePreference('theme', null);
    await savePreference('todoList', [TODO]);
    await savePreference('volume', 0.4);
    expect(settings).toMatchObject({ theme: 'system', todos: [TODO], volume: 0.4 });
    expect((await loadPreferences()).theme).toBeNull();
  });

  it('asks for a server on first run and stores the chosen one', async () => {
    installDesktop();
    expect(await hasChosenServer()).toBe(false);
    expect(await chooseServer('https://desk.example.com/')).toBe('https://desk.example.com');
    expect(await hasChosenServer()).toBe(true);
    expect((await loadPreferences()).serverUrl).toBe('https://desk.example.com');
  });

  it('falls back to local storage when the build has no settings store, and survives one that throws', async () => {
    (globalThis as { desktop?: unknown }).desktop = { getServerUrl: async () => 'http://10.0.0.2:8080' };
    await savePreference('volume', 0.2);
    expect(await loadPreferences()).toMatchObject({ volume: 0.2, serverUrl: 'http://10.0.0.2:8080' });
    installDesktop({}, {
      getSettings: async () => {
        throw new Error('ipc down');
      },
    });
    localStorage.setItem('language', 'es');
    expect((await loadPreferences()).language).toBe('es');
  });
});
