import Router from '@koa/router';
import { dashboardChartQuerySchema, dashboardQuerySchema } from '@atrium/shared';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { getDashboard, ticketsPerDay, ticketsPerUser } from './dashboard.service.js';

/**
 * The dashboard (spec 01 section 7). Every call is authenticated and reads the token's company: a
 * `companyId` in the query (the family's charts trusted one) is dropped by the schemas.
 */
export const dashboardRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/dashboard' });

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await getDashboard(ctx.state.service, parse(dashboardQuerySchema, ctx.query));
  });
  router.get('/ticketsUsers', deps.auth, async (ctx) => {
    ctx.body = await ticketsPerUser(ctx.state.service, parse(dashboardChartQuerySchema, ctx.query));
  });
  router.get('/ticketsDay', deps.auth, async (ctx) => {
    ctx.body = await ticketsPerDay(ctx.state.service, parse(dashboardChartQuerySchema, ctx.query));
  });

  return router;
};
