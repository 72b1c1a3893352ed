// The only module that touches Electron's objects: it wires the modules beside it, which take what
// they need as parameters and are tested without Electron.
import {
  app,
  BrowserWindow,
  ipcMain,
  Menu,
  nativeImage,
  nativeTheme,
  Notification,
  protocol,
  safeStorage,
  session,
  shell,
  Tray,
  type NativeImage,
} from 'electron';
import Store from 'electron-store';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language, Theme } from '../common/settings.js';
import { registerDesktopIpc } from './desktop-ipc.js';
import { drawIconPng } from './icon.js';
import { sendDesktopEvent } from './ipc.js';
import { createNotifier } from './notifications.js';
import { createAppProtocolHandler, registerAppScheme } from './protocol.js';
import { canEncrypt, createSecureTokenStore } from './secure-token.js';
import { claimSingleInstance } from './single-instance.js';
import { createSettingsStore, defaultServerUrl } from './store.js';
import { createTrayController, type TrayController } from './tray.js';
import {
  APP_ORIGIN,
  APP_SCHEME,
  applyPermissionPolicy,
  keepInTrayOnClose,
  mainWindowOptions,
  originOf,
  resolveRendererUrl,
  revealWindow,
  secureWebContents,
} from './window.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const PRELOAD_PATH = path.join(here, '../preload/index.cjs');
const RENDERER_DIR = path.join(here, '../renderer');
/** The same id as electron-builder.yml's appId: Windows ties notifications to it. */
const APP_USER_MODEL_ID = 'app.atrium.desktop';

registerAppScheme(protocol);

const rendererUrl = resolveRendererUrl({ devUrl: process.env.ATRIUM_RENDERER_URL, isPackaged: app.isPackaged });
const appOrigin = originOf(rendererUrl) ?? APP_ORIGIN;

let mainWindow: BrowserWindow | undefined;
let tray: TrayController | undefined;
let quitting = false;

function ensureWindow(): BrowserWindow {
  if (mainWindow !== undefined && !mainWindow.isDestroyed()) return mainWindow;
  const win = new BrowserWindow(
    mainWindowOptions({ preloadPath: PRELOAD_PATH, icon: nativeImage.createFromBuffer(drawIconPng(256)) }),
  );
  secureWebContents(win.webContents, { appOrigin, openExternal: (url) => shell.openExternal(url) });
  keepInTrayOnClose(win, () => quitting);
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = undefined;
  });
  // A renderer that fails to load (dev server down) still gets a window to show it.
  win.loadURL(rendererUrl).catch(() => win.show());
  mainWindow = win;
  return win;
}

const showWindow = () => revealWindow(ensureWindow());

function start() {
  const backend = new Store<Record<string, unknown>>({ name: 'atrium', clearInvalidConfig: true });
  const settings = createSettingsStore(backend, { defaultServerUrl: defaultServerUrl(process.env.ATRIUM_SERVER_URL) });
  const tokens = createSecureTokenStore({ safeStorage, backend, platform: process.platform });
  nativeTheme.themeSource = settings.getSetting('theme');

  protocol.handle(APP_SCHEME, createAppProtocolHandler({ rootDir: RENDERER_DIR }));
  applyPermissionPolicy(session.defaultSession, appOrigin);

  const isWindows = process.platform === 'win32';
  tray = createTrayController<NativeImage, Menu>({
    createTray: (image) => new Tray(image),
    createImage: (png, options) => nativeImage.createFromBuffer(png, options),
    buildMenu: (items) => Menu.buildFromTemplate(items),
    showWindow,
    quit: () => app.quit(),
    language: settings.getSetting('language'),
    ...(isWindows
      ? { setOverlayIcon: (image, description) => mainWindow?.setOverlayIcon(image, description) }
      : { setBadgeCount: (count) => app.setBadgeCount(count) }),
  });

  const notifier = createNotifier({
    isSupported: () => Notification.isSupported(),
    create: (options) => new Notification(options),
    revealWindow: showWindow,
    openTicket: (ticketUuid) => sendDesktopEvent(ensureWindow().webContents, 'onOpenTicket', ticketUuid),
    openChat: (chatUuid) => sendDesktopEvent(ensureWindow().webContents, 'onOpenChat', chatUuid),
  });

  const trayController = tray;
  registerDesktopIpc(
    ipcMain,
    {
      settings,
      tokens,
      notifier,
      tray: trayController,
      appInfo: {
        getVersion: () => app.getVersion(),
        platform: process.platform,
        arch: process.arch,
        versions: process.versions,
        secureTokenStorage: () => canEncrypt(safeStorage, process.platform),
        notificationsSupported: () => Notification.isSupported(),
      },
    },
    {
      appOrigin,
      onSettingChanged: (key, value) => {
        if (key === 'theme') nativeTheme.themeSource = value as Theme;
        if (key === 'language') trayController.setLanguage(value as Language);
      },
    },
  );

  ensureWindow();
}

if (claimSingleInstance(app, ensureWindow)) {
  if (process.platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  app.on('before-quit', () => {
    quitting = true;
  });
  // macOS: the dock icon brings the window back.
  app.on('activate', () => {
    if (app.isReady()) showWindow();
  });
  // Closing the window only hides it, so this fires when quitting: let the quit go on.
  app.on('window-all-closed', () => app.quit());
  void app.whenReady().then(start);
}
