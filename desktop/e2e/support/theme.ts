import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/**
 * Switches the app to `theme` with the top bar's toggle. It waits for the app to have applied its stored
 * theme first: read before React mounts, the page has no theme yet and the toggle would flip the stored one.
 */
export const setTheme = async (page: Page, theme: 'light' | 'dark') => {
  const toggle = page.getByTestId('theme-toggle');
  await toggle.waitFor();
  const current = () => page.evaluate(() => document.documentElement.dataset.theme);
  await expect.poll(current).toMatch(/^(light|dark)$/);
  if ((await current()) !== theme) await toggle.click();
  await expect.poll(current).toBe(theme);
};
