import { app, BrowserWindow, ipcMain, shell } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { channelOf, type DesktopApi } from '../common/desktop-api.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_SERVER_URL = 'http://localhost:8080';
let serverUrl = process.env.ATRIUM_SERVER_URL ?? DEFAULT_SERVER_URL;

const api: DesktopApi = {
  getServerUrl: async () => serverUrl,
  setServerUrl: async (url) => {
    serverUrl = new URL(url).origin;
  },
  getVersion: async () => app.getVersion(),
};

const registerIpc = () => {
  for (const [method, handler] of Object.entries(api) as [keyof DesktopApi, (...args: unknown[]) => unknown][]) {
    ipcMain.handle(channelOf(method), (_event, ...args: unknown[]) => handler(...args));
  }
};

const createWindow = () => {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    webPreferences: {
      preload: path.join(here, '../preload/index.cjs'),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
    },
  });
  // Links open in the system browser; the window never navigates away from the app.
  win.webContents.setWindowOpenHandler(({ url }) => {
    void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (new URL(url).origin !== new URL(serverUrl).origin) event.preventDefault();
  });
  void win.loadURL(serverUrl);
};

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void app.whenReady().then(() => {
    registerIpc();
    createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
