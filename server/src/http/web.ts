import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type Koa from 'koa';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.txt': 'text/plain; charset=utf-8',
};

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Atrium</title></head>
<body style="font-family:system-ui;margin:3rem"><h1>Atrium</h1>
<p>The server is running. The web app appears here once the desktop renderer has been built.</p></body></html>`;

/** The file a URL path names under root, or undefined for a path that is not valid percent-encoding. */
const safeResolve = (root: string, urlPath: string): string | undefined => {
  try {
    const decoded = decodeURIComponent(urlPath);
    return decoded.includes('\0') ? undefined : path.resolve(root, '.' + decoded);
  } catch {
    return undefined;
  }
};

/**
 * A browser loading a page, as opposed to an API call: the client-side routes (/users, /settings,
 * /tickets/{uuid}...) share their paths with the API, so a reload there must get the app, not JSON.
 * Browsers mark navigations with Sec-Fetch-Mode and ask for text/html by name; API clients (axios,
 * curl, tools written for the spec's API) never name text/html, so a bare wildcard is not a page load.
 */
export const isPageLoad = (ctx: Koa.Context): boolean => {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  if (path.extname(ctx.path)) return false;
  if (ctx.get('sec-fetch-mode') === 'navigate') return true;
  return /\btext\/html\b/i.test(ctx.get('accept')) && ctx.accepts('html', 'json') === 'html';
};

/**
 * Serves the renderer's web build (or a placeholder): built files by path, and index.html for page
 * loads, before the API routes see them; everything else goes on to the API.
 */
export const webMiddleware = (webDir: string | undefined): Koa.Middleware => {
  const root = webDir ? path.resolve(webDir) : undefined;
  // Read again when a new build replaces it, so a rebuild needs no restart.
  let cached: { mtimeMs: number; body: Buffer } | undefined;
  const index = (): Buffer => {
    const file = root ? path.join(root, 'index.html') : undefined;
    if (!file || !existsSync(file)) return Buffer.from(PLACEHOLDER);
    const { mtimeMs } = statSync(file);
    if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, body: readFileSync(file) };
    return cached.body;
  };
  return async (ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      // Built files all have an extension; API paths never do.
      if (root && path.extname(ctx.path)) {
        const file = safeResolve(root, ctx.path);
        if (file && file.startsWith(root + path.sep) && existsSync(file) && statSync(file).isFile()) {
          ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
          // Vite names built assets by content hash, so they never change.
          ctx.set('Cache-Control', ctx.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
          ctx.body = await readFile(file);
          return;
        }
      }
      if (isPageLoad(ctx)) {
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Cache-Control', 'no-cache');
        ctx.body = index();
        return;
      }
    }
    await next();
  };
};
