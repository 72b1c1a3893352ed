import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { APP_HOST, APP_SCHEME } from './window.js';

/**
 * app:// is standard (relative URLs, history routing), secure (a secure context, like https) and may use
 * fetch and CORS, so the renderer calls the server with Origin app://atrium, which the server allows.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, stream: true, codeCache: true },
};

/** Must run before the app is ready. */
export function registerAppScheme(protocol: { registerSchemesAsPrivileged(schemes: (typeof APP_SCHEME_PRIVILEGES)[]): void }): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
}

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export const mimeTypeOf = (file: string): string => MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

const notFound = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/**
 * Serves the built renderer from rootDir. Paths that escape rootDir are refused; a path without a file
 * extension that matches no file gets index.html, so client-side routes survive a reload.
 */
export function createAppProtocolHandler(options: {
  rootDir: string;
  read?: (file: string) => Promise<Uint8Array>;
}): (request: Request) => Promise<Response> {
  const root = path.resolve(options.rootDir);
  const read = options.read ?? ((file: string) => readFile(file));

  const serve = async (file: string, method: string): Promise<Response | undefined> => {
    let body: Uint8Array;
    try {
      body = await read(file);
    } catch {
      return undefined;
    }
    const headers = { 'content-type': mimeTypeOf(file), 'x-content-type-options': 'nosniff', 'content-length': String(body.byteLength) };
    return new Response(method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  };

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405 });
    const url = new URL(request.url);
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return notFound();
    let relative: string;
    try {
      relative = decodeURIComponent(url.pathname);
    } catch {
      return notFound();
    }
    if (relative.includes('\0')) return notFound();
    const file = path.resolve(root, `.${path.posix.normalize(relative)}`);
    if (file !== root && !file.startsWith(root + path.sep)) return notFound();
    const target = file === root || relative.endsWith('/') ? path.join(file, 'index.html') : file;
    const found = await serve(target, request.method);
    if (found) return found;
    if (path.extname(relative) === '') return (await serve(path.join(root, 'index.html'), request.method)) ?? notFound();
    return notFound();
  };
}
