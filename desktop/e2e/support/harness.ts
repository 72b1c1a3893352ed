import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, type BrowserSession } from './browser.js';
import { ensureBuild } from './build.js';
import { ARTIFACTS_DIR } from './paths.js';
import { apiClient, startServer, type RunningServer } from './server.js';

export interface Harness {
  server: RunningServer;
  browser: BrowserSession;
  api: ReturnType<typeof apiClient>;
  /** One line per build step: built (and how long it took) or up to date; also in build.log. */
  built: string[];
  stop(): Promise<void>;
}

/**
 * Everything an end-to-end file needs: the build (when stale), the server as `npm start` runs it with a
 * fresh database, and Debian's Chromium with notification recording. test-artifacts/e2e/ starts empty.
 */
export const startHarness = async (
  options: {
    /** More server settings (e.g. SMTP_*). */
    env?: Record<string, string>;
    /** The server log's file name in test-artifacts/e2e/. */
    logName?: string;
    /** Keep what earlier e2e files left in test-artifacts/e2e/ (every file but the first). */
    keepArtifacts?: boolean;
  } = {},
): Promise<Harness> => {
  if (!options.keepArtifacts) rmSync(ARTIFACTS_DIR, { recursive: true, force: true });
  const started = Date.now();
  const built = await ensureBuild();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  writeFileSync(path.join(ARTIFACTS_DIR, 'build.log'), `${built.join('\n')}\n(${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  const server = await startServer({ env: options.env, logName: options.logName });
  let browser: BrowserSession;
  try {
    browser = await launchBrowser(server.url);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return {
    server,
    browser,
    api: apiClient(server.url),
    built,
    stop: async () => {
      await browser.close().catch(() => undefined);
      await server.stop();
    },
  };
};

export { sleep } from './server.js';
export type { RecordedNotification } from './browser.js';
