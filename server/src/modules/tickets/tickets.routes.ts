import Router from '@koa/router';
import { createTicketSchema, idParamSchema, listTicketsQuerySchema, updateTicketSchema } from '@atrium/shared';
import { z } from 'zod';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { createTicket, deleteTicket, getTicket, getTicketByUuid, listTickets, updateTicket } from './tickets.service.js';
import { transitionDeps } from '../transitions/index.js';
import { listTicketLog } from './ticket-log.service.js';

const uuidParam = z.object({ uuid: z.string().max(64) });

export const ticketsRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/tickets' });
  const transitions = transitionDeps(deps);

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listTickets(ctx.state.service, parse(listTicketsQuerySchema, ctx.query));
  });
  router.get('/u/:uuid', deps.auth, async (ctx) => {
    ctx.body = await getTicketByUuid(ctx.state.service, parse(uuidParam, ctx.params).uuid);
  });
  router.get('/:id', deps.auth, async (ctx) => {
    ctx.body = await getTicket(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  // The activity trail the conversation shows between its messages (transfers, accepts, closes...).
  router.get('/:id/log', deps.auth, async (ctx) => {
    ctx.body = await listTicketLog(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  router.post('/', deps.auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createTicket(ctx.state.service, parse(createTicketSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateTicket(ctx.state.service, transitions, id, parse(updateTicketSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, async (ctx) => {
    await deleteTicket(ctx.state.service, deps, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'ticket deleted' };
  });

  return router;
};
