import { rmSync } from 'node:fs';
import { ARTIFACTS_DIR } from './paths.js';

/** Once per e2e run, before any file: test-artifacts/e2e/ starts empty, and every file's screenshots stay. */
export default function emptyArtifacts(): void {
  rmSync(ARTIFACTS_DIR, { recursive: true, force: true });
}
