import { rmSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS } from './browser.js';
import { BUNDLED_PACKAGE, findChromium, HOW_TO_ENABLE, type FoundChromium } from './find-chromium.js';
import { ARTIFACTS_DIR } from './paths.js';

/** Starts and closes the browser once: a bundled build may lack a library this machine does not have. */
const startsHere = async (found: FoundChromium): Promise<string | null> => {
  try {
    const browser = await chromium.launch({ executablePath: found.executablePath, headless: true, args: CHROMIUM_ARGS });
    await browser.close();
    return null;
  } catch (err) {
    return (err as Error).message.split('\n').find((line) => line.trim()) ?? String(err);
  }
};

const usableChromium = async (): Promise<FoundChromium | { missing: string }> => {
  const found = await findChromium();
  if (!found) return { missing: `no Chromium found: ${HOW_TO_ENABLE}` };
  if (found.source !== BUNDLED_PACKAGE) return found;
  const failure = await startsHere(found);
  return failure ? { missing: `the Chromium in ${BUNDLED_PACKAGE} does not start here (${failure}): ${HOW_TO_ENABLE}` } : found;
};

/**
 * Once per e2e run, before any file: test-artifacts/e2e/ starts empty (every file's screenshots stay), and
 * the browser is looked up once (unpacking a bundled one takes a few seconds) and handed to the files.
 */
export default async function setup(project: TestProject): Promise<void> {
  rmSync(ARTIFACTS_DIR, { recursive: true, force: true });
  const chromiumOrWhy = await usableChromium();
  // CI installs Chromium: there a missing browser is a broken set-up, not a reason to skip.
  if ('missing' in chromiumOrWhy && process.env.CI) throw new Error(`e2e: ${chromiumOrWhy.missing}`);
  if ('executablePath' in chromiumOrWhy) process.stdout.write(`e2e: Chromium ${chromiumOrWhy.executablePath} (${chromiumOrWhy.source})\n`);
  project.provide('e2eChromium', chromiumOrWhy);
}
