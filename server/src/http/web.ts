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

/**
 * Serves the renderer's web build (or a placeholder) after the API routes: files by path, and
 * index.html for any other GET that wants HTML, so client-side routes survive a reload.
 */
export const webMiddleware = (webDir: string | undefined): Koa.Middleware => {
  const root = webDir && existsSync(path.join(webDir, 'index.html')) ? path.resolve(webDir) : undefined;
  const index = root ? readFileSync(path.join(root, 'index.html')) : Buffer.from(PLACEHOLDER);
  return async (ctx, next) => {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404) return;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return;
    if (root) {
      const file = path.resolve(root, '.' + decodeURIComponent(ctx.path));
      if (file.startsWith(root + path.sep) && existsSync(file) && statSync(file).isFile()) {
        ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
        // Vite names built assets by content hash, so they never change.
        ctx.set('Cache-Control', ctx.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        ctx.body = await readFile(file);
        return;
      }
    }
    if (ctx.accepts('html', 'json') === 'html' && !path.extname(ctx.path)) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = index;
    }
  };
};
