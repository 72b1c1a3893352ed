import { describe, expect, it, vi } from 'vitest';
import { FakeWindow } from './testing/fakes.js';
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  applyPermissionPolicy,
  isAllowedExternalUrl,
  isPermissionGranted,
  keepInTrayOnClose,
  mainWindowOptions,
  originOf,
  resolveRendererUrl,
  revealWindow,
  secureWebContents,
  type GuardedWebContents,
  type PermissionSession,
} from './window.js';

type NavListener = (event: { url: string; preventDefault(): void }) => void;

function fakeContents() {
  let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  const listeners = new Map<string, NavListener[]>();
  const contents: GuardedWebContents = {
    setWindowOpenHandler: (handler) => {
      openHandler = handler;
    },
    on: (event: string, listener: NavListener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
  };
  const emit = (event: string, url = '') => {
    let prevented = false;
    for (const listener of listeners.get(event) ?? []) listener({ url, preventDefault: () => (prevented = true) });
    return prevented;
  };
  const windowOpen = (url: string) => {
    if (!openHandler) throw new Error('no window open handler');
    return openHandler({ url });
  };
  return { contents, emit, windowOpen };
}

describe('window options', () => {
  it('isolate the renderer: context isolation, no Node, sandbox, web security', () => {
    const options = mainWindowOptions({ preloadPath: '/app/dist/preload/index.cjs' });
    expect(options.webPreferences).toMatchObject({
      preload: '/app/dist/preload/index.cjs',
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(options.show).toBe(false);
  });
});

describe('secureWebContents', () => {
  it('denies window.open and sends web and mail links to the system browser', async () => {
    const openExternal = vi.fn(async (_url: string) => undefined);
    const { contents, windowOpen } = fakeContents();
    secureWebContents(contents, { appOrigin: APP_ORIGIN, openExternal });
    expect(windowOpen('https://example.com/docs')).toEqual({ action: 'deny' });
    expect(windowOpen('mailto:help@example.com')).toEqual({ action: 'deny' });
    expect(windowOpen('app://atrium/index.html')).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls.map(([url]) => url)).toEqual(['https://example.com/docs', 'mailto:help@example.com']);
  });

  it('never hands dangerous schemes to the OS', () => {
    const openExternal = vi.fn();
    const { contents, windowOpen, emit } = fakeContents();
    secureWebContents(contents, { appOrigin: APP_ORIGIN, openExternal });
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-msdt:/id', 'not a url']) {
      expect(windowOpen(url)).toEqual({ action: 'deny' });
      expect(emit('will-navigate', url)).toBe(true);
    }
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('blocks navigation to another origin and opens it outside', () => {
    const openExternal = vi.fn();
    const { contents, emit } = fakeContents();
    secureWebContents(contents, { appOrigin: APP_ORIGIN, openExternal });
    expect(emit('will-navigate', 'https://evil.example/phish')).toBe(true);
    expect(openExternal).toHaveBeenCalledWith('https://evil.example/phish');
    expect(emit('will-redirect', 'http://evil.example/')).toBe(true);
    expect(emit('will-navigate', 'app://other/index.html')).toBe(true);
  });

  it('allows navigation inside the app', () => {
    const openExternal = vi.fn();
    const { contents, emit } = fakeContents();
    secureWebContents(contents, { appOrigin: APP_ORIGIN, openExternal });
    expect(emit('will-navigate', 'app://atrium/tickets/3f2b8c1e')).toBe(false);
    expect(emit('will-navigate', 'app://atrium/index.html')).toBe(false);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('uses the dev server as the origin in development', () => {
    const { contents, emit } = fakeContents();
    secureWebContents(contents, { appOrigin: 'http://localhost:5173', openExternal: vi.fn() });
    expect(emit('will-navigate', 'http://localhost:5173/login')).toBe(false);
    expect(emit('will-navigate', 'http://localhost:8080/')).toBe(true);
  });

  it('refuses <webview>', () => {
    const { contents, emit } = fakeContents();
    secureWebContents(contents, { appOrigin: APP_ORIGIN, openExternal: vi.fn() });
    expect(emit('will-attach-webview')).toBe(true);
  });
});

describe('origins and URLs', () => {
  it('reads the origin of app:// like Chromium does', () => {
    expect(new URL('app://atrium/index.html').origin).toBe('null'); // why originOf exists
    expect(originOf('app://atrium/index.html')).toBe('app://atrium');
    expect(originOf('http://localhost:5173/x?y')).toBe('http://localhost:5173');
    expect(originOf('mailto:a@b.c')).toBeNull();
    expect(originOf('garbage')).toBeNull();
  });

  it('allows http, https and mailto outside only', () => {
    expect(isAllowedExternalUrl('https://a.example')).toBe(true);
    expect(isAllowedExternalUrl('mailto:a@b.c')).toBe(true);
    expect(isAllowedExternalUrl('file:///C:/Windows')).toBe(false);
    expect(isAllowedExternalUrl('vbscript:x')).toBe(false);
  });

  it('loads the built renderer through app:// unless a dev server is given to an unpackaged app', () => {
    expect(resolveRendererUrl({ isPackaged: false })).toBe(APP_ENTRY_URL);
    expect(APP_ENTRY_URL).toBe('app://atrium/index.html');
    expect(resolveRendererUrl({ devUrl: 'http://localhost:5173', isPackaged: false })).toBe('http://localhost:5173/');
    expect(resolveRendererUrl({ devUrl: 'https://evil.example', isPackaged: true })).toBe(APP_ENTRY_URL);
    expect(() => resolveRendererUrl({ devUrl: 'file:///tmp/index.html', isPackaged: false })).toThrow(/http/);
  });
});

describe('permissions', () => {
  it('grants the microphone, clipboard writes, fullscreen and notifications to the app only', () => {
    expect(isPermissionGranted('media', 'app://atrium/tickets/1', APP_ORIGIN, ['audio'])).toBe(true);
    expect(isPermissionGranted('media', 'app://atrium/', APP_ORIGIN, ['audio', 'video'])).toBe(false);
    expect(isPermissionGranted('media', 'https://evil.example/', APP_ORIGIN, ['audio'])).toBe(false);
    expect(isPermissionGranted('clipboard-sanitized-write', 'app://atrium/', APP_ORIGIN)).toBe(true);
    expect(isPermissionGranted('geolocation', 'app://atrium/', APP_ORIGIN)).toBe(false);
    expect(isPermissionGranted('openExternal', 'app://atrium/', APP_ORIGIN)).toBe(false);
    expect(isPermissionGranted('notifications', undefined, APP_ORIGIN)).toBe(false);
  });

  it('installs both the request and the check handler', () => {
    let request: Parameters<PermissionSession['setPermissionRequestHandler']>[0] | undefined;
    let check: Parameters<PermissionSession['setPermissionCheckHandler']>[0] | undefined;
    applyPermissionPolicy(
      { setPermissionRequestHandler: (h) => (request = h), setPermissionCheckHandler: (h) => (check = h) },
      APP_ORIGIN,
    );
    const answers: boolean[] = [];
    request?.({}, 'media', (granted) => answers.push(granted), { requestingUrl: 'app://atrium/', mediaTypes: ['audio'] });
    request?.({}, 'display-capture', (granted) => answers.push(granted), { requestingUrl: 'app://atrium/' });
    expect(answers).toEqual([true, false]);
    expect(check?.({}, 'media', 'app://atrium', { mediaType: 'audio' })).toBe(true);
    expect(check?.({}, 'media', 'app://atrium', { mediaType: 'video' })).toBe(false);
    expect(check?.({}, 'notifications', 'https://evil.example', {})).toBe(false);
  });
});

describe('window lifecycle', () => {
  it('closing hides the window to the tray unless the app is quitting', () => {
    const win = new FakeWindow();
    let quitting = false;
    keepInTrayOnClose(win, () => quitting);
    expect(win.emit('close')).toBe(true);
    expect(win.visible).toBe(false);
    quitting = true;
    win.visible = true;
    expect(win.emit('close')).toBe(false);
    expect(win.calls).toEqual(['hide']);
  });

  it('reveals a window from wherever it is, and leaves a destroyed one alone', () => {
    const win = new FakeWindow();
    win.minimized = true;
    revealWindow(win);
    expect(win.calls).toEqual(['restore', 'focus']);
    const gone = new FakeWindow();
    gone.destroyed = true;
    revealWindow(gone);
    revealWindow(undefined);
    expect(gone.calls).toEqual([]);
  });
});
