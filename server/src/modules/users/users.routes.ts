import Router from '@koa/router';
import { createUserSchema, idParamSchema, idSchema, languageParamSchema, listQuerySchema, updateUserSchema } from '@atrium/shared';
import { z } from 'zod';
import { adminOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { transitionDeps } from '../transitions/index.js';
import { createUser, deleteUser, getUser, listAllUsers, listUsers, setLanguage, updateUser } from './users.service.js';

const listAllQuery = z.object({ companyId: idSchema.optional() });

export const usersRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/users' });
  const transitions = transitionDeps(deps);

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listUsers(ctx.state.service, parse(listQuerySchema, ctx.query));
  });
  router.get('/list', deps.auth, async (ctx) => {
    const { companyId } = parse(listAllQuery, ctx.query);
    ctx.body = await listAllUsers(ctx.state.service, companyId);
  });
  router.post('/set-language/:lang', deps.auth, async (ctx) => {
    const { lang } = parse(languageParamSchema, ctx.params);
    ctx.body = await setLanguage(ctx.state.service, lang);
  });
  router.get('/:id', deps.auth, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await getUser(ctx.state.service, id);
  });
  router.post('/', deps.auth, adminOnly, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createUser(ctx.state.service, parse(createUserSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateUser(ctx.state.service, id, parse(updateUserSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, adminOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    await deleteUser(ctx.state.service, transitions, id);
    ctx.body = { message: 'User deleted' };
  });

  return router;
};
