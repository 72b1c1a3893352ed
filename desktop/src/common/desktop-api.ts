/**
 * The one contract across the process boundary: main implements it, the preload exposes it as
 * `window.desktop`, the renderer calls it. Channel names are derived from the method names.
 */
export interface DesktopApi {
  /** The server the app talks to (asked on first run). */
  getServerUrl(): Promise<string>;
  setServerUrl(url: string): Promise<void>;
  /** The app's version, for the menu footer. */
  getVersion(): Promise<string>;
}

export const IPC_PREFIX = 'atrium:';

export const DESKTOP_API_METHODS = ['getServerUrl', 'setServerUrl', 'getVersion'] as const satisfies readonly (keyof DesktopApi)[];

export const channelOf = (method: keyof DesktopApi): string => `${IPC_PREFIX}${method}`;
