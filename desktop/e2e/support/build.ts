import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

const SKIP_DIRS = new Set(['node_modules', 'dist', '.git']);

/** The newest modification time (ms) among `paths` (files or folders, walked recursively); 0 when none exists. */
export const newestMtime = (paths: string[]): number => {
  let newest = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(p)) if (!SKIP_DIRS.has(entry)) visit(path.join(p, entry));
    } else if (stat.mtimeMs > newest) newest = stat.mtimeMs;
  };
  for (const p of paths) visit(p);
  return newest;
};

/** The oldest modification time among output files; 0 when any is missing (so a build is due). */
const oldestOutput = (files: string[]): number => {
  let oldest = Infinity;
  for (const file of files) {
    if (!existsSync(file)) return 0;
    oldest = Math.min(oldest, statSync(file).mtimeMs);
  }
  return oldest;
};

const run = (command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${output.slice(-4000)}`));
    });
  });

const r = (...parts: string[]) => path.join(REPO_ROOT, ...parts);

interface BuildStep {
  name: string;
  sources: string[];
  outputs: string[];
  command: [string, string[]];
  /** Set for the command, over the test run's own environment. */
  env?: NodeJS.ProcessEnv;
  /** A check that what is on disk is what this step builds (besides being newer than its sources). */
  builtAsExpected?: () => boolean;
}

/**
 * Whether the web build on disk runs React's production build, as users get it: a build made under the
 * test run's NODE_ENV=test (vitest's) carries React's development build, several times slower to start and
 * with checks users never run. Only the production build has React's minified error messages (in whichever
 * chunk vite.config.ts puts React).
 */
export const isProductionWebBuild = (dir = r('desktop/dist/renderer/assets')): boolean =>
  existsSync(dir) &&
  readdirSync(dir).some((file) => file.endsWith('.js') && readFileSync(path.join(dir, file), 'utf8').includes('Minified React error'));

const STEPS: BuildStep[] = [
  {
    name: 'server (tsc -b shared server)',
    sources: [r('shared/src'), r('shared/tsconfig.json'), r('server/src'), r('server/tsconfig.json'), r('tsconfig.base.json')],
    outputs: [r('shared/tsconfig.tsbuildinfo'), r('server/tsconfig.tsbuildinfo'), r('server/dist/main.js')],
    command: ['npx', ['tsc', '-b', 'shared', 'server']],
  },
  {
    name: 'web app (npm run build:web -w desktop)',
    sources: [
      r('desktop/src/renderer'),
      r('desktop/src/common'),
      r('shared/src'),
      r('desktop/vite.config.ts'),
      r('desktop/package.json'),
    ],
    outputs: [r('desktop/dist/renderer/index.html')],
    command: ['npm', ['run', 'build:web', '-w', 'desktop']],
    // Vite builds React for whatever NODE_ENV says, and vitest has set it to `test`: the browser tests
    // run the production build users get.
    env: { NODE_ENV: 'production' },
    builtAsExpected: () => isProductionWebBuild(),
  },
];

let built: Promise<string[]> | undefined;

/**
 * Builds what `npm start` serves, once per process: each step is skipped when its outputs are newer
 * than its sources, so repeated local runs stay fast. Resolves with one line per step (built or up to date).
 */
export const ensureBuild = (): Promise<string[]> => {
  built ??= (async () => {
    const ran: string[] = [];
    for (const step of STEPS) {
      if (oldestOutput(step.outputs) > newestMtime(step.sources) && (step.builtAsExpected?.() ?? true)) {
        ran.push(`${step.name}: up to date`);
        continue;
      }
      const started = Date.now();
      await run(...step.command, step.env);
      ran.push(`${step.name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    return ran;
  })();
  return built;
};
