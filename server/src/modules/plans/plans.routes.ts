import Router from '@koa/router';
import { createPlanSchema, idParamSchema, listQuerySchema, updatePlanSchema } from '@atrium/shared';
import type { RouteDeps } from '../../http/route-deps.js';
import { superOnly } from '../../http/auth-middleware.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { allPlans, createPlan, deletePlan, findPlan, listPlans, presentPlan, updatePlan } from './plans.service.js';

export const plansRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/plans' });

  // Public: the signup page lists the plans before anyone is logged in.
  router.get('/list', async (ctx) => {
    ctx.body = await allPlans(deps.systemEm());
  });
  router.get('/all', deps.auth, async (ctx) => {
    ctx.body = await allPlans(ctx.state.em);
  });
  router.get('/', deps.auth, superOnly, async (ctx) => {
    ctx.body = await listPlans(ctx.state.service, parse(listQuerySchema, ctx.query));
  });
  router.get('/:id', deps.auth, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = presentPlan(await findPlan(ctx.state.em, id));
  });
  router.post('/', deps.auth, superOnly, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createPlan(ctx.state.service, parse(createPlanSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, superOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updatePlan(ctx.state.service, id, parse(updatePlanSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, superOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    await deletePlan(ctx.state.service, id);
    ctx.body = { message: 'Plan deleted' };
  });

  return router;
};
