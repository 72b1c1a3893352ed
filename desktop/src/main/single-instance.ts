import { revealWindow, type RevealableWindow } from './window.js';

export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  on(event: 'second-instance', listener: () => void): unknown;
}

/**
 * One Atrium at a time: without the lock this process quits (returns false); with it, a second launch
 * brings this one's window forward instead (getWindow may create it if it was destroyed).
 */
export function claimSingleInstance(app: SingleInstanceApp, getWindow: () => RevealableWindow | undefined): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => revealWindow(getWindow()));
  return true;
}
