import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { DEFAULT_LANGUAGE } from '../shared/src/constants';

const here = import.meta.dirname;

/**
 * Vendor code in a few long-lived chunks, so an app update does not invalidate the libraries. Only
 * libraries the first screen needs are grouped: a library used by one lazy page only (emoji picker,
 * QR code, virtual lists) stays with that page instead of joining the initial download.
 */
// Fluent UI has no group of its own (one Fluent chunk was 200 kB gzip on the login screen): what the start
// and the login page use joins their chunks ('start', 'login'), the rest is split by use.
const VENDOR_GROUPS: { name: string; test: RegExp | ((id: string) => boolean); tags?: '$initial'[] }[] = [
  // The libraries of the first screen, one chunk: a browser opens 6 connections to an HTTP/1.1 server, and
  // every chunk past six waits for one (React, the router, i18next, axios, zustand and zod were six chunks
  // of their own).
  {
    name: 'vendor',
    test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser|i18next|react-i18next|html-parse-stringify|void-elements|axios|zustand|zod)[\\/]/,
  },
  // Dates are formatted by the signed-in pages only: not on the login screen.
  { name: 'dates', test: /node_modules[\\/]date-fns[\\/]/ },
  // The realtime client is fetched once a session starts (api/socket.ts), not for the login screen.
  {
    name: 'socket',
    test: /node_modules[\\/](socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io[\\/]component-emitter|xmlhttprequest-ssl|debug|ms)[\\/]/,
  },
  // The contract's constants, error codes, events and permissions (the files without zod): one small chunk
  // the start needs. Its schemas are not grouped: each goes with the pages that validate with it (the login
  // screen loads the auth ones, not the flow builder's); zod is one chunk of its own.
  { name: 'contract', test: /[\\/]shared[\\/]src[\\/](constants|errors|events|permissions|plans|settings)\.ts$/ },
  // Everything else the start needs (Fluent's core, the app's shell): one chunk, not thirty. The browser
  // opens 6 connections to an HTTP/1.1 server, so dozens of small chunks queue behind each other.
  { name: 'start', tags: ['$initial'], test: (id) => !/[\\/]renderer[\\/](main\.tsx|index\.html)$/.test(id) },
  // The login page and the Fluent parts it shows, one chunk: the login screen's second round of requests is
  // one request, not thirty (the other public pages add what else they need).
  { name: 'login', test: /[\\/]renderer[\\/]features[\\/]auth[\\/]components[\\/](login-page|auth-layout)\.tsx$/ },
];

/**
 * A strings file: i18n/locales/{lang}.ts (namespace `common`) or features/{ns}/i18n/{lang}.ts. Each is
 * loaded on its own when its language and page are shown (i18n/index.ts), as its own chunk named
 * `strings-{ns}-{lang}` so the network log says which.
 */
const STRINGS_FILE = /[\\/]renderer[\\/](?:i18n[\\/]locales|features[\\/]([^\\/]+)[\\/]i18n)[\\/]([a-z]+)\.ts$/;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build, once, at build time:
 * the server sends the one the browser accepts (server/src/http/web.ts) instead of compressing per request.
 */
const precompress = (): Plugin => {
  // The build's own folder, also when `--outDir` puts it elsewhere.
  let outDir = '';
  return {
    name: 'atrium-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|mjs|css|html|svg|json|txt)$/.test(file) || statSync(file).size < 1024) continue;
        const data = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
};

/**
 * Adds a modulepreload for these chunks to index.html: the login page's chunk is fetched with the start
 * instead of after it has run. Nearly every page needs it too (it carries Fluent's button, field, input,
 * card and menu), so a signed-in start does not fetch it for nothing.
 */
const preloadChunks = (names: string[]): Plugin => ({
  name: 'atrium-preload-chunks',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler: (_html, { bundle }) =>
      Object.values(bundle ?? {})
        .filter((chunk) => chunk.type === 'chunk' && names.includes(chunk.name))
        .map((chunk) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` },
          injectTo: 'head' as const,
        })),
  },
});

/**
 * The public pages by address: their module and strings (app/routes.tsx's PUBLIC_ROUTES). A first screen
 * there needs them before it can show.
 */
const FIRST_SCREENS: Record<string, { page: string; namespace: string }> = {
  '/login': { page: 'features/auth/components/login-page.tsx', namespace: 'auth' },
  '/signup': { page: 'features/auth/components/signup-page.tsx', namespace: 'auth' },
  '/forgetpsw': { page: 'features/auth/components/forgot-password-page.tsx', namespace: 'auth' },
};

/**
 * A small inline script in index.html that asks, with the start's own chunks, for what the start would
 * only ask for after it has run: the chosen language's common strings (the language the app reads from
 * local storage, main.tsx) and, on a public page, its chunk and strings. One round of requests fewer.
 * In the desktop app (window.desktop: settings from the main process) it does nothing.
 */
const preloadFirstScreen = (): Plugin => ({
  name: 'atrium-preload-first-screen',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler: (_html, { bundle }) => {
      const chunks = Object.values(bundle ?? {}).filter((chunk) => chunk.type === 'chunk');
      const strings: Record<string, string> = {};
      const firstNamespaces = new Set(Object.values(FIRST_SCREENS).map(({ namespace }) => namespace));
      for (const chunk of chunks) {
        const match = /^assets\/strings-(.+)-([a-z]+)-[\w-]+\.js$/.exec(chunk.fileName);
        // Only what a first screen may need: the common strings and the public pages' namespaces.
        if (match && (match[1] === 'common' || firstNamespaces.has(match[1]))) strings[`${match[2]}/${match[1]}`] = `/${chunk.fileName}`;
      }
      const pages: Record<string, { chunk: string; namespace: string }> = {};
      for (const [route, { page, namespace }] of Object.entries(FIRST_SCREENS)) {
        const chunk = chunks.find((c) => c.isDynamicEntry && c.facadeModuleId?.replaceAll('\\', '/').endsWith(`/renderer/${page}`));
        if (!chunk) throw new Error(`vite.config.ts: no chunk for the first screen ${route} (${page})`);
        pages[route] = { chunk: `/${chunk.fileName}`, namespace };
      }
      const script = `(function(){try{if(window.desktop)return;var s=${JSON.stringify(strings)},p=${JSON.stringify(pages)},l=null;try{l=localStorage.getItem('language');l=JSON.parse(l)}catch(e){}if(!s[l+'/common'])l=${JSON.stringify(DEFAULT_LANGUAGE)};var g=p[location.pathname.replace(/\\/+$/,'')],u=[s[l+'/common']];if(g){u.push(g.chunk);if(s[l+'/'+g.namespace])u.push(s[l+'/'+g.namespace])}u.forEach(function(h){var k=document.createElement('link');k.rel='modulepreload';k.crossOrigin='';k.href=h;document.head.appendChild(k)})}catch(e){}})()`;
      return [{ tag: 'script', children: script, injectTo: 'head' as const }];
    },
  },
});

const outDir = path.resolve(here, 'dist/renderer');

export default defineConfig({
  root: path.resolve(here, 'src/renderer'),
  base: '/',
  // `.env` files sit beside this config, not in the renderer folder.
  envDir: here,
  plugins: [react(), preloadChunks(['login']), preloadFirstScreen(), precompress()],
  resolve: {
    alias: { '@atrium/shared': path.resolve(here, '../shared/src/index.ts') },
  },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        chunkFileNames: (chunk) => {
          // A strings file also imported statically (tickets' English, for its keys) is its own chunk behind a facade.
          const only = chunk.facadeModuleId ?? (chunk.moduleIds.length === 1 ? chunk.moduleIds[0] : undefined);
          const strings = only ? STRINGS_FILE.exec(only) : null;
          return strings ? `assets/strings-${strings[1] ?? 'common'}-${strings[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
        codeSplitting: {
          groups: VENDOR_GROUPS.map((group, index) => ({ ...group, priority: VENDOR_GROUPS.length - index })),
        },
      },
    },
  },
  server: { port: 5173, strictPort: true },
});
