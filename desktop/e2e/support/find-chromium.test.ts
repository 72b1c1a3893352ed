import { describe, expect, it } from 'vitest';
import { skippedBrowserLine } from '../../../scripts/summary-reporter';
import { findChromium, HOW_TO_ENABLE, installedCandidates, sparticuzChromium, type ChromiumLookup, type FoundChromium } from './find-chromium';

const BUNDLED: FoundChromium = { executablePath: '/tmp/chromium', source: '@sparticuz/chromium' };

/** A staged machine: these files exist, this environment, and a bundled Chromium (or none). */
const machine = (options: Partial<Omit<ChromiumLookup, 'exists'>> & { files?: string[] } = {}) => {
  const files = new Set(options.files ?? []);
  const asked: string[] = [];
  let bundledCalls = 0;
  const lookup: ChromiumLookup = {
    env: options.env ?? {},
    platform: options.platform ?? 'linux',
    arch: options.arch ?? 'x64',
    exists: (file) => {
      asked.push(file);
      return files.has(file);
    },
    bundled: async () => {
      bundledCalls++;
      return options.bundled ? options.bundled() : BUNDLED;
    },
  };
  return { lookup, asked, bundledCalls: () => bundledCalls };
};

describe('the Chromium the e2e files drive', () => {
  it('E2E_CHROMIUM first, even when a Chromium is installed', async () => {
    const m = machine({ env: { E2E_CHROMIUM: '/opt/my/chrome' }, files: ['/opt/my/chrome', '/usr/bin/chromium'] });
    expect(await findChromium(m.lookup)).toEqual({ executablePath: '/opt/my/chrome', source: 'E2E_CHROMIUM' });
    expect(m.bundledCalls()).toBe(0);
  });

  it('E2E_CHROMIUM naming nothing is an error, not a silent fallback', async () => {
    const m = machine({ env: { E2E_CHROMIUM: '/nowhere/chrome' }, files: ['/usr/bin/chromium'] });
    await expect(findChromium(m.lookup)).rejects.toThrow('E2E_CHROMIUM=/nowhere/chrome: no such file');
  });

  it("then an installed one: Debian's Chromium before Chrome, and the bundled one is not unpacked", async () => {
    const m = machine({ files: ['/usr/bin/google-chrome', '/usr/bin/chromium'] });
    expect(await findChromium(m.lookup)).toEqual({ executablePath: '/usr/bin/chromium', source: 'installed' });
    expect(m.bundledCalls()).toBe(0);
  });

  it('an installed one found on PATH', async () => {
    const m = machine({ env: { PATH: '/usr/local/bin:/home/ana/bin' }, files: ['/home/ana/bin/google-chrome'] });
    expect(await findChromium(m.lookup)).toEqual({ executablePath: '/home/ana/bin/google-chrome', source: 'installed' });
  });

  it('then the Chromium an npm package carries, after every installed location was looked at', async () => {
    const m = machine({ env: { PATH: '/usr/bin' } });
    expect(await findChromium(m.lookup)).toEqual(BUNDLED);
    expect(m.bundledCalls()).toBe(1);
    expect(m.asked).toEqual(installedCandidates('linux', { PATH: '/usr/bin' }));
  });

  it('none at all: null (the files are skipped then)', async () => {
    const m = machine({ platform: 'darwin', env: { HOME: '/Users/ana' }, bundled: async () => null });
    expect(await findChromium(m.lookup)).toBeNull();
  });

  it('macOS: Chromium, Chrome or Edge in /Applications, then in ~/Applications', async () => {
    expect(installedCandidates('darwin', { HOME: '/Users/ana' })).toEqual([
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
      '/Users/ana/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Users/ana/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Users/ana/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ]);
    const m = machine({ platform: 'darwin', env: { HOME: '/Users/ana' }, files: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'] });
    expect((await findChromium(m.lookup))?.executablePath).toBe('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
  });

  it('Windows: Program Files, Program Files (x86), then the per-user install', async () => {
    const env = { PROGRAMFILES: 'C:\\Program Files', 'PROGRAMFILES(X86)': 'C:\\Program Files (x86)', LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' };
    const candidates = installedCandidates('win32', env);
    expect(candidates.slice(0, 3)).toEqual([
      'C:\\Program Files\\Chromium\\Application\\chrome.exe',
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
      'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe',
    ]);
    expect(candidates).toContain('C:\\Users\\ana\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe');
    const m = machine({ platform: 'win32', env, files: ['C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe'] });
    expect(await findChromium(m.lookup)).toEqual({ executablePath: 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe', source: 'installed' });
  });

  it('the bundled Chromium is a Linux x64 build: none elsewhere', async () => {
    expect(await sparticuzChromium('darwin', 'arm64')).toBeNull();
    expect(await sparticuzChromium('win32', 'x64')).toBeNull();
    expect(await sparticuzChromium('linux', 'arm64')).toBeNull();
  });

  it('without one, the run says in one line which files were skipped and how to run them', () => {
    expect(skippedBrowserLine(['chats.e2e.ts', 'kanban.e2e.ts'], `no Chromium found: ${HOW_TO_ENABLE}`)).toBe(
      'e2e: 2 browser test files skipped (chats.e2e.ts, kanban.e2e.ts): no Chromium found: install Chromium or Google Chrome, ' +
        'or set E2E_CHROMIUM=/path/to/chromium (on Linux x64, npm ci brings one: @sparticuz/chromium)',
    );
  });
});
