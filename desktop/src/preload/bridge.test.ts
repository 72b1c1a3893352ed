import { describe, expect, it, vi } from 'vitest';
import { DESKTOP_METHODS, INVOKE_METHODS, channelOf } from '../common/desktop-api.js';
import { checkedChannel, createDesktopBridge, type IpcRendererLike } from './bridge.js';

type Listener = (event: unknown, ...args: unknown[]) => void;

function fakeIpcRenderer() {
  const listeners = new Map<string, Listener[]>();
  const ipc = {
    invoke: vi.fn(async (channel: string, ...args: unknown[]) => ({ channel, args })),
    on: vi.fn((channel: string, listener: Listener) => {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    }),
    removeListener: vi.fn((channel: string, listener: Listener) => {
      listeners.set(channel, (listeners.get(channel) ?? []).filter((l) => l !== listener));
    }),
  } satisfies IpcRendererLike;
  const emit = (channel: string, ...args: unknown[]) => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: 'the ipc event' }, ...args);
  };
  return { ipc, emit, listeners };
}

describe('preload bridge', () => {
  it('exposes exactly the methods of DesktopApi', () => {
    const bridge = createDesktopBridge(fakeIpcRenderer().ipc);
    expect(Object.keys(bridge).sort()).toEqual([...DESKTOP_METHODS].sort());
    for (const method of DESKTOP_METHODS) expect(typeof bridge[method]).toBe('function');
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('turns each request into invoke on the prefixed channel with the arguments', async () => {
    const { ipc } = fakeIpcRenderer();
    const bridge = createDesktopBridge(ipc) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const method of INVOKE_METHODS) {
      await expect(bridge[method]('a', 2)).resolves.toEqual({ channel: `atrium:${method}`, args: ['a', 2] });
    }
    expect(ipc.invoke).toHaveBeenCalledTimes(INVOKE_METHODS.length);
  });

  it('onOpenTicket hands the callback the uuid only, until unsubscribed', () => {
    const { ipc, emit } = fakeIpcRenderer();
    const bridge = createDesktopBridge(ipc);
    const seen: unknown[][] = [];
    const unsubscribe = bridge.onOpenTicket((...args: unknown[]) => seen.push(args));
    expect(ipc.on).toHaveBeenCalledWith(channelOf('onOpenTicket'), expect.any(Function));
    emit('atrium:onOpenTicket', 'uuid-1');
    expect(seen).toEqual([['uuid-1']]);
    unsubscribe();
    emit('atrium:onOpenTicket', 'uuid-2');
    expect(seen).toEqual([['uuid-1']]);
    expect(ipc.invoke).not.toHaveBeenCalled();
  });

  it('keeps subscriptions apart', () => {
    const { ipc, emit } = fakeIpcRenderer();
    const bridge = createDesktopBridge(ipc);
    const a = vi.fn();
    const b = vi.fn();
    const offA = bridge.onOpenTicket(a);
    bridge.onOpenTicket(b);
    offA();
    emit('atrium:onOpenTicket', 'x');
    expect(a).not.toHaveBeenCalled();
    expect(b).toHaveBeenCalledWith('x');
  });

  it('refuses a non-function callback', () => {
    const bridge = createDesktopBridge(fakeIpcRenderer().ipc);
    expect(() => bridge.onOpenTicket('alert(1)' as never)).toThrow(TypeError);
  });

  it('checks channels: contract methods only, always prefixed', () => {
    expect(checkedChannel('notify')).toBe('atrium:notify');
    expect(() => checkedChannel('openDevTools')).toThrow(/Not a desktop API method/);
    expect(() => checkedChannel('constructor')).toThrow(/Not a desktop API method/);
  });
});
