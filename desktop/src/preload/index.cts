import { contextBridge, ipcRenderer } from 'electron';
import type { DesktopApi } from '../common/desktop-api.js';

// A sandboxed preload cannot load modules, so the method list is repeated here and checked against the type.
const METHODS = ['getServerUrl', 'setServerUrl', 'getVersion'] as const satisfies readonly (keyof DesktopApi)[];
const PREFIX = 'atrium:';

const api = Object.fromEntries(
  METHODS.map((method) => [method, (...args: unknown[]) => ipcRenderer.invoke(`${PREFIX}${method}`, ...args)]),
) as unknown as DesktopApi;

contextBridge.exposeInMainWorld('desktop', api);
