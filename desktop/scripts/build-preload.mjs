// Bundles the preload (src/preload/index.ts and what it imports from common/) into one CommonJS file.
// A sandboxed preload can require only 'electron' and a few built-ins, not sibling files, so the
// contract is inlined here instead of being written twice.
// Usage: node scripts/build-preload.mjs [outDir]   (default dist/preload)
import path from 'node:path';
import { build } from 'vite';

const desktopDir = path.resolve(import.meta.dirname, '..');
const outDir = path.resolve(process.argv[2] ?? path.join(desktopDir, 'dist/preload'));

await build({
  configFile: false,
  root: desktopDir,
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir,
    // Also clears what tsc emitted there: only the bundle is loaded.
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    target: 'node22',
    lib: { entry: path.join(desktopDir, 'src/preload/index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
    rolldownOptions: { external: ['electron'] },
  },
});
