import Router from '@koa/router';
import { createHelpSchema, idParamSchema, listQuerySchema, updateHelpSchema } from '@atrium/shared';
import { superOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { allHelps, createHelp, deleteHelp, getHelp, listHelps, updateHelp } from './helps.service.js';

export const helpsRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/helps' });

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listHelps(ctx.state.service, parse(listQuerySchema, ctx.query));
  });
  router.get('/list', deps.auth, async (ctx) => {
    ctx.body = await allHelps(ctx.state.service);
  });
  router.get('/:id', deps.auth, async (ctx) => {
    ctx.body = await getHelp(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  router.post('/', deps.auth, superOnly, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createHelp(ctx.state.service, parse(createHelpSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, superOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateHelp(ctx.state.service, id, parse(updateHelpSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, superOnly, async (ctx) => {
    await deleteHelp(ctx.state.service, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Help deleted' };
  });

  return router;
};
