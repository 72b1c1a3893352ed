import cors from '@koa/cors';
import { bodyParser } from '@koa/bodyparser';
import type Router from '@koa/router';
import Koa from 'koa';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { AppState } from './types.js';
import { errorMiddleware } from './error-middleware.js';
import { webMiddleware } from './web.js';

/** The desktop app's renderer origin: no web page can have it, so it is always allowed. */
export const DESKTOP_ORIGIN = 'app://atrium';

/** Origins that get CORS headers: the desktop app and those listed in CORS_ORIGINS. */
export const isListedOrigin = (config: Config, origin: string): boolean =>
  origin === DESKTOP_ORIGIN || config.corsOrigins.includes(origin);

const hostOf = (origin: string): string | null => {
  try {
    return new URL(origin).host || null;
  } catch {
    return null;
  }
};

/**
 * Origins that may call the API or open a socket: the listed ones and the server's own web app, whose
 * origin has the request's Host (compared by host only, as a TLS proxy in front changes the scheme).
 */
export const isAllowedOrigin = (config: Config, origin: string, requestHost: string | undefined): boolean =>
  isListedOrigin(config, origin) || (!!requestHost && hostOf(origin) === requestHost.toLowerCase());

/** The Koa app: errors, CORS, the web build (page loads and built files), body parsing, the modules' routers. */
export const buildHttpApp = (options: { config: Config; logger: Logger; routers: Router<AppState>[] }): Koa => {
  const { config, logger } = options;
  // Behind a trusted proxy, only the address it appends counts: whatever a client put before it is ignored.
  const app = new Koa({ proxy: config.trustProxy, maxIpsCount: 1 });
  app.silent = true;
  app.use(errorMiddleware(logger));
  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    await next();
  });
  app.use(
    cors({
      credentials: true,
      // Only listed origins (and our own) get CORS headers; never '*'.
      origin: (ctx) => {
        const origin = ctx.get('Origin');
        // Not ctx.origin: since Koa 3 that is the request's Origin header itself, which would allow every origin.
        return origin && isAllowedOrigin(config, origin, ctx.get('host')) ? origin : '';
      },
      exposeHeaders: ['Retry-After'],
    }),
  );
  app.use(webMiddleware(config.webDir));
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: `${config.bodyLimitKb}kb`,
      encoding: 'utf-8',
    }),
  );
  // No allowedMethods(): a method a path does not have is an unknown route, answered like any other.
  for (const router of options.routers) app.use(router.routes());
  app.use(async (ctx) => {
    // Unmatched API calls get the catalogue's 404 (page loads were answered by the web middleware).
    ctx.status = 404;
    ctx.body = { error: 'ERR_NOT_FOUND' };
  });
  return app;
};
