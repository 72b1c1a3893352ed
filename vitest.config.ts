import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const shared = path.resolve(import.meta.dirname, 'shared/src/index.ts');

export default defineConfig({
  resolve: { alias: { '@atrium/shared': shared } },
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    // Server test files each start a server and a database; two at a time suits a 2-core machine.
    maxWorkers: 2,
    pool: 'forks',
    projects: [
      {
        resolve: { alias: { '@atrium/shared': shared } },
        test: {
          name: 'shared',
          root: 'shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        resolve: { alias: { '@atrium/shared': shared } },
        test: {
          name: 'server',
          root: 'server',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['testing/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias: { '@atrium/shared': shared } },
        test: {
          name: 'desktop-main',
          root: 'desktop',
          // e2e/support: the e2e harness's own logic (the Chromium lookup), in plain Node without a browser.
          include: ['src/main/**/*.test.ts', 'src/common/**/*.test.ts', 'src/preload/**/*.test.ts', 'e2e/support/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        plugins: [react()],
        resolve: { alias: { '@atrium/shared': shared } },
        test: {
          name: 'renderer',
          root: 'desktop',
          include: ['src/renderer/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['src/renderer/test/setup.ts'],
          // Whole-app renders share 2 cores with the server tests: generous limits, no flaky timeouts.
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias: { '@atrium/shared': shared } },
        test: {
          name: 'e2e',
          root: 'desktop',
          include: ['e2e/**/*.e2e.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
