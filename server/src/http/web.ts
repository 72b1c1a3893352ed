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

/** Encodings the build writes beside each text file (desktop/vite.config.ts), best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * The precompressed copy of `file` the client accepts (brotli, else gzip), if the build wrote one. The
 * answer varies by Accept-Encoding, so caches keep one copy per encoding.
 */
const compressedCopy = (ctx: Koa.Context, file: string): { file: string; encoding: string } | undefined => {
  ctx.vary('Accept-Encoding');
  for (const { name, suffix } of ENCODINGS) {
    if (ctx.acceptsEncodings(name, 'identity') === name && existsSync(file + suffix)) return { file: file + suffix, encoding: name };
  }
  return undefined;
};

/**
 * Serves the renderer's web build (or a placeholder): built files by path, and index.html for page
 * loads, before the API routes see them; everything else goes on to the API. Text files go out
 * precompressed (brotli or gzip) when the client takes it; hashed assets are cached for a year, the rest
 * (index.html above all) revalidated every time, so a new build is picked up at once.
 */
export const webMiddleware = (webDir: string | undefined): Koa.Middleware => {
  const root = webDir ? path.resolve(webDir) : undefined;
  // Read again when a new build replaces it, so a rebuild needs no restart.
  const cache = new Map<string, { mtimeMs: number; body: Buffer }>();
  const cachedRead = (file: string): Buffer => {
    const { mtimeMs } = statSync(file);
    let entry = cache.get(file);
    if (!entry || entry.mtimeMs !== mtimeMs) cache.set(file, (entry = { mtimeMs, body: readFileSync(file) }));
    return entry.body;
  };
  const sendIndex = (ctx: Koa.Context) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    const file = root ? path.join(root, 'index.html') : undefined;
    if (!file || !existsSync(file)) {
      ctx.body = Buffer.from(PLACEHOLDER);
      return;
    }
    const compressed = compressedCopy(ctx, file);
    if (compressed) ctx.set('Content-Encoding', compressed.encoding);
    ctx.body = cachedRead(compressed?.file ?? file);
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
          const compressed = compressedCopy(ctx, file);
          if (compressed) ctx.set('Content-Encoding', compressed.encoding);
          ctx.body = await readFile(compressed?.file ?? file);
          return;
        }
      }
      if (isPageLoad(ctx)) {
        sendIndex(ctx);
        return;
      }
    }
    await next();
  };
};
