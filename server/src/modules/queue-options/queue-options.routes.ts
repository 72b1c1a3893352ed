import Router from '@koa/router';
import { createQueueOptionSchema, idParamSchema, listQueueOptionsQuerySchema, updateQueueOptionSchema } from '@atrium/shared';
import { adminOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import {
  createQueueOption,
  deleteQueueOption,
  getQueueOption,
  listQueueOptions,
  updateQueueOption,
} from './queue-options.service.js';

/** A queue's chatbot menu (spec 02 section 7): anyone in the company reads it, admins write it, like /queue. */
export const queueOptionsRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/queue-options' });

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listQueueOptions(ctx.state.service, parse(listQueueOptionsQuerySchema, ctx.query));
  });
  router.get('/:id', deps.auth, async (ctx) => {
    ctx.body = await getQueueOption(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  router.post('/', deps.auth, adminOnly, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createQueueOption(ctx.state.service, parse(createQueueOptionSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, adminOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateQueueOption(ctx.state.service, id, parse(updateQueueOptionSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, adminOnly, async (ctx) => {
    await deleteQueueOption(ctx.state.service, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Queue option deleted' };
  });

  return router;
};
