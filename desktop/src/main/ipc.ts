import {
  channelOf,
  type DesktopApi,
  type EventArgs,
  type EventMethod,
  type InvokeMethod,
} from '../common/desktop-api.js';

/** The parts of Electron's ipcMain and its invoke event that main uses. */
export interface IpcInvokeEventLike {
  senderFrame: { url: string } | null;
}
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: any[]) => unknown): void;
  removeHandler(channel: string): void;
}

/**
 * A handler receives the renderer's arguments as unknown (they cross a trust boundary and are parsed
 * by the module) and must answer what the contract promises.
 */
export type InvokeHandler<M extends InvokeMethod> = (
  ...args: unknown[]
) => Awaited<ReturnType<DesktopApi[M]>> | ReturnType<DesktopApi[M]>;

export interface IpcRegistrar {
  handle<M extends InvokeMethod>(method: M, handler: InvokeHandler<M>): void;
  /** The methods handled so far, in registration order. */
  handled(): InvokeMethod[];
  /** Removes every handler (tests, or a window torn down). */
  dispose(): void;
}

export class UntrustedSenderError extends Error {
  constructor(url: string | undefined) {
    super(`IPC from an untrusted frame: ${url ?? '(gone)'}`);
    this.name = 'UntrustedSenderError';
  }
}

/**
 * Registers contract methods on ipcMain. Every call is checked against the sender's frame, so a page
 * from elsewhere (a navigation that slipped through, an iframe) cannot use the API.
 */
export function createIpcRegistrar(ipcMain: IpcMainLike, isTrustedUrl: (url: string) => boolean): IpcRegistrar {
  const methods: InvokeMethod[] = [];
  return {
    handle(method, handler) {
      if (methods.includes(method)) throw new Error(`IPC method registered twice: ${method}`);
      methods.push(method);
      ipcMain.handle(channelOf(method), (event, ...args: unknown[]) => {
        const url = event.senderFrame?.url;
        if (url === undefined || !isTrustedUrl(url)) throw new UntrustedSenderError(url);
        return handler(...args);
      });
    },
    handled: () => [...methods],
    dispose() {
      for (const method of methods.splice(0)) ipcMain.removeHandler(channelOf(method));
    },
  };
}

export interface WebContentsLike {
  isDestroyed(): boolean;
  isLoading(): boolean;
  send(channel: string, ...args: unknown[]): void;
  once(event: 'did-finish-load', listener: () => void): unknown;
}

/** Sends a main→renderer event; a page still loading gets it once loaded rather than losing it. */
export function sendDesktopEvent<M extends EventMethod>(contents: WebContentsLike, method: M, ...args: EventArgs<M>): void {
  if (contents.isDestroyed()) return;
  const send = () => {
    if (!contents.isDestroyed()) contents.send(channelOf(method), ...args);
  };
  if (contents.isLoading()) contents.once('did-finish-load', send);
  else send();
}
