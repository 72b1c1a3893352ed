import { DESKTOP_API, IPC_PREFIX, channelOf, isDesktopMethod, type DesktopApi } from '../common/desktop-api.js';

/** The part of Electron's ipcRenderer the bridge uses (no send, no sendSync). */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** The channel for a contract method; anything that is not one, or lacks the prefix, is refused. */
export function checkedChannel(method: string): string {
  if (!isDesktopMethod(method)) throw new Error(`Not a desktop API method: ${method}`);
  const channel = channelOf(method);
  if (!channel.startsWith(IPC_PREFIX)) throw new Error(`IPC channel without the ${IPC_PREFIX} prefix: ${channel}`);
  return channel;
}

/**
 * Builds `window.desktop` from DESKTOP_API: requests become `ipcRenderer.invoke` on the method's
 * channel, events become a subscription that hands the callback only the payload (never the IPC event,
 * which would give the page `sender`).
 */
export function createDesktopBridge(ipc: IpcRendererLike): DesktopApi {
  const bridge: Record<string, unknown> = {};
  for (const [method, kind] of Object.entries(DESKTOP_API)) {
    const channel = checkedChannel(method);
    if (kind === 'invoke') {
      bridge[method] = (...args: unknown[]) => ipc.invoke(channel, ...args);
    } else {
      bridge[method] = (callback: unknown) => {
        if (typeof callback !== 'function') throw new TypeError(`${method} expects a function`);
        const listener = (_event: unknown, ...args: unknown[]) => {
          callback(...args);
        };
        ipc.on(channel, listener);
        return () => {
          ipc.removeListener(channel, listener);
        };
      };
    }
  }
  return Object.freeze(bridge) as unknown as DesktopApi;
}
