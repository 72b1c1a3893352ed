// main.ts wired to stand-ins for Electron and electron-store: start-up order, the window, IPC, the
// tray, notifications and the single-instance lock, as far as they can be seen without Electron.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INVOKE_METHODS, channelOf } from '../common/desktop-api.js';

const TICKET = '3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b';

const fake = vi.hoisted(() => {
  type Listener = (...args: any[]) => void;
  class Emitter {
    readonly listeners = new Map<string, Listener[]>();
    on(event: string, listener: Listener) {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
      return this;
    }
    once(event: string, listener: Listener) {
      return this.on(event, listener);
    }
    /** Calls the listeners with a cancellable event; true when one prevented it. */
    emit(event: string, ...args: unknown[]): boolean {
      let prevented = false;
      const e = { preventDefault: () => (prevented = true) };
      for (const listener of this.listeners.get(event) ?? []) listener(e, ...args);
      return prevented;
    }
  }

  const state = {
    lock: true,
    calls: [] as string[],
    windows: [] as any[],
    trays: [] as any[],
    notifications: [] as any[],
    handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
    protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
    storeData: new Map<string, unknown>(),
    readyResolve: undefined as undefined | (() => void),
  };

  class App extends Emitter {
    isPackaged = false;
    ready = false;
    requestSingleInstanceLock = vi.fn(() => {
      state.calls.push('requestSingleInstanceLock');
      return state.lock;
    });
    quit = vi.fn(() => state.calls.push('quit'));
    whenReady = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          state.readyResolve = () => {
            this.ready = true;
            resolve();
          };
        }),
    );
    isReady = () => this.ready;
    getVersion = () => '8.0.1';
    setBadgeCount = vi.fn(() => true);
    setAppUserModelId = vi.fn();
  }

  class WebContents extends Emitter {
    openHandler: ((details: { url: string }) => unknown) | undefined;
    sent: { channel: string; args: unknown[] }[] = [];
    setWindowOpenHandler(handler: (details: { url: string }) => unknown) {
      this.openHandler = handler;
    }
    isDestroyed = () => false;
    isLoading = () => false;
    send(channel: string, ...args: unknown[]) {
      this.sent.push({ channel, args });
    }
  }

  class BrowserWindow extends Emitter {
    readonly webContents = new WebContents();
    visible = false;
    minimized = false;
    loaded: string | undefined;
    constructor(readonly options: any) {
      super();
      state.windows.push(this);
    }
    loadURL(url: string) {
      this.loaded = url;
      return Promise.resolve();
    }
    isDestroyed = () => false;
    isMinimized = () => this.minimized;
    isVisible = () => this.visible;
    restore = () => (this.minimized = false);
    show = () => (this.visible = true);
    hide = () => (this.visible = false);
    focus = vi.fn();
    setOverlayIcon = vi.fn();
  }

  class Tray extends Emitter {
    tooltip = '';
    menu: { label: string; click: () => void }[] = [];
    constructor(public image: unknown) {
      super();
      state.trays.push(this);
    }
    setImage(image: unknown) {
      this.image = image;
    }
    setToolTip(text: string) {
      this.tooltip = text;
    }
    setContextMenu(menu: { label: string; click: () => void }[]) {
      this.menu = menu;
    }
    destroy() {}
  }

  class Notification extends Emitter {
    static isSupported = () => true;
    closed = false;
    constructor(readonly options: unknown) {
      super();
      state.notifications.push(this);
    }
    show() {}
    close() {
      this.closed = true;
    }
  }

  const electron = {
    app: new App(),
    BrowserWindow,
    Tray,
    Notification,
    ipcMain: {
      handle: (channel: string, listener: (event: unknown, ...args: unknown[]) => unknown) => state.handlers.set(channel, listener),
      removeHandler: (channel: string) => state.handlers.delete(channel),
    },
    Menu: { buildFromTemplate: (items: unknown) => items },
    nativeImage: { createFromBuffer: (png: Buffer, options?: unknown) => ({ png, options }) },
    nativeTheme: { themeSource: 'system' },
    protocol: {
      registerSchemesAsPrivileged: vi.fn(() => state.calls.push('registerSchemesAsPrivileged')),
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) => state.protocolHandlers.set(scheme, handler),
    },
    safeStorage: { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' },
    session: { defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() } },
    shell: { openExternal: vi.fn(async () => undefined) },
  };

  class Store {
    get = (key: string) => state.storeData.get(key);
    set = (key: string, value: unknown) => state.storeData.set(key, value);
    has = (key: string) => state.storeData.has(key);
    delete = (key: string) => state.storeData.delete(key);
  }

  return { state, electron, Store, App };
});

vi.mock('electron', () => fake.electron);
vi.mock('electron-store', () => ({ default: fake.Store }));

async function startMain(options: { lock?: boolean } = {}) {
  const { state, electron } = fake;
  state.lock = options.lock ?? true;
  await import('./main.js');
  return { state, electron };
}

async function ready() {
  fake.state.readyResolve?.();
  await vi.waitFor(() => expect(fake.state.windows).toHaveLength(1));
}

const invoke = (channel: string, ...args: unknown[]) => {
  const handler = fake.state.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return handler({ senderFrame: { url: 'app://atrium/tickets' } }, ...args);
};

describe('main.ts wiring', () => {
  beforeEach(() => {
    vi.resetModules();
    const { state, electron, App } = fake;
    Object.assign(state, { calls: [], windows: [], trays: [], notifications: [], readyResolve: undefined });
    state.handlers.clear();
    state.protocolHandlers.clear();
    state.storeData.clear();
    electron.app = new App();
    electron.nativeTheme.themeSource = 'system';
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('registers the app:// scheme and takes the lock before the app is ready', async () => {
    const { state, electron } = await startMain();
    expect(state.calls.slice(0, 2)).toEqual(['registerSchemesAsPrivileged', 'requestSingleInstanceLock']);
    expect(electron.protocol.registerSchemesAsPrivileged.mock.calls[0]).toEqual([
      [expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) })],
    ]);
    expect(state.windows).toHaveLength(0);
    expect(state.handlers.size).toBe(0);
  });

  it('without the lock quits and sets nothing up', async () => {
    const { state, electron } = await startMain({ lock: false });
    expect(electron.app.quit).toHaveBeenCalledTimes(1);
    expect(electron.app.whenReady).not.toHaveBeenCalled();
    expect(electron.app.listeners.size).toBe(0);
    expect(state.windows).toHaveLength(0);
  });

  it('once ready: the protocol, every IPC handler, a tray and a secure window on app://atrium', async () => {
    const { state } = await startMain();
    await ready();
    expect([...state.handlers.keys()].sort()).toEqual(INVOKE_METHODS.map((m) => channelOf(m)).sort());
    expect(state.protocolHandlers.has('app')).toBe(true);
    expect(state.trays).toHaveLength(1);
    const [win] = state.windows;
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, nodeIntegration: false, sandbox: true });
    expect(win.options.webPreferences.preload).toMatch(/[\\/]preload[\\/]index\.cjs$/);
    expect(win.loaded).toBe('app://atrium/index.html');
    expect(win.webContents.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
  });

  it('closing the window hides it to the tray; quitting lets it close', async () => {
    const { state, electron } = await startMain();
    await ready();
    const [win] = state.windows;
    win.visible = true;
    expect(win.emit('close')).toBe(true);
    expect(win.visible).toBe(false);
    state.trays[0].menu[0].click();
    expect(win.visible).toBe(true);
    electron.app.emit('before-quit');
    expect(win.emit('close')).toBe(false);
  });

  it('a notification click shows the window and sends the ticket to the renderer', async () => {
    const { state } = await startMain();
    await ready();
    const [win] = state.windows;
    win.visible = false;
    expect(await invoke('atrium:notify', { title: 'Maria', body: 'Hello', ticketUuid: TICKET })).toBe(true);
    state.notifications[0].emit('click');
    expect(win.visible).toBe(true);
    expect(win.focus).toHaveBeenCalled();
    expect(win.webContents.sent).toEqual([{ channel: 'atrium:onOpenTicket', args: [TICKET] }]);
  });

  it('the unread count reaches the tray and the badge; settings reach the native theme and the tray language', async () => {
    const { state, electron } = await startMain();
    await ready();
    await invoke('atrium:setUnreadCount', 3);
    const [tray] = state.trays;
    expect(tray.tooltip).toBe('Atrium: 3 unread');
    if (process.platform === 'win32') expect(state.windows[0].setOverlayIcon).toHaveBeenCalled();
    else expect(electron.app.setBadgeCount).toHaveBeenCalledWith(3);
    await invoke('atrium:setSetting', 'theme', 'dark');
    expect(electron.nativeTheme.themeSource).toBe('dark');
    await invoke('atrium:setSetting', 'language', 'es');
    expect(tray.menu.map((item: { label: string }) => item.label)).toEqual(['Mostrar Atrium', 'Salir']);
  });

  it('keeps the refresh token in memory only when safeStorage cannot encrypt', async () => {
    const { state } = await startMain();
    await ready();
    await invoke('atrium:setRefreshToken', 'refresh-1');
    expect(await invoke('atrium:getRefreshToken')).toBe('refresh-1');
    expect([...state.storeData.values()]).not.toContain('refresh-1');
  });

  it('a second launch brings the window back', async () => {
    const { state, electron } = await startMain();
    await ready();
    const [win] = state.windows;
    win.minimized = true;
    win.visible = false;
    electron.app.emit('second-instance');
    expect(win.minimized).toBe(false);
    expect(win.visible).toBe(true);
    expect(win.focus).toHaveBeenCalled();
    expect(state.windows).toHaveLength(1);
  });
});
