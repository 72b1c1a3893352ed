import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { ARTIFACTS_DIR } from './paths.js';

/**
 * Ours for every Chromium, the one bundled in @sparticuz/chromium too (its own list adds
 * --disable-web-security and --single-process, which would let the tests pass where a real browser fails).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** What the page's `new Notification(title, options)` calls recorded (see NOTIFICATION_RECORDER). */
export interface RecordedNotification {
  title: string;
  body?: string;
  tag?: string;
  at: number;
}

/**
 * Runs in every page before the app: the real Notification class, wrapped so each construction is
 * recorded into window.__notifications first (the app uses the browser's Notification API outside
 * Electron; headless Chromium shows nothing a test could see). Chromium's headless shell (the build in
 * @sparticuz/chromium) keeps `Notification.permission` at 'denied' when the context granted it; the
 * wrapper answers what the Permissions API says, as a full Chromium does.
 */
const NOTIFICATION_RECORDER = () => {
  const w = window as unknown as { __notifications: unknown[]; Notification: typeof Notification };
  w.__notifications = [];
  const Real = w.Notification;
  if (typeof Real !== 'function') return;
  let granted = false;
  void navigator.permissions?.query({ name: 'notifications' }).then((status) => {
    granted = status.state === 'granted';
  });
  class RecordingNotification extends Real {
    static override get permission(): NotificationPermission {
      return granted ? 'granted' : Real.permission;
    }
    constructor(title: string, options?: NotificationOptions) {
      w.__notifications.push({ title, body: options?.body, tag: options?.tag, at: Date.now() });
      super(title, options);
    }
  }
  w.Notification = RecordingNotification;
};

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Saves test-artifacts/e2e/{file name}-{NN}-{shot}.png (numbered in call order) and returns its path. */
  screenshot(name: string): Promise<string>;
  notifications(): Promise<RecordedNotification[]>;
  /** Console errors seen so far (also written to browser.log). */
  errors: string[];
  /** Uncaught exceptions in the page (also written to browser.log). */
  pageErrors: string[];
  /** What the page sent over socket.io (websocket frames, long-polling bodies), oldest first; the test may empty it. */
  socketFrames: string[];
  /** The room changes of the page's socket (see RoomChanges). */
  roomChanges: RoomChanges;
  /** Another user's browser: a context of its own (its own session), with the same recorders and room tracking. */
  newContext(): Promise<{ context: BrowserContext; page: Page; roomChanges: RoomChanges }>;
  close(): Promise<void>;
}

/**
 * The room changes (`["joinTickets","pending"]`, `["leaveNotification"]`...) a context's pages ask of their
 * socket. Each travels with an acknowledgement id added on the way (the server acks a change once it took
 * effect) and the ack is kept from the page, which did not ask for it. The test may empty `done`.
 */
export interface RoomChanges {
  /** The changes the server has carried out, oldest first. */
  done: string[];
  /** How many it has not answered yet. */
  pending(): number;
}

/**
 * Waits until the server has carried out these joins (`joinTickets`, `joinNotification`...) and every other
 * change the page asked for meanwhile (a leave answered after a join would undo it). Empty `changes.done`
 * before the navigation that makes them.
 */
export const roomsJoined = (changes: RoomChanges, events: string[], timeout = 15_000) =>
  expect
    .poll(() => [...events.filter((e) => !changes.done.some((done) => done.startsWith(`["${e}"`))), ...(changes.pending() ? ['(unanswered)'] : [])], {
      timeout,
    })
    .toEqual([]);

/** Routes the context's socket.io websockets through the test to follow their room changes. */
const watchRoomChanges = async (context: BrowserContext, log: (line: string) => void, sent: string[]): Promise<RoomChanges> => {
  const done: string[] = [];
  const sockets = new Set<Map<number, string>>();
  await context.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    const awaiting = new Map<number, string>();
    sockets.add(awaiting);
    ws.onMessage((message) => {
      if (typeof message !== 'string') return server.send(message);
      sent.push(message);
      // A socket.io event of the default namespace: 42["event",...]; with an ack id: 42{id}["event",...].
      const change = /^42(\["(?:join|leave)[A-Za-z]+".*)$/s.exec(message);
      if (!change) return server.send(message);
      const id = nextAckId++;
      awaiting.set(id, change[1]);
      server.send(`42${id}${change[1]}`);
    });
    server.onMessage((message) => {
      const ack = typeof message === 'string' ? /^43(\d+)(\[.*)$/s.exec(message) : null;
      const change = ack ? awaiting.get(Number(ack[1])) : undefined;
      if (!ack || change === undefined) return ws.send(message);
      awaiting.delete(Number(ack[1]));
      if ((JSON.parse(ack[2]) as [{ ok?: boolean }])[0]?.ok) done.push(change);
      else log(`the server failed the room change ${change}`);
    });
    // A closed socket's unanswered changes never will be; the close still reaches the other side.
    ws.onClose((code, reason) => {
      sockets.delete(awaiting);
      void server.close({ code, reason });
    });
    server.onClose((code, reason) => {
      sockets.delete(awaiting);
      void ws.close({ code, reason });
    });
  });
  return { done, pending: () => [...sockets].reduce((n, awaiting) => n + awaiting.size, 0) };
};

let shotCounter = 0;
/** Ack ids the harness adds to room changes: far above the ones the app's own socket.io client counts up from 0. */
let nextAckId = 1_000_000;

export const launchBrowser = async (baseURL: string, name: string): Promise<BrowserSession> => {
  const found = inject('e2eChromium');
  // The files skip themselves when there is none (describeInChromium); this is a file that did not.
  if ('missing' in found) throw new Error(`e2e: ${found.missing}`);
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const browser = await chromium.launch({ executablePath: found.executablePath, headless: true, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await context.grantPermissions(['notifications'], { origin: baseURL });
    await context.addInitScript(NOTIFICATION_RECORDER);
    const page = await context.newPage();

    const errors: string[] = [];
    const logFile = path.join(ARTIFACTS_DIR, `browser-${name}.log`);
    const log = (line: string) => {
      try {
        appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
      } catch {
        // The log is a convenience.
      }
    };
    page.on('console', (msg) => {
      log(`console.${msg.type()}: ${msg.text()}`);
      if (msg.type() === 'error') errors.push(msg.text());
    });
    const socketFrames: string[] = [];
    const roomChanges = await watchRoomChanges(context, log, socketFrames);
    // socket.io falls back to HTTP long-polling: its packets then travel in POST bodies.
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/socket.io/')) socketFrames.push(request.postData() ?? '');
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => {
      log(`pageerror: ${err.stack ?? err.message}`);
      pageErrors.push(err.message);
    });

    return {
      browser,
      context,
      page,
      errors,
      pageErrors,
      socketFrames,
      roomChanges,
      newContext: async () => {
        const other = await browser.newContext({ baseURL, viewport: { width: 1366, height: 800 }, locale: 'en-US' });
        await other.grantPermissions(['notifications'], { origin: baseURL });
        await other.addInitScript(NOTIFICATION_RECORDER);
        const otherRooms = await watchRoomChanges(other, log, []);
        return { context: other, page: await other.newPage(), roomChanges: otherRooms };
      },
      screenshot: async (shot: string) => {
        shotCounter += 1;
        const file = path.join(ARTIFACTS_DIR, `${name}-${String(shotCounter).padStart(2, '0')}-${shot}.png`);
        await page.screenshot({ path: file, animations: 'disabled' });
        return file;
      },
      notifications: () =>
        page.evaluate(() => ((window as unknown as { __notifications?: unknown[] }).__notifications ?? []) as RecordedNotification[]),
      close: () => browser.close(),
    };
  } catch (err) {
    await browser.close();
    throw err;
  }
};
