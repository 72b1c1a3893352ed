import Router from '@koa/router';
import { kanbanBoardQuerySchema, moveKanbanCardSchema, ticketIdParamsSchema, ticketTagParamsSchema } from '@atrium/shared';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { addTicketTag, getKanbanBoard, moveKanbanCard, removeTicketKanbanTags } from './kanban.service.js';

export const kanbanRoutes = (deps: RouteDeps) => {
  const board = new Router<AppState>({ prefix: '/ticket' });
  board.get('/kanban', deps.auth, async (ctx) => {
    ctx.body = await getKanbanBoard(ctx.state.service, parse(kanbanBoardQuerySchema, ctx.query));
  });
  board.put('/:ticketId/kanban', deps.auth, async (ctx) => {
    const { ticketId } = parse(ticketIdParamsSchema, ctx.params);
    ctx.body = await moveKanbanCard(ctx.state.service, ticketId, parse(moveKanbanCardSchema, ctx.request.body));
  });

  const links = new Router<AppState>({ prefix: '/ticket-tags' });
  links.put('/:ticketId/:tagId', deps.auth, async (ctx) => {
    const { ticketId, tagId } = parse(ticketTagParamsSchema, ctx.params);
    ctx.status = 201;
    ctx.body = await addTicketTag(ctx.state.service, ticketId, tagId);
  });
  links.delete('/:ticketId', deps.auth, async (ctx) => {
    ctx.body = await removeTicketKanbanTags(ctx.state.service, parse(ticketIdParamsSchema, ctx.params).ticketId);
  });

  return [board, links];
};
