#!/usr/bin/env node
// The whole suite several times in a row beside CPU-bound processes, to bring out tests that fail by chance.
//
//   npm run test:stress                              5 runs beside 2 busy processes
//   npm run test:stress -- --runs 3 --load 1         3 runs beside 1
//   npm run test:stress -- --shuffle                 each run in a new random order (its seed is printed)
//   npm run test:stress -- --runs 1 --project shared anything else goes to `vitest run` as it is
//   node scripts/test-stress.mjs --runs 3 -- --project renderer desktop/src/renderer/features/auth
//
// Each run's output is kept in test-artifacts/stress/run-N.log; the end prints one line per run with the
// failing tests' names, and exits 1 if any run failed. The busy processes stop at the end, on a failure and
// on Ctrl-C.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'test-artifacts', 'stress');
const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

const usage = (problem) => {
  process.stderr.write(`${problem}\nusage: npm run test:stress -- [--runs N] [--load N] [--shuffle] [vitest arguments...]\n`);
  process.exit(2);
};

const parse = (argv) => {
  const options = { runs: 5, load: 2, shuffle: false, vitest: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.split('=', 2);
    const count = () => {
      const value = Number(inline ?? argv[++i]);
      if (!Number.isInteger(value) || value < 0) usage(`${name} wants a whole number`);
      return value;
    };
    if (name === '--runs') options.runs = count();
    else if (name === '--load') options.load = count();
    else if (arg === '--shuffle') options.shuffle = true;
    // `node scripts/test-stress.mjs -- --project renderer` (npm strips that `--`, node does not): vitest
    // would take it as the end of its arguments, ignore the filters after it and run the whole suite.
    else if (arg === '--') continue;
    else options.vitest.push(arg);
  }
  if (options.runs < 1) usage('--runs wants at least 1');
  return options;
};

const options = parse(process.argv.slice(2));

/** The busy processes: each spins on one core until it is killed. */
const load = [];
const startLoad = () => {
  for (let i = 0; i < options.load; i++) {
    load.push(spawn(process.execPath, ['-e', 'for (;;) Math.sqrt(Math.random());'], { stdio: 'ignore' }));
  }
};
const stopLoad = () => {
  for (const child of load.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
};

let current = null;
// Synchronous, so it holds on every way out (a throw included).
process.on('exit', stopLoad);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopLoad();
    current?.kill(signal);
    process.stderr.write(`\ntest:stress: ${signal}, busy processes stopped\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/** What vitest's JSON report says failed: test names, or the file when it failed before any test. */
const failuresOf = (reportFile) => {
  let report;
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8'));
  } catch {
    return { counts: null, failed: ['(no report: see the log)'] };
  }
  const failed = [];
  for (const file of report.testResults ?? []) {
    const name = path.relative(ROOT, file.name);
    const tests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of tests) failed.push(`${name} > ${t.fullName ?? t.title}`);
    if (tests.length === 0 && file.status === 'failed') failed.push(`${name} (${(file.message ?? 'failed').split('\n')[0]})`);
  }
  const counts = { passed: report.numPassedTests ?? 0, failed: report.numFailedTests ?? 0, skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0) };
  return { counts, failed };
};

const runOnce = (n) =>
  new Promise((resolve) => {
    const log = path.join(OUT, `run-${n}.log`);
    const report = path.join(OUT, `run-${n}.json`);
    rmSync(report, { force: true });
    const seed = options.shuffle ? Math.floor(Math.random() * 2 ** 31) : undefined;
    const args = [
      VITEST,
      'run',
      '--reporter=default',
      '--reporter=./scripts/summary-reporter.ts',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...(seed === undefined ? [] : ['--sequence.shuffle', `--sequence.seed=${seed}`]),
      ...options.vitest,
    ];
    const started = Date.now();
    const out = createWriteStream(log);
    out.write(`node ${args.map((a) => path.relative(ROOT, a) || a).join(' ')}\n\n`);
    current = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    current.stdout.pipe(out, { end: false });
    current.stderr.pipe(out, { end: false });
    current.on('close', (code, signal) => {
      out.end();
      current = null;
      const { counts, failed } = failuresOf(report);
      resolve({ n, code, signal, seed, seconds: Math.round((Date.now() - started) / 1000), counts, failed, log });
    });
  });

mkdirSync(OUT, { recursive: true });
const shuffled = options.shuffle ? ', shuffled' : '';
const extra = options.vitest.length ? ` (vitest ${options.vitest.join(' ')})` : '';
process.stdout.write(`test:stress: ${options.runs} run(s) beside ${options.load} busy process(es)${shuffled}${extra}; logs in ${path.relative(ROOT, OUT)}/\n`);
startLoad();
const results = [];
for (let n = 1; n <= options.runs; n++) {
  const result = await runOnce(n);
  results.push(result);
  const ok = result.code === 0;
  const seed = result.seed === undefined ? '' : `, seed ${result.seed}`;
  const counts = result.counts ? `${result.counts.passed} passed, ${result.counts.failed} failed, ${result.counts.skipped} skipped` : `exit ${result.signal ?? result.code}`;
  process.stdout.write(`run ${n}/${options.runs}: ${ok ? 'passed' : 'FAILED'} (${counts}) in ${result.seconds} s${seed}\n`);
  if (!ok) for (const name of result.failed.length ? result.failed : [`see ${path.relative(ROOT, result.log)}`]) process.stdout.write(`  ✗ ${name}\n`);
}
stopLoad();

const failedRuns = results.filter((r) => r.code !== 0);
process.stdout.write(`test:stress: ${results.length - failedRuns.length} of ${results.length} run(s) passed\n`);
process.exit(failedRuns.length ? 1 : 0);
