import { describe, expect, it, vi } from 'vitest';
import { InvalidSettingError, type TodoItem } from '../common/settings.js';
import { createIpcRegistrar } from './ipc.js';
import { createSettingsStore, defaultServerUrl, registerStoreIpc, SERVER_URL_KEY } from './store.js';
import { FakeIpcMain, MemoryBackend } from './testing/fakes.js';

const todos: TodoItem[] = [
  { id: 't1', text: 'Call the customer back', createdAt: '2026-03-01T09:00:00.000Z', updatedAt: '2026-03-01T09:00:00.000Z' },
  { id: 't2', text: 'Close old tickets', createdAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-02T08:30:00.000Z' },
];

describe('settings store', () => {
  it('starts with the defaults and the default server', () => {
    const store = createSettingsStore(new MemoryBackend());
    expect(store.getSettings()).toEqual({ theme: 'system', language: 'en', volume: 1, signMessage: true, todos: [], cshow: false });
    expect(store.getServerUrl()).toBe('http://localhost:8080');
    expect(store.hasServerUrl()).toBe(false);
  });

  it('stores the volume clamped and says what it stored', () => {
    const backend = new MemoryBackend();
    const store = createSettingsStore(backend);
    expect(store.setSetting('volume', 3)).toBe(1);
    expect(backend.get('volume')).toBe(1);
    expect(store.setSetting('volume', -1)).toBe(0);
    expect(store.getSetting('volume')).toBe(0);
    expect(store.setSetting('volume', 0.3)).toBe(0.3);
    expect(createSettingsStore(backend).getSetting('volume')).toBe(0.3);
  });

  it('refuses an unknown language and keeps the old one', () => {
    const backend = new MemoryBackend();
    const store = createSettingsStore(backend);
    store.setSetting('language', 'pt');
    expect(() => store.setSetting('language', 'de')).toThrow(InvalidSettingError);
    expect(store.getSetting('language')).toBe('pt');
  });

  it('refuses unknown keys without writing them', () => {
    const backend = new MemoryBackend();
    const store = createSettingsStore(backend);
    expect(() => store.setSetting('refreshToken', 'abc')).toThrow(/unknown setting/);
    expect(() => store.setSetting('serverUrl', 'http://evil.example')).toThrow(/unknown setting/);
    expect(backend.data.size).toBe(0);
  });

  it('keeps the to-do list across restarts', () => {
    const backend = new MemoryBackend();
    createSettingsStore(backend).setSetting('todos', todos);
    const reopened = createSettingsStore(backend);
    expect(reopened.getSetting('todos')).toEqual(todos);
    expect(reopened.getSettings().todos).toEqual(todos);
  });

  it('keeps flags and the theme', () => {
    const backend = new MemoryBackend();
    const store = createSettingsStore(backend);
    store.setSetting('cshow', true);
    store.setSetting('signMessage', false);
    store.setSetting('theme', 'dark');
    expect(createSettingsStore(backend).getSettings()).toMatchObject({ cshow: true, signMessage: false, theme: 'dark' });
  });

  it('reads hand-edited garbage as defaults', () => {
    const backend = new MemoryBackend();
    backend.set('volume', 'loud');
    backend.set('theme', 'neon');
    backend.set(SERVER_URL_KEY, 'gopher://old');
    const store = createSettingsStore(backend);
    expect(store.getSetting('volume')).toBe(1);
    expect(store.getSetting('theme')).toBe('system');
    expect(store.getServerUrl()).toBe('http://localhost:8080');
    expect(store.hasServerUrl()).toBe(false);
  });

  it('validates and normalises the server address', () => {
    const backend = new MemoryBackend();
    const store = createSettingsStore(backend);
    expect(store.setServerUrl('https://desk.example.com/')).toEqual({ url: 'https://desk.example.com', changed: true });
    expect(store.hasServerUrl()).toBe(true);
    expect(store.setServerUrl('https://DESK.example.com')).toEqual({ url: 'https://desk.example.com', changed: false });
    expect(() => store.setServerUrl('https://desk.example.com/api')).toThrow(InvalidSettingError);
    expect(() => store.setServerUrl('file:///C:/')).toThrow(InvalidSettingError);
    expect(createSettingsStore(backend).getServerUrl()).toBe('https://desk.example.com');
  });

  it('uses a valid ATRIUM_SERVER_URL as the first-run default', () => {
    expect(defaultServerUrl(undefined)).toBe('http://localhost:8080');
    expect(defaultServerUrl('http://10.0.0.5:9000/')).toBe('http://10.0.0.5:9000');
    expect(defaultServerUrl('not a url')).toBe('http://localhost:8080');
    const store = createSettingsStore(new MemoryBackend(), { defaultServerUrl: 'http://10.0.0.5:9000' });
    expect(store.getServerUrl()).toBe('http://10.0.0.5:9000');
    expect(store.hasServerUrl()).toBe(false);
    // Confirming the suggested server is not a change of server.
    expect(store.setServerUrl('http://10.0.0.5:9000').changed).toBe(false);
  });
});

describe('registerStoreIpc', () => {
  const setup = () => {
    const ipcMain = new FakeIpcMain();
    const ipc = createIpcRegistrar(ipcMain, () => true);
    const store = createSettingsStore(new MemoryBackend());
    const onSettingChanged = vi.fn();
    const onServerChanged = vi.fn();
    registerStoreIpc(ipc, store, { onSettingChanged, onServerChanged });
    const call = (method: string, ...args: unknown[]) => ipcMain.invoke(`atrium:${method}`, 'app://atrium/index.html', ...args);
    return { call, onSettingChanged, onServerChanged, store };
  };

  it('round-trips settings over IPC and reports changes with the stored value', async () => {
    const { call, onSettingChanged } = setup();
    expect(await call('setSetting', 'volume', 2)).toBe(1);
    expect(onSettingChanged).toHaveBeenCalledWith('volume', 1);
    expect(await call('getSetting', 'volume')).toBe(1);
    await call('setSetting', 'todos', todos);
    expect(await call('getSettings')).toMatchObject({ volume: 1, todos });
  });

  it('rejects a bad value over IPC and reports nothing', async () => {
    const { call, onSettingChanged } = setup();
    await expect(call('setSetting', 'language', 'fr')).rejects.toThrow(InvalidSettingError);
    await expect(call('getSetting', 'constructor')).rejects.toThrow(/unknown setting/);
    expect(onSettingChanged).not.toHaveBeenCalled();
  });

  it('reports a server change only when the origin changes', async () => {
    const { call, onServerChanged } = setup();
    expect(await call('hasServerUrl')).toBe(false);
    expect(await call('setServerUrl', 'http://localhost:8080/')).toBe('http://localhost:8080');
    expect(onServerChanged).not.toHaveBeenCalled();
    expect(await call('setServerUrl', 'https://other.example')).toBe('https://other.example');
    expect(onServerChanged).toHaveBeenCalledWith('https://other.example');
    expect(await call('getServerUrl')).toBe('https://other.example');
    expect(await call('hasServerUrl')).toBe(true);
  });
});
