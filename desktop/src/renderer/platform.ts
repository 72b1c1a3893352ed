import type { DesktopApi } from '../common/desktop-api.js';

/** The one place that knows whether the renderer runs inside Electron or in a browser. */
export const desktop = (): DesktopApi | undefined => (globalThis as { desktop?: DesktopApi }).desktop;
export const isDesktop = (): boolean => desktop() !== undefined;
