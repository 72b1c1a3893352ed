import type { Language } from '../common/settings.js';
import { drawBadgePng, drawIconPng } from './icon.js';
import type { IpcRegistrar } from './ipc.js';

/** Tray icons are drawn at 32 px and shown at 16 pt (scale factor 2), crisp on high-density screens. */
export const TRAY_ICON_SIZE = 32;
const MAX_UNREAD = 1_000_000;

const LABELS: Record<Language, { show: string; quit: string; unread: (n: number) => string }> = {
  en: { show: 'Show Atrium', quit: 'Quit', unread: (n) => `${n} unread` },
  pt: { show: 'Mostrar Atrium', quit: 'Sair', unread: (n) => `${n} não lida${n === 1 ? '' : 's'}` },
  es: { show: 'Mostrar Atrium', quit: 'Salir', unread: (n) => `${n} sin leer` },
};

export function trayTooltip(count: number, language: Language): string {
  return count > 0 ? `Atrium: ${LABELS[language].unread(count)}` : 'Atrium';
}

export interface TrayMenuItem {
  label: string;
  click: () => void;
}

/** The parts of Electron's Tray used here. */
export interface TrayLike<Image, Menu> {
  setImage(image: Image): void;
  setToolTip(text: string): void;
  setContextMenu(menu: Menu | null): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface TrayDeps<Image, Menu> {
  createTray(image: Image): TrayLike<Image, Menu>;
  /** nativeImage.createFromBuffer. */
  createImage(png: Buffer, options: { scaleFactor: number }): Image;
  /** Menu.buildFromTemplate. */
  buildMenu(items: TrayMenuItem[]): Menu;
  showWindow(): void;
  quit(): void;
  language: Language;
  /** app.setBadgeCount: the dock on macOS, the launcher on some Linux desktops. */
  setBadgeCount?(count: number): boolean;
  /** Windows has no badge count: the taskbar button gets an overlay icon instead. */
  setOverlayIcon?(image: Image | null, description: string): void;
}

export interface TrayController {
  setUnreadCount(count: unknown): number;
  unreadCount(): number;
  setLanguage(language: Language): void;
  destroy(): void;
}

export function parseUnreadCount(count: unknown): number {
  if (typeof count !== 'number' || !Number.isFinite(count) || count < 0) throw new TypeError('The unread count is a number of 0 or more');
  return Math.min(MAX_UNREAD, Math.floor(count));
}

export function createTrayController<Image, Menu>(deps: TrayDeps<Image, Menu>): TrayController {
  let count = 0;
  let language = deps.language;
  const scaleFactor = TRAY_ICON_SIZE / 16;
  const image = (n: number) => deps.createImage(drawIconPng(TRAY_ICON_SIZE, n), { scaleFactor });
  const tray = deps.createTray(image(0));

  const refreshMenu = () => {
    const labels = LABELS[language];
    tray.setContextMenu(
      deps.buildMenu([
        { label: labels.show, click: () => deps.showWindow() },
        { label: labels.quit, click: () => deps.quit() },
      ]),
    );
    tray.setToolTip(trayTooltip(count, language));
  };

  tray.on('click', () => deps.showWindow());
  refreshMenu();

  return {
    setUnreadCount(input) {
      const next = parseUnreadCount(input);
      if (next === count) return count;
      count = next;
      tray.setImage(image(count));
      tray.setToolTip(trayTooltip(count, language));
      deps.setBadgeCount?.(count);
      if (deps.setOverlayIcon) {
        const overlay = count > 0 ? deps.createImage(drawBadgePng(TRAY_ICON_SIZE, count), { scaleFactor }) : null;
        deps.setOverlayIcon(overlay, count > 0 ? trayTooltip(count, language) : '');
      }
      return count;
    },
    unreadCount: () => count,
    setLanguage(next) {
      language = next;
      refreshMenu();
    },
    destroy: () => tray.destroy(),
  };
}

export function registerTrayIpc(ipc: IpcRegistrar, tray: Pick<TrayController, 'setUnreadCount'>): void {
  ipc.handle('setUnreadCount', (count) => {
    tray.setUnreadCount(count);
  });
}
