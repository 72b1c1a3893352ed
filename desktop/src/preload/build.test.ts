import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { DESKTOP_METHODS } from '../common/desktop-api.js';

const desktopDir = path.resolve(import.meta.dirname, '../..');

describe('built preload (scripts/build-preload.mjs)', () => {
  it('is one CommonJS file that runs where only electron can be required, as in a sandboxed preload', () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'atrium-preload-'));
    const build = spawnSync(process.execPath, [path.join(desktopDir, 'scripts/build-preload.mjs'), outDir], { encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    const code = readFileSync(path.join(outDir, 'index.cjs'), 'utf8');

    const exposeInMainWorld = vi.fn();
    const ipcRenderer = { invoke: vi.fn(async () => 'pong'), on: vi.fn(), removeListener: vi.fn(), sendSync: vi.fn(), send: vi.fn() };
    const required: string[] = [];
    const sandboxRequire = (id: string) => {
      required.push(id);
      if (id === 'electron') return { contextBridge: { exposeInMainWorld }, ipcRenderer };
      throw new Error(`module not found: ${id}`);
    };
    const module = { exports: {} };
    vm.runInNewContext(code, { require: sandboxRequire, module, exports: module.exports });

    expect(required).toEqual(['electron']);
    expect(exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [name, api] = exposeInMainWorld.mock.calls[0] as [string, Record<string, (...args: unknown[]) => unknown>];
    expect(name).toBe('desktop');
    expect(Object.keys(api).sort()).toEqual([...DESKTOP_METHODS].sort());
    void api.getVersion();
    expect(ipcRenderer.invoke).toHaveBeenCalledWith('atrium:getVersion');
    expect(ipcRenderer.sendSync).not.toHaveBeenCalled();
    expect(code).not.toMatch(/sendSync/);
  }, 30_000);
});
