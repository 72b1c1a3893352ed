import Router from '@koa/router';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';

export const ticketNotesRoutes = (_deps: RouteDeps) => {
  const router = new Router<AppState>();
  return router;
};
