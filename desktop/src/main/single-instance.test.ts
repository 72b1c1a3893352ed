import { describe, expect, it, vi } from 'vitest';
import { claimSingleInstance } from './single-instance.js';
import { FakeWindow } from './testing/fakes.js';

function fakeApp(lock: boolean) {
  const listeners = new Map<string, () => void>();
  return {
    requestSingleInstanceLock: vi.fn(() => lock),
    quit: vi.fn(),
    on: vi.fn((event: string, listener: () => void) => listeners.set(event, listener)),
    emit: (event: string) => listeners.get(event)?.(),
  };
}

describe('single instance', () => {
  it('quits when another instance holds the lock', () => {
    const app = fakeApp(false);
    expect(claimSingleInstance(app, () => undefined)).toBe(false);
    expect(app.quit).toHaveBeenCalledTimes(1);
    expect(app.on).not.toHaveBeenCalled();
  });

  it('a second launch restores, shows and focuses the first window', () => {
    const app = fakeApp(true);
    const win = new FakeWindow();
    win.minimized = true;
    win.visible = false;
    expect(claimSingleInstance(app, () => win)).toBe(true);
    expect(app.quit).not.toHaveBeenCalled();
    expect(win.calls).toEqual([]);
    app.emit('second-instance');
    expect(win.calls).toEqual(['restore', 'show', 'focus']);
    expect(win.minimized).toBe(false);
    expect(win.visible).toBe(true);
  });

  it('a visible window is only focused', () => {
    const app = fakeApp(true);
    const win = new FakeWindow();
    claimSingleInstance(app, () => win);
    app.emit('second-instance');
    expect(win.calls).toEqual(['focus']);
  });

  it('asks for the window when the second launch comes (it may have to be recreated)', () => {
    const app = fakeApp(true);
    const getWindow = vi.fn(() => undefined);
    claimSingleInstance(app, getWindow);
    expect(getWindow).not.toHaveBeenCalled();
    app.emit('second-instance');
    expect(getWindow).toHaveBeenCalledTimes(1);
  });
});
