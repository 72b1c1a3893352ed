import Router from '@koa/router';
import {
  createTagSchema,
  idParamSchema,
  listAllTagsQuerySchema,
  listQuerySchema,
  reorderKanbanLanesSchema,
  syncTagsSchema,
  updateTagSchema,
} from '@atrium/shared';
import { adminOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import {
  createTag,
  deleteTag,
  getTag,
  listAllTags,
  listKanbanTags,
  listTags,
  reorderKanbanLanes,
  syncTicketTags,
  updateTag,
} from './tags.service.js';

export const tagsRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/tags' });

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listTags(ctx.state.service, parse(listQuerySchema, ctx.query));
  });
  router.get('/list', deps.auth, async (ctx) => {
    const { companyId } = parse(listAllTagsQuerySchema, ctx.query);
    ctx.body = await listAllTags(ctx.state.service, companyId);
  });
  router.get('/kanban', deps.auth, async (ctx) => {
    ctx.body = await listKanbanTags(ctx.state.service);
  });
  router.put('/kanban/order', deps.auth, async (ctx) => {
    ctx.body = await reorderKanbanLanes(ctx.state.service, parse(reorderKanbanLanesSchema, ctx.request.body));
  });
  router.post('/sync', deps.auth, async (ctx) => {
    ctx.body = await syncTicketTags(ctx.state.service, parse(syncTagsSchema, ctx.request.body));
  });
  router.get('/:id', deps.auth, async (ctx) => {
    ctx.body = await getTag(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  router.post('/', deps.auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createTag(ctx.state.service, parse(createTagSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, adminOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateTag(ctx.state.service, id, parse(updateTagSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, async (ctx) => {
    await deleteTag(ctx.state.service, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Tag deleted' };
  });

  return router;
};
