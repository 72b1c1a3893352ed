/* eslint-disable no-console -- a command-line script talks to its user */
// Electron's own install script (which downloads its binary) is not run by `npm ci` (see the root
// package.json allowScripts), so machines without GitHub access can install the project. This runs it
// on demand before `npm run desktop` or packaging.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const require = createRequire(import.meta.url);
const electronDir = path.dirname(require.resolve('electron/package.json'));
const pathFile = path.join(electronDir, 'path.txt');
const installed = existsSync(pathFile) && existsSync(path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim()));
if (!installed) {
  console.log('Downloading the Electron binary...');
  const result = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('Could not download Electron. This needs access to its release host; see README.');
    process.exit(result.status ?? 1);
  }
}
