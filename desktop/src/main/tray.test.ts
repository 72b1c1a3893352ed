import { describe, expect, it, vi } from 'vitest';
import { drawIconPng } from './icon.js';
import { decodePng } from './testing/fakes.js';
import { createTrayController, registerTrayIpc, trayTooltip, type TrayMenuItem } from './tray.js';
import { createIpcRegistrar } from './ipc.js';
import { FakeIpcMain } from './testing/fakes.js';

interface FakeImage {
  png: Buffer;
  scaleFactor: number;
}

class FakeTray {
  image: FakeImage;
  tooltip = '';
  menu: TrayMenuItem[] | null = null;
  destroyed = false;
  readonly clickListeners: (() => void)[] = [];
  constructor(image: FakeImage) {
    this.image = image;
  }
  setImage(image: FakeImage) {
    this.image = image;
  }
  setToolTip(text: string) {
    this.tooltip = text;
  }
  setContextMenu(menu: TrayMenuItem[] | null) {
    this.menu = menu;
  }
  on(_event: 'click', listener: () => void) {
    this.clickListeners.push(listener);
  }
  destroy() {
    this.destroyed = true;
  }
}

function setup(options: { windows?: boolean } = {}) {
  let tray: FakeTray | undefined;
  const showWindow = vi.fn();
  const quit = vi.fn();
  const setBadgeCount = vi.fn(() => true);
  const setOverlayIcon = vi.fn();
  const controller = createTrayController<FakeImage, TrayMenuItem[]>({
    createTray: (image) => (tray = new FakeTray(image)),
    createImage: (png, { scaleFactor }) => ({ png, scaleFactor }),
    buildMenu: (items) => items,
    showWindow,
    quit,
    language: 'en',
    ...(options.windows ? { setOverlayIcon } : { setBadgeCount }),
  });
  if (tray === undefined) throw new Error('no tray created');
  return { tray, controller, showWindow, quit, setBadgeCount, setOverlayIcon };
}

const hasRedBadge = (image: FakeImage) => {
  const [r, g, b] = decodePng(image.png).pixel(21, 2);
  return r > 200 && g < 80 && b < 80;
};

describe('tray', () => {
  it('starts without a badge, tooltip "Atrium", a 16 pt icon drawn at 32 px', () => {
    const { tray } = setup();
    expect(tray.tooltip).toBe('Atrium');
    expect(tray.image.scaleFactor).toBe(2);
    expect(decodePng(tray.image.png).width).toBe(32);
    expect(hasRedBadge(tray.image)).toBe(false);
  });

  it('shows the unread count in the tooltip, the icon and the dock badge; 0 clears them', () => {
    const { tray, controller, setBadgeCount } = setup();
    const plain = tray.image.png;
    expect(controller.setUnreadCount(3)).toBe(3);
    expect(tray.tooltip).toBe('Atrium: 3 unread');
    expect(hasRedBadge(tray.image)).toBe(true);
    expect(tray.image.png.equals(drawIconPng(32, 3))).toBe(true);
    expect(setBadgeCount).toHaveBeenLastCalledWith(3);

    controller.setUnreadCount(4);
    expect(tray.tooltip).toBe('Atrium: 4 unread');
    expect(tray.image.png.equals(drawIconPng(32, 3))).toBe(false);

    controller.setUnreadCount(0);
    expect(tray.tooltip).toBe('Atrium');
    expect(tray.image.png.equals(plain)).toBe(true);
    expect(setBadgeCount).toHaveBeenLastCalledWith(0);
    expect(controller.unreadCount()).toBe(0);
  });

  it('puts an overlay on the Windows taskbar button instead of a badge count', () => {
    const { controller, setOverlayIcon, setBadgeCount } = setup({ windows: true });
    controller.setUnreadCount(2);
    const [image, description] = setOverlayIcon.mock.lastCall as [FakeImage, string];
    expect(image).not.toBeNull();
    expect(description).toBe('Atrium: 2 unread');
    controller.setUnreadCount(0);
    expect(setOverlayIcon).toHaveBeenLastCalledWith(null, '');
    expect(setBadgeCount).not.toHaveBeenCalled();
  });

  it('has a menu to show the window and to quit, and a click shows the window', () => {
    const { tray, showWindow, quit } = setup();
    expect(tray.menu?.map((item) => item.label)).toEqual(['Show Atrium', 'Quit']);
    tray.menu?.[0].click();
    expect(showWindow).toHaveBeenCalledTimes(1);
    expect(quit).not.toHaveBeenCalled();
    tray.menu?.[1].click();
    expect(quit).toHaveBeenCalledTimes(1);
    for (const listener of tray.clickListeners) listener();
    expect(showWindow).toHaveBeenCalledTimes(2);
  });

  it('speaks the chosen language', () => {
    const { tray, controller } = setup();
    controller.setUnreadCount(1);
    controller.setLanguage('pt');
    expect(tray.menu?.map((item) => item.label)).toEqual(['Mostrar Atrium', 'Sair']);
    expect(tray.tooltip).toBe('Atrium: 1 não lida');
    expect(trayTooltip(2, 'es')).toBe('Atrium: 2 sin leer');
  });

  it('refuses counts that are not counts', () => {
    const { controller, tray } = setup();
    for (const bad of [-1, Number.NaN, '3', null]) expect(() => controller.setUnreadCount(bad)).toThrow(TypeError);
    expect(tray.tooltip).toBe('Atrium');
    expect(controller.setUnreadCount(2.7)).toBe(2);
  });

  it('is reachable over IPC as setUnreadCount', async () => {
    const ipcMain = new FakeIpcMain();
    const { tray, controller } = setup();
    registerTrayIpc(createIpcRegistrar(ipcMain, () => true), controller);
    await ipcMain.invoke('atrium:setUnreadCount', 'app://atrium/', 7);
    expect(tray.tooltip).toBe('Atrium: 7 unread');
  });
});
