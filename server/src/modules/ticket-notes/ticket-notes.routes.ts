import Router from '@koa/router';
import { createTicketNoteSchema, idParamSchema, listTicketNotesQuerySchema } from '@atrium/shared';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { createTicketNote, deleteTicketNote, listTicketNotes } from './ticket-notes.service.js';

export const ticketNotesRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/ticket-notes' });

  router.get('/list', deps.auth, async (ctx) => {
    ctx.body = await listTicketNotes(ctx.state.service, parse(listTicketNotesQuerySchema, ctx.query));
  });
  router.post('/', deps.auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createTicketNote(ctx.state.service, parse(createTicketNoteSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, async (ctx) => {
    await deleteTicketNote(ctx.state.service, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Note deleted' };
  });

  return router;
};
