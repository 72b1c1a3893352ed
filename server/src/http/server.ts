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

export const isAllowedOrigin = (config: Config, origin: string, selfOrigin: string): boolean =>
  origin === selfOrigin || origin === DESKTOP_ORIGIN || config.corsOrigins.includes(origin);

/** The Koa app: errors, CORS, body parsing, the modules' routers, then the web build. */
export const buildHttpApp = (options: { config: Config; logger: Logger; routers: Router<AppState>[] }): Koa => {
  const { config, logger } = options;
  const app = new Koa({ proxy: false });
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
        return origin && isAllowedOrigin(config, origin, ctx.origin) ? origin : '';
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
  for (const router of options.routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  app.use(async (ctx) => {
    // Unmatched API calls get the catalogue's 404; the web middleware above may still answer with HTML.
    if (ctx.accepts('html', 'json') === 'html' && ctx.method === 'GET') return;
    ctx.status = 404;
    ctx.body = { error: 'ERR_NOT_FOUND' };
  });
  return app;
};
