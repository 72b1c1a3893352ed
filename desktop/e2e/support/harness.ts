import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, inject } from 'vitest';
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
 * fresh database, and Chromium (found by find-chromium.ts) with notification recording. Its logs and
 * numbered screenshots in test-artifacts/e2e/ carry the file's `name` (the folder is emptied once per run,
 * by global-setup.ts).
 */
export const startHarness = async (
  options: {
    /** The e2e file's name: its logs are `server-{name}.log` and `browser-{name}.log`, its screenshots `{name}-NN-….png`. */
    name: string;
    /** More server settings (e.g. SMTP_*). */
    env?: Record<string, string>;
  },
): Promise<Harness> => {
  const started = Date.now();
  const built = await ensureBuild();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  writeFileSync(path.join(ARTIFACTS_DIR, `build-${options.name}.log`), `${built.join('\n')}\n(${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  const server = await startServer({ env: options.env, logName: `server-${options.name}.log` });
  let browser: BrowserSession;
  try {
    browser = await launchBrowser(server.url, options.name);
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

const inChromium = describe.skipIf('missing' in inject('e2eChromium'));

/**
 * `describe` for a file that drives Chromium: skipped when global-setup.ts found none (the run's summary
 * then says which files were skipped and how to run them). Its tests are the steps of one story on one
 * page (storySteps), so they keep their written order in a shuffled run (`--sequence.shuffle`); the files
 * are still shuffled.
 */
export const describeInChromium = (name: string, steps: () => void) => inChromium(name, { shuffle: false }, steps);

export { storySteps } from './story.js';
export { setTheme } from './theme.js';
export type { RecordedNotification } from './browser.js';
export { screens, type ScreensOptions } from './screens.js';
export { signIn } from './login.js';
