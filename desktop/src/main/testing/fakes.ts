// Stand-ins for the Electron objects the main-process modules receive, for tests in plain Node.
import { inflateSync } from 'node:zlib';
import type { IpcInvokeEventLike, IpcMainLike } from '../ipc.js';
import type { KeyValueBackend } from '../store.js';

export class MemoryBackend implements KeyValueBackend {
  readonly data = new Map<string, unknown>();
  get(key: string) {
    return this.data.get(key);
  }
  set(key: string, value: unknown) {
    this.data.set(key, structuredClone(value));
  }
  has(key: string) {
    return this.data.has(key);
  }
  delete(key: string) {
    this.data.delete(key);
  }
}

type Handler = (event: IpcInvokeEventLike, ...args: any[]) => unknown;

export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler) {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  /** What ipcRenderer.invoke from a frame at `url` would get. */
  async invoke(channel: string, url: string | null, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler({ senderFrame: url === null ? null : { url } }, ...args);
  }
}

export class FakeWindow {
  minimized = false;
  visible = true;
  destroyed = false;
  focused = false;
  readonly calls: string[] = [];
  readonly listeners = new Map<string, ((event: { preventDefault(): void }) => void)[]>();
  readonly webContents = new FakeWebContents();
  isDestroyed = () => this.destroyed;
  isMinimized = () => this.minimized;
  isVisible = () => this.visible;
  restore = () => {
    this.calls.push('restore');
    this.minimized = false;
  };
  show = () => {
    this.calls.push('show');
    this.visible = true;
  };
  hide = () => {
    this.calls.push('hide');
    this.visible = false;
  };
  focus = () => {
    this.calls.push('focus');
    this.focused = true;
  };
  on(event: string, listener: (event: { preventDefault(): void }) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  /** Emits a cancellable event; true when a listener prevented it. */
  emit(event: string): boolean {
    let prevented = false;
    for (const listener of this.listeners.get(event) ?? []) listener({ preventDefault: () => (prevented = true) });
    return prevented;
  }
}

export class FakeWebContents {
  loading = false;
  destroyed = false;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  private readonly onceListeners = new Map<string, (() => void)[]>();
  isDestroyed = () => this.destroyed;
  isLoading = () => this.loading;
  send(channel: string, ...args: unknown[]) {
    this.sent.push({ channel, args });
  }
  once(event: string, listener: () => void) {
    this.onceListeners.set(event, [...(this.onceListeners.get(event) ?? []), listener]);
    return this;
  }
  finishLoading() {
    this.loading = false;
    const listeners = this.onceListeners.get('did-finish-load') ?? [];
    this.onceListeners.delete('did-finish-load');
    for (const listener of listeners) listener();
  }
}

/** Decodes the PNGs drawn by icon.ts (8-bit RGBA, filter 0) into pixels, checking every chunk's CRC. */
export function decodePng(png: Buffer): { width: number; height: number; pixel(x: number, y: number): number[] } {
  if (!png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    const crc = png.readUInt32BE(offset + 8 + length);
    if (crc !== crc32(png.subarray(offset + 4, offset + 8 + length))) throw new Error(`bad CRC in ${type}`);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 6) throw new Error('expected 8-bit RGBA');
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4 + 1;
  if (raw.length !== stride * height) throw new Error('wrong pixel data length');
  return {
    width,
    height,
    pixel: (x, y) => [...raw.subarray(y * stride + 1 + x * 4, y * stride + 1 + x * 4 + 4)],
  };
}

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
