import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
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
  class RecordingNotification extends Real {
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
  close(): Promise<void>;
}

let shotCounter = 0;

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
    page.on('websocket', (ws) => {
      ws.on('framesent', (frame) => {
        if (typeof frame.payload === 'string') socketFrames.push(frame.payload);
      });
    });
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
