import Router from '@koa/router';
import { createQueueSchema, idParamSchema, listQueuesQuerySchema, updateQueueSchema } from '@atrium/shared';
import { adminOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { createQueue, deleteQueue, getQueue, listQueues, updateQueue } from './queues.service.js';

/** Queues (spec 02 section 7): anyone in the company reads them, admins write them. */
export const queuesRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>();

  router.get('/queue', deps.auth, async (ctx) => {
    const { companyId } = parse(listQueuesQuerySchema, ctx.query);
    ctx.body = await listQueues(ctx.state.service, companyId);
  });
  router.get('/queue/:id', deps.auth, async (ctx) => {
    ctx.body = await getQueue(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  router.post('/queue', deps.auth, adminOnly, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createQueue(ctx.state.service, parse(createQueueSchema, ctx.request.body));
  });
  router.put('/queue/:id', deps.auth, adminOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateQueue(ctx.state.service, id, parse(updateQueueSchema, ctx.request.body));
  });
  router.delete('/queue/:id', deps.auth, adminOnly, async (ctx) => {
    await deleteQueue(ctx.state.service, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Queue deleted' };
  });

  return router;
};
