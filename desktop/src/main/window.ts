import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/** Where the renderer lives in production (see protocol.ts). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'atrium';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * scheme://host[:port] of a URL, or null. Node's URL gives the origin "null" for schemes it does not
 * know (app:), while Chromium, where app: is registered as standard, gives app://atrium: compare like that.
 */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.host === '') return null;
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}

/**
 * The renderer's URL: a Vite dev server (ATRIUM_RENDERER_URL) while developing, the built files
 * through app:// otherwise. A packaged app ignores the variable, so no environment can point the
 * window (and its preload bridge) at another site.
 */
export function resolveRendererUrl(options: { devUrl?: string; isPackaged: boolean }): string {
  const { devUrl, isPackaged } = options;
  if (isPackaged || devUrl === undefined || devUrl === '') return APP_ENTRY_URL;
  const parsed = new URL(devUrl);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`ATRIUM_RENDERER_URL must be http(s): ${devUrl}`);
  return parsed.href;
}

export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    sandbox: true,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    safeDialogs: true,
    spellcheck: true,
  };
}

export function mainWindowOptions(options: { preloadPath: string; icon?: BrowserWindowConstructorOptions['icon'] }): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 360,
    minHeight: 480,
    title: 'Atrium',
    show: false,
    autoHideMenuBar: true,
    ...(options.icon === undefined ? {} : { icon: options.icon }),
    webPreferences: secureWebPreferences(options.preloadPath),
  };
}

const EXTERNAL_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** Only web and mail links may leave the app (no file:, smb:, custom handlers...). */
export function isAllowedExternalUrl(url: string): boolean {
  try {
    return EXTERNAL_PROTOCOLS.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** The parts of webContents that secureWebContents touches. */
export interface GuardedWebContents {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  on(event: 'will-navigate', listener: (event: { url: string; preventDefault(): void }) => void): unknown;
  on(event: 'will-redirect', listener: (event: { url: string; preventDefault(): void }) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
}

/**
 * No new windows (links open in the system browser), no navigation away from the app's origin (a
 * link clicked without target=_blank goes to the browser too), no <webview>.
 */
export function secureWebContents(
  contents: GuardedWebContents,
  options: { appOrigin: string; openExternal: (url: string) => Promise<void> | void },
): void {
  const openOutside = (url: string) => {
    if (isAllowedExternalUrl(url)) void Promise.resolve(options.openExternal(url)).catch(() => undefined);
  };
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
  const stayHome = (event: { url: string; preventDefault(): void }) => {
    if (originOf(event.url) === options.appOrigin) return;
    event.preventDefault();
    openOutside(event.url);
  };
  contents.on('will-navigate', stayHome);
  contents.on('will-redirect', stayHome);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Permissions the app uses: the microphone for voice messages, clipboard writes, fullscreen video, notifications. */
const GRANTED = new Set(['media', 'clipboard-sanitized-write', 'fullscreen', 'notifications']);

export function isPermissionGranted(
  permission: string,
  requestingUrl: string | undefined,
  appOrigin: string,
  mediaTypes: readonly string[] = [],
): boolean {
  if (requestingUrl === undefined || originOf(requestingUrl) !== appOrigin) return false;
  if (!GRANTED.has(permission)) return false;
  if (permission === 'media') return mediaTypes.length > 0 && mediaTypes.every((type) => type === 'audio');
  return true;
}

export interface PermissionSession {
  setPermissionRequestHandler(
    handler: (
      webContents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
      details: { requestingUrl?: string; mediaTypes?: string[] },
    ) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (webContents: unknown, permission: string, requestingOrigin: string, details: { mediaType?: string }) => boolean,
  ): void;
}

export function applyPermissionPolicy(session: PermissionSession, appOrigin: string): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionGranted(permission, details.requestingUrl, appOrigin, details.mediaTypes ?? []));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => {
    const media = details.mediaType === undefined || details.mediaType === 'unknown' ? ['audio'] : [details.mediaType];
    return isPermissionGranted(permission, requestingOrigin, appOrigin, media);
  });
}

export interface RevealableWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  isVisible(): boolean;
  show(): void;
  focus(): void;
}

/** Brings a window back from minimised, hidden (in the tray) or behind others. */
export function revealWindow(win: RevealableWindow | undefined): void {
  if (win === undefined || win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  if (!win.isVisible()) win.show();
  win.focus();
}

export interface HideableWindow {
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  hide(): void;
}

/** Closing the window hides it to the tray; only a real quit (tray menu, app menu, OS) closes it. */
export function keepInTrayOnClose(win: HideableWindow, isQuitting: () => boolean): void {
  win.on('close', (event) => {
    if (isQuitting()) return;
    event.preventDefault();
    win.hide();
  });
}
