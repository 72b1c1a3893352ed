import Router from '@koa/router';
import { createConnectionSchema, idParamSchema, listConnectionsQuerySchema, pairingCodeSchema, updateConnectionSchema } from '@atrium/shared';
import { adminOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  logoutSession,
  requestPairingCode,
  restartSession,
  startSession,
  updateConnection,
} from './connections.service.js';

export const connectionsRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>();

  router.get('/whatsapp', deps.auth, async (ctx) => {
    const query = parse(listConnectionsQuerySchema, ctx.query);
    ctx.body = await listConnections(ctx.state.service, query.companyId);
  });
  router.get('/whatsapp/:id', deps.auth, async (ctx) => {
    ctx.body = await getConnection(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  router.post('/whatsapp', deps.auth, adminOnly, async (ctx) => {
    ctx.status = 201;
    const input = parse(createConnectionSchema, ctx.request.body);
    ctx.body = await createConnection(ctx.state.service, deps.channels, input, (err) =>
      deps.logger.error({ err, companyId: ctx.state.actor.companyId }, 'session start failed'),
    );
  });
  router.put('/whatsapp/:id', deps.auth, adminOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateConnection(ctx.state.service, id, parse(updateConnectionSchema, ctx.request.body));
  });
  router.delete('/whatsapp/:id', deps.auth, adminOnly, async (ctx) => {
    await deleteConnection(ctx.state.service, deps.channels, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Whatsapp deleted.' };
  });

  router.post('/whatsappsession/:id', deps.auth, adminOnly, async (ctx) => {
    ctx.body = await startSession(ctx.state.service, deps.channels, parse(idParamSchema, ctx.params).id);
  });
  router.put('/whatsappsession/:id', deps.auth, adminOnly, async (ctx) => {
    ctx.body = await restartSession(ctx.state.service, deps.channels, parse(idParamSchema, ctx.params).id);
  });
  router.post('/whatsappsession/:id/pairing-code', deps.auth, adminOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    const { number } = parse(pairingCodeSchema, ctx.request.body);
    ctx.body = await requestPairingCode(ctx.state.service, deps.channels, id, number);
  });
  router.delete('/whatsappsession/:id', deps.auth, adminOnly, async (ctx) => {
    ctx.body = await logoutSession(ctx.state.service, deps.channels, parse(idParamSchema, ctx.params).id);
  });

  return router;
};
