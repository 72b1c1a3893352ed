import { describe, expect, it, vi } from 'vitest';
import { DESKTOP_METHODS, EVENT_METHODS, INVOKE_METHODS, IPC_PREFIX, channelOf } from '../common/desktop-api.js';
import { registerDesktopIpc, type DesktopServices } from './desktop-ipc.js';
import { createIpcRegistrar, sendDesktopEvent, UntrustedSenderError } from './ipc.js';
import { createNotifier } from './notifications.js';
import { createSecureTokenStore } from './secure-token.js';
import { createSettingsStore } from './store.js';
import { FakeIpcMain, FakeWebContents, MemoryBackend } from './testing/fakes.js';

const APP_PAGE = 'app://atrium/index.html';

function setup() {
  const ipcMain = new FakeIpcMain();
  const backend = new MemoryBackend();
  const tokens = createSecureTokenStore({
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (text) => Buffer.from(text).reverse(),
      decryptString: (data) => Buffer.from(data).reverse().toString(),
    },
    backend,
    platform: 'darwin',
  });
  const setUnreadCount = vi.fn((count: unknown) => count as number);
  const services: DesktopServices = {
    settings: createSettingsStore(backend),
    tokens,
    notifier: createNotifier({
      isSupported: () => false,
      create: () => {
        throw new Error('unsupported');
      },
      revealWindow: () => undefined,
      openTicket: () => undefined,
      openChat: () => undefined,
    }),
    tray: { setUnreadCount },
    appInfo: {
      getVersion: () => '8.0.1',
      platform: 'linux',
      arch: 'x64',
      versions: { electron: '41.7.1', chrome: '146.0.0.0' },
      secureTokenStorage: () => true,
      notificationsSupported: () => false,
    },
  };
  const onSettingChanged = vi.fn();
  const registrar = registerDesktopIpc(ipcMain, services, { appOrigin: 'app://atrium', onSettingChanged });
  const call = (method: string, ...args: unknown[]) => ipcMain.invoke(channelOf(method as never), APP_PAGE, ...args);
  return { ipcMain, registrar, call, backend, setUnreadCount, onSettingChanged };
}

describe('registerDesktopIpc', () => {
  it('handles every request method of DesktopApi, on its prefixed channel, and nothing else', () => {
    const { ipcMain, registrar } = setup();
    expect([...ipcMain.handlers.keys()].sort()).toEqual(INVOKE_METHODS.map((m) => channelOf(m)).sort());
    expect(registrar.handled().sort()).toEqual([...INVOKE_METHODS].sort());
    for (const channel of ipcMain.handlers.keys()) expect(channel.startsWith(IPC_PREFIX)).toBe(true);
  });

  it('leaves no method of the contract without a way across', () => {
    const { ipcMain } = setup();
    for (const method of DESKTOP_METHODS) {
      const viaHandler = ipcMain.handlers.has(channelOf(method));
      const viaEvent = (EVENT_METHODS as string[]).includes(method);
      expect(viaHandler !== viaEvent, method).toBe(true);
    }
  });

  it('answers each method from its module', async () => {
    const { call, backend, setUnreadCount, onSettingChanged } = setup();
    expect(await call('getVersion')).toBe('8.0.1');
    expect(await call('getPlatform')).toEqual({
      os: 'linux',
      arch: 'x64',
      electronVersion: '41.7.1',
      chromeVersion: '146.0.0.0',
      secureTokenStorage: true,
      notificationsSupported: false,
    });
    expect(await call('setSetting', 'theme', 'dark')).toBe('dark');
    expect(onSettingChanged).toHaveBeenCalledWith('theme', 'dark');
    expect(await call('getSettings')).toMatchObject({ theme: 'dark' });
    await call('setUnreadCount', 5);
    expect(setUnreadCount).toHaveBeenCalledWith(5);
    expect(await call('notify', { title: 'a', body: 'b', ticketUuid: '3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b' })).toBe(false);
    expect(await call('getRefreshToken')).toBeNull();
    await call('setRefreshToken', 'r-1');
    expect(await call('getRefreshToken')).toBe('r-1');
    expect(JSON.stringify([...backend.data])).not.toContain('r-1');
    await call('clearRefreshToken');
    expect(await call('getRefreshToken')).toBeNull();
  });

  it('forgets the refresh token when the user switches to another server', async () => {
    const { call } = setup();
    await call('setRefreshToken', 'token-of-server-a');
    await call('setServerUrl', 'http://localhost:8080');
    expect(await call('getRefreshToken')).toBe('token-of-server-a');
    await call('setServerUrl', 'https://server-b.example');
    expect(await call('getRefreshToken')).toBeNull();
  });

  it('refuses calls from frames of another origin or from a frame that is gone', async () => {
    const { ipcMain } = setup();
    await expect(ipcMain.invoke('atrium:getRefreshToken', 'https://evil.example/')).rejects.toThrow(UntrustedSenderError);
    await expect(ipcMain.invoke('atrium:getVersion', null)).rejects.toThrow(UntrustedSenderError);
    await expect(ipcMain.invoke('atrium:getVersion', 'app://atrium.evil/')).rejects.toThrow(UntrustedSenderError);
  });

  it('can be torn down', () => {
    const { ipcMain, registrar } = setup();
    registrar.dispose();
    expect(ipcMain.handlers.size).toBe(0);
  });
});

describe('ipc primitives', () => {
  it('refuses to register a method twice', () => {
    const ipc = createIpcRegistrar(new FakeIpcMain(), () => true);
    ipc.handle('getVersion', () => '1');
    expect(() => ipc.handle('getVersion', () => '2')).toThrow(/twice/);
  });

  it('sends events on the method channel, and not to a destroyed page', () => {
    const contents = new FakeWebContents();
    sendDesktopEvent(contents, 'onOpenTicket', 'abc');
    expect(contents.sent).toEqual([{ channel: 'atrium:onOpenTicket', args: ['abc'] }]);
    contents.destroyed = true;
    sendDesktopEvent(contents, 'onOpenTicket', 'def');
    expect(contents.sent).toHaveLength(1);
  });
});
