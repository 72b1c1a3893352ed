import type { PlatformInfo } from '../common/desktop-api.js';
import type { IpcRegistrar } from './ipc.js';

export interface AppInfoDeps {
  getVersion(): string;
  platform: string;
  arch: string;
  versions: { electron?: string; chrome?: string };
  secureTokenStorage(): boolean;
  notificationsSupported(): boolean;
}

const OSES: readonly PlatformInfo['os'][] = ['win32', 'darwin', 'linux'];

export function platformInfo(deps: AppInfoDeps): PlatformInfo {
  return {
    os: OSES.find((os) => os === deps.platform) ?? 'other',
    arch: deps.arch,
    electronVersion: deps.versions.electron ?? '',
    chromeVersion: deps.versions.chrome ?? '',
    secureTokenStorage: deps.secureTokenStorage(),
    notificationsSupported: deps.notificationsSupported(),
  };
}

export function registerAppInfoIpc(ipc: IpcRegistrar, deps: AppInfoDeps): void {
  ipc.handle('getVersion', () => deps.getVersion());
  ipc.handle('getPlatform', () => platformInfo(deps));
}
