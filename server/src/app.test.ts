import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { get as httpGet } from 'node:http';
import http from 'node:http';
import type { Socket } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSocket, createTenant, disconnected, startTestApp, type TestApp } from '../testing/helpers.js';

let t: TestApp;
const dirs: string[] = [];
const tempDir = (label: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `atrium-${label}-`));
  dirs.push(dir);
  return dir;
};

/** fetch() replaces Sec-Fetch-Mode with its own; node:http sends headers as given. */
const rawGet = (url: string, headers: Record<string, string>): Promise<string> =>
  new Promise((resolve, reject) => {
    http
      .get(`${t.app.url}${url}`, { headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(text));
      })
      .on('error', reject);
  });

const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

beforeAll(async () => {
  // An empty web directory: the placeholder page, whatever has been built in the monorepo.
  t = await startTestApp({ WEB_DIR: tempDir('noweb') });
});
afterAll(async () => {
  await t?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('GET /health', () => {
  it('answers 200 {"status":"ok"} without a login', async () => {
    const res = await t.api.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('unknown routes and the web app', () => {
  it('answers an unknown JSON route with 404 {"error":"ERR_NOT_FOUND"}', async () => {
    for (const [method, url] of [
      ['GET', '/no-such-route'],
      ['POST', '/no-such-route'],
      ['GET', '/users/1/nothing'],
      ['DELETE', '/settings'],
    ]) {
      const res = await t.api.request(method, url, method === 'POST' ? { body: {} } : {});
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body, `${method} ${url}`).toEqual({ error: 'ERR_NOT_FOUND' });
    }
  });

  it('serves the placeholder page to a browser asking for HTML, on / and on client-side routes', async () => {
    for (const url of ['/', '/tickets', '/settings/users', '/login']) {
      const res = await t.api.request('GET', url, { headers: html });
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.body).toContain('<title>Atrium</title>');
      expect(res.body).toContain('The server is running');
    }
  });

  it('gives a page load of a client route that is also an API path the app, and an API call the API', async () => {
    // Reloading the browser on /users, /settings or /tickets/{uuid} must show the app, not a 401.
    for (const url of ['/users', '/settings', '/tickets/0b7f3a1e-1c1d-4d55-9a55-2b1f8f3c9d10', '/helps']) {
      const page = await t.api.request('GET', url, { headers: html });
      expect(page.status, url).toBe(200);
      expect(page.body, url).toContain('<title>Atrium</title>');
      expect(await rawGet(url, { accept: '*/*', 'sec-fetch-mode': 'navigate' }), url).toContain('<title>Atrium</title>');
      expect(await rawGet(url, { accept: '*/*', 'sec-fetch-mode': 'cors' }), url).toMatch(/^\{"error":"ERR_/);
    }
    // axios' default Accept, curl's and a JSON client's reach the API.
    for (const accept of ['application/json, text/plain, */*', '*/*', 'application/json']) {
      const res = await t.api.request('GET', '/settings', { headers: { accept } });
      expect(res, accept).toMatchObject({ status: 401, body: { error: 'ERR_SESSION_EXPIRED' } });
    }
    // Only GET and HEAD load pages.
    expect(await t.api.request('POST', '/users', { headers: html, body: {} })).toMatchObject({ status: 401 });
  });

  it('sends its security headers on every answer', async () => {
    const res = await t.api.get('/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });
});

describe('a built web app (WEB_DIR)', () => {
  let web: TestApp;
  beforeAll(async () => {
    const dir = tempDir('web');
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Built Atrium</title>');
    writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
    // As the build writes them (desktop/vite.config.ts): precompressed copies beside the files.
    writeFileSync(path.join(dir, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log(1)'));
    writeFileSync(path.join(dir, 'assets', 'app-abc123.js.gz'), gzipSync('console.log(1)'));
    writeFileSync(path.join(dir, 'index.html.gz'), gzipSync('<!doctype html><title>Built Atrium</title>'));
    writeFileSync(path.join(dir, 'favicon.ico'), 'icon');
    // A file next to the build that must never be served.
    writeFileSync(path.join(path.dirname(dir), `${path.basename(dir)}-secret.txt`), 'secret');
    web = await startTestApp({ WEB_DIR: dir });
  });
  afterAll(() => web?.stop());

  it('serves index.html for routes and files by path with their types and caching', async () => {
    const index = await web.api.request('GET', '/tickets/5', { headers: html });
    expect(index.status).toBe(200);
    expect(index.body).toContain('Built Atrium');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const asset = await fetch(`${web.app.url}/assets/app-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(await asset.text()).toBe('console.log(1)');
    expect((await fetch(`${web.app.url}/favicon.ico`)).headers.get('content-type')).toBe('image/x-icon');
  });

  it('sends the precompressed copy the browser accepts, varying by Accept-Encoding', async () => {
    const raw = (encoding: string, route = '/assets/app-abc123.js', headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        // node:http, which does not decode: the bytes on the wire are what is checked.
        const req = httpGet(`${web.app.url}${route}`, { headers: { 'accept-encoding': encoding, ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
      });
    const br = await raw('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toMatch(/^text\/javascript/);
    expect(brotliDecompressSync(br.body).toString()).toBe('console.log(1)');
    const gz = await raw('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe('console.log(1)');
    const plain = await raw('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe('console.log(1)');
    // A page load gets index.html compressed too, and never cached without revalidation.
    const page = await raw('gzip, br', '/tickets/5', html);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(page.body).toString()).toContain('Built Atrium');
  });

  it('never serves a file outside the build, and survives malformed paths', async () => {
    const secretName = `${path.basename(web.app.config.webDir!)}-secret.txt`;
    for (const url of [`/..%2F${secretName}`, `/%2e%2e/${secretName}`, `/assets/..%2F..%2F${secretName}`, '/%E0%A4%A.js', '/assets/%00.js', '/missing.js']) {
      const res = await fetch(`${web.app.url}${url}`, { headers: html });
      expect(res.status, url).toBe(404);
      expect(await res.text(), url).not.toContain('secret');
    }
    // A malformed page path still gets the app.
    const page = await fetch(`${web.app.url}/tickets/%E0%A4%A`, { headers: html });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Built Atrium');
  });
});

describe('stopping', () => {
  it('answers 503 once the scheduler is down, and stops within 10 s with sockets open', async () => {
    const app = await startTestApp();
    let stopped = false;
    try {
      const c = await createTenant(app, 'Stop');
      expect((await app.api.get('/health')).status).toBe(200);
      await app.app.scheduler.stop();
      const res = await app.api.get('/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'unavailable', scheduler: false, database: true });

      const sockets = await Promise.all([connectSocket(app.app.url, c.admin.token), connectSocket(app.app.url, c.agent.token)]);
      const closed = sockets.map((s) => disconnected(s));
      // An idle kept-alive HTTP connection (kept 65 s) does not hold the stop up either.
      const agent = new http.Agent({ keepAlive: true });
      const { socket: idle, keepAlive } = await new Promise<{ socket: Socket; keepAlive?: string | string[] }>((resolve, reject) => {
        const request = http.get(`${app.app.url}/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ socket: request.socket!, keepAlive: res.headers['keep-alive'] }));
        });
        request.on('error', reject);
      });
      expect(keepAlive).toBe('timeout=65');
      const idleClosed = new Promise<void>((resolve) => idle.once('close', () => resolve()));
      await app.stop();
      stopped = true;
      expect((await Promise.all(closed)).every((reason) => typeof reason === 'string')).toBe(true);
      await idleClosed;
      agent.destroy();
      // Nothing listens any more.
      await expect(fetch(`${app.app.url}/health`)).rejects.toThrow();
      // A second stop is harmless.
      await app.app.stop();
    } finally {
      if (!stopped) await app.stop();
    }
  });
});
