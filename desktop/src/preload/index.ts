// Bundled into dist/preload/index.cjs (scripts/build-preload.mjs): a sandboxed preload can require
// only 'electron', so the contract from common/ is inlined rather than loaded.
import { contextBridge, ipcRenderer } from 'electron';
import { DESKTOP_GLOBAL } from '../common/desktop-api.js';
import { createDesktopBridge } from './bridge.js';

contextBridge.exposeInMainWorld(DESKTOP_GLOBAL, createDesktopBridge(ipcRenderer));
