import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
// For the type of the e2e project's provided `e2eChromium`.
import type {} from '../desktop/e2e/support/find-chromium.js';

/** One line naming the browser files that were skipped and why (global-setup.ts of the e2e project found no Chromium). */
export const skippedBrowserLine = (files: string[], missing: string): string =>
  `e2e: ${files.length} browser test file${files.length === 1 ? '' : 's'} skipped (${files.join(', ')}): ${missing}`;

/**
 * Ends a run with one plain line, `tests: N passed, N failed, N skipped`, that any CI can read; before it,
 * one line when the browser tests were skipped for want of a Chromium.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const browserless: string[] = [];
    let missing = '';
    for (const mod of modules) {
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed to load, or whose beforeAll threw (its tests then count as skipped), is a failure.
      failed += mod.state() === 'failed' && failedHere === 0 ? 1 : failedHere;
      const chromium = mod.project.name === 'e2e' ? mod.project.getProvidedContext().e2eChromium : undefined;
      if (chromium && 'missing' in chromium) {
        missing = chromium.missing;
        browserless.push(path.basename(mod.moduleId));
      }
    }
    failed += errors.length;
    if (browserless.length > 0) process.stdout.write(`\n${skippedBrowserLine(browserless.sort(), missing)}`);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
