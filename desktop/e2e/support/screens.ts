import path from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS_DIR } from './paths.js';
import { setTheme } from './theme.js';

export interface ScreensOptions {
  /** Where each shot goes; by default `<name>-<width>-<theme>.png` in the artifacts folder. */
  shoot?: (shot: string) => Promise<unknown>;
  /** Opens a dialog for each shot (closed with Escape after it, so the next width starts clean). */
  openDialog?: () => Promise<void>;
  /** Runs at each width before its shots: waits for the layout, scrolls something into view... */
  prepare?: (width: number) => Promise<void>;
}

/**
 * The page as it is, at 1366 and 400 px, light and dark: what a person would look at for each screen.
 * Leaves the page light at 1366 px.
 */
export const screens = async (page: Page, name: string, options: ScreensOptions = {}): Promise<void> => {
  const shoot = options.shoot ?? ((shot: string) => page.screenshot({ path: path.join(ARTIFACTS_DIR, `${shot}.png`), animations: 'disabled' }));
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const width of [1366, 400]) {
      await page.setViewportSize({ width, height: 800 });
      await options.prepare?.(width);
      if (options.openDialog) {
        await options.openDialog();
        await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      } else {
        // Off every control: no hover state in the shot.
        await page.mouse.move(width / 2, 790);
      }
      await shoot(`${name}-${width}-${theme}`);
      if (options.openDialog) {
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'detached' });
      }
    }
  }
  await setTheme(page, 'light');
  await page.setViewportSize({ width: 1366, height: 800 });
};
