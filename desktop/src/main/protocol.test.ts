import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_SCHEME_PRIVILEGES, createAppProtocolHandler, registerAppScheme } from './protocol.js';

let root: string;
let handler: (request: Request) => Promise<Response>;

beforeAll(() => {
  const parent = mkdtempSync(path.join(tmpdir(), 'atrium-protocol-'));
  root = path.join(parent, 'renderer');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(path.join(root, 'assets', 'logo.svg'), '<svg/>');
  writeFileSync(path.join(parent, 'secret.txt'), 'do not serve');
  handler = createAppProtocolHandler({ rootDir: root });
});

const get = (url: string, method = 'GET') => handler(new Request(url, { method }));

describe('app:// protocol', () => {
  it('is registered as standard, secure and allowed to fetch with CORS', () => {
    const registerSchemesAsPrivileged = vi.fn();
    registerAppScheme({ registerSchemesAsPrivileged });
    expect(registerSchemesAsPrivileged).toHaveBeenCalledWith([APP_SCHEME_PRIVILEGES]);
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({
      scheme: 'app',
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
    });
  });

  it('serves the renderer files with their content type', async () => {
    const page = await get('app://atrium/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('id="root"');
    const script = await get('app://atrium/assets/index-abc.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log(1)');
    expect((await get('app://atrium/assets/logo.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('answers index.html for the root and for client-side routes', async () => {
    expect(await (await get('app://atrium/')).text()).toContain('id="root"');
    const route = await get('app://atrium/tickets/3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b');
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('id="root"');
  });

  it('404s a missing asset instead of answering HTML', async () => {
    expect((await get('app://atrium/assets/missing.js')).status).toBe(404);
  });

  it('never serves files outside the renderer folder', async () => {
    for (const url of ['app://atrium/%2e%2e/secret.txt', 'app://atrium/..%2fsecret.txt', 'app://atrium/assets/..%2f..%2fsecret.txt', 'app://atrium/%00']) {
      const response = await get(url);
      expect(await response.text(), url).not.toContain('do not serve');
    }
    expect((await get('app://atrium/..%2fsecret.txt')).status).toBe(404);
  });

  it('serves only its own host and only reads', async () => {
    expect((await get('app://other/index.html')).status).toBe(404);
    expect((await get('app://atrium/index.html', 'POST')).status).toBe(405);
    const head = await get('app://atrium/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
