import type { AppInfoDeps } from './app-info.js';
import { registerAppInfoIpc } from './app-info.js';
import { createIpcRegistrar, type IpcMainLike, type IpcRegistrar } from './ipc.js';
import { registerNotificationIpc, type Notifier } from './notifications.js';
import { registerSecureTokenIpc, type SecureTokenStore } from './secure-token.js';
import { registerStoreIpc, type SettingsStore, type StoreIpcHooks } from './store.js';
import { registerTrayIpc, type TrayController } from './tray.js';
import { originOf } from './window.js';

export interface DesktopServices {
  settings: SettingsStore;
  tokens: SecureTokenStore;
  notifier: Notifier;
  tray: Pick<TrayController, 'setUnreadCount'>;
  appInfo: AppInfoDeps;
}

/**
 * Every invoke method of DesktopApi, each from the module that owns it. Only frames of the app's own
 * origin may call. Changing the server forgets the refresh token issued by the previous one.
 */
export function registerDesktopIpc(
  ipcMain: IpcMainLike,
  services: DesktopServices,
  options: { appOrigin: string; onSettingChanged?: StoreIpcHooks['onSettingChanged'] },
): IpcRegistrar {
  const ipc = createIpcRegistrar(ipcMain, (url) => originOf(url) === options.appOrigin);
  registerStoreIpc(ipc, services.settings, {
    onSettingChanged: options.onSettingChanged,
    onServerChanged: () => services.tokens.clear(),
  });
  registerSecureTokenIpc(ipc, services.tokens);
  registerNotificationIpc(ipc, services.notifier);
  registerTrayIpc(ipc, services.tray);
  registerAppInfoIpc(ipc, services.appInfo);
  return ipc;
}
