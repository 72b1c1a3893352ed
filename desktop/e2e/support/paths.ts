import path from 'node:path';

/** The monorepo root (this file is desktop/e2e/support/paths.ts). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/** Where the end-to-end run leaves its screenshots and logs (git-ignored). */
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'test-artifacts', 'e2e');
