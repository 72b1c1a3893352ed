import { existsSync } from 'node:fs';
import path from 'node:path';

/** The browser the end-to-end files drive, and where it was found. */
export interface FoundChromium {
  executablePath: string;
  /** `E2E_CHROMIUM`, `installed` or the npm package that carries it. */
  source: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium the e2e files drive (global-setup.ts), or why there is none: they are skipped then. */
    e2eChromium: FoundChromium | { missing: string };
  }
}

/** What the lookup reads from the machine, passed in so that a test can stage any machine. */
export interface ChromiumLookup {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  arch: string;
  exists: (file: string) => boolean;
  /**
   * A Chromium carried by an npm package (unpacked if need be), or null when the package is absent or has
   * no build for this machine.
   */
  bundled: () => Promise<FoundChromium | null>;
}

/** The package that carries a Linux x64 Chromium (a headless shell) inside itself; a dev dependency. */
export const BUNDLED_PACKAGE = '@sparticuz/chromium';

export const HOW_TO_ENABLE =
  'install Chromium or Google Chrome, or set E2E_CHROMIUM=/path/to/chromium (on Linux x64, npm ci brings one: @sparticuz/chromium)';

const LINUX_PATHS = [
  '/usr/bin/chromium', // Debian (what CI installs)
  '/usr/bin/chromium-browser', // Ubuntu, Fedora
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/opt/google/chrome/chrome',
  '/snap/bin/chromium',
];
const LINUX_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];
const MAC_APPS = [
  'Chromium.app/Contents/MacOS/Chromium',
  'Google Chrome.app/Contents/MacOS/Google Chrome',
  'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
];
const WINDOWS_EXES = ['Chromium\\Application\\chrome.exe', 'Google\\Chrome\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe'];

/** Where an installed Chromium or Chrome (or Edge, a Chromium too) usually is on this platform, most likely first. */
export const installedCandidates = (platform: NodeJS.Platform, env: ChromiumLookup['env']): string[] => {
  if (platform === 'darwin') {
    const roots = ['/Applications', ...(env.HOME ? [path.posix.join(env.HOME, 'Applications')] : [])];
    return roots.flatMap((root) => MAC_APPS.map((app) => path.posix.join(root, app)));
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((r): r is string => Boolean(r));
    return roots.flatMap((root) => WINDOWS_EXES.map((exe) => path.win32.join(root, exe)));
  }
  const onPath = (env.PATH ?? '')
    .split(path.posix.delimiter)
    .filter(Boolean)
    .flatMap((dir) => LINUX_NAMES.map((name) => path.posix.join(dir, name)));
  return [...new Set([...LINUX_PATHS, ...onPath])];
};

/**
 * The Chromium for the end-to-end files, in this order: `E2E_CHROMIUM` (an error if it names nothing);
 * an installed Chromium or Chrome; the one an npm package carries. Null when there is none.
 */
export const findChromium = async (lookup: ChromiumLookup = machineLookup()): Promise<FoundChromium | null> => {
  const chosen = lookup.env.E2E_CHROMIUM;
  if (chosen) {
    if (!lookup.exists(chosen)) throw new Error(`E2E_CHROMIUM=${chosen}: no such file`);
    return { executablePath: chosen, source: 'E2E_CHROMIUM' };
  }
  const installed = installedCandidates(lookup.platform, lookup.env).find((file) => lookup.exists(file));
  if (installed) return { executablePath: installed, source: 'installed' };
  return lookup.bundled();
};

/** @sparticuz/chromium's build, unpacked (once) into the temp folder; it has one for Linux x64 only. */
export const sparticuzChromium = async (platform: NodeJS.Platform = process.platform, arch: string = process.arch): Promise<FoundChromium | null> => {
  if (platform !== 'linux' || arch !== 'x64') return null;
  let chromium: { executablePath(): Promise<string> };
  try {
    chromium = (await import(BUNDLED_PACKAGE)).default;
  } catch {
    return null; // Not installed (npm ci --omit=dev, say).
  }
  return { executablePath: await chromium.executablePath(), source: BUNDLED_PACKAGE };
};

/** This machine as it is. */
export const machineLookup = (): ChromiumLookup => ({
  env: process.env,
  platform: process.platform,
  arch: process.arch,
  exists: existsSync,
  bundled: () => sparticuzChromium(),
});
