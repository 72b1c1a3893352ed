import Router from '@koa/router';
import { createQueueIntegrationSchema, idParamSchema, listQuerySchema, testQueueIntegrationSchema, updateQueueIntegrationSchema } from '@atrium/shared';
import { adminOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { createSealer } from '../../secrets/sealed.js';
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  listDeliveries,
  listIntegrations,
  updateIntegration,
  type IntegrationDeps,
} from './queue-integrations.service.js';
import { testIntegration } from './test-session.js';

export const integrationDepsOf = (config: RouteDeps['config']): IntegrationDeps => ({
  sealer: createSealer(config.integrations.secretKey),
  config: config.integrations,
  publicUrl: config.payment.publicUrl,
});

/**
 * Queue integrations (spec 02 section 7): the company's users read them (the queue and connection dialogs
 * list them), admins write and test them and read their delivery log; every call needs the plan's
 * integrations flag.
 */
export const queueIntegrationsRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/queueIntegration' });
  const iDeps = integrationDepsOf(deps.config);

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listIntegrations(ctx.state.service, parse(listQuerySchema, ctx.query));
  });
  router.post('/testSession', deps.auth, adminOnly, async (ctx) => {
    ctx.body = await testIntegration(ctx.state.service, iDeps, parse(testQueueIntegrationSchema, ctx.request.body));
  });
  router.get('/:id/deliveries', deps.auth, adminOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await listDeliveries(ctx.state.service, id, parse(listQuerySchema, ctx.query).pageNumber);
  });
  router.get('/:id', deps.auth, async (ctx) => {
    ctx.body = await getIntegration(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  router.post('/', deps.auth, adminOnly, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createIntegration(ctx.state.service, iDeps, parse(createQueueIntegrationSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, adminOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateIntegration(ctx.state.service, iDeps, id, parse(updateQueueIntegrationSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, adminOnly, async (ctx) => {
    await deleteIntegration(ctx.state.service, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Integration deleted' };
  });

  return router;
};
