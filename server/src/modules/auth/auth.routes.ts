import Router from '@koa/router';
import { loginSchema, refreshSchema } from '@atrium/shared';
import { z } from 'zod';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppContext, AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { endOwnSession, listOwnSessions, loadSessionUser, login, logout, refresh } from './auth.service.js';
import { User } from '../users/user.entity.js';

const COOKIE = 'jrt';
const sessionIdSchema = z.string().uuid();

export const authRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/auth' });
  const setCookie = (ctx: AppContext, value: string | null) =>
    ctx.cookies.set(COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      path: '/auth',
      maxAge: value ? deps.config.refreshTokenTtl * 1000 : 0,
      overwrite: true,
    });
  const serviceDeps = () => ({ em: deps.systemEm(), config: deps.config, events: deps.events });

  router.post('/login', async (ctx) => {
    const input = parse(loginSchema, ctx.request.body);
    const result = await login(serviceDeps(), input, { ip: ctx.ip, userAgent: ctx.get('user-agent') });
    setCookie(ctx, result.refreshToken);
    ctx.body = result;
  });

  router.post('/refresh_token', async (ctx) => {
    const input = parse(refreshSchema, ctx.request.body);
    try {
      const result = await refresh(serviceDeps(), input.refreshToken ?? ctx.cookies.get(COOKIE));
      setCookie(ctx, result.refreshToken);
      ctx.body = result;
    } catch (err) {
      setCookie(ctx, null);
      throw err;
    }
  });

  router.delete('/logout', deps.auth, async (ctx) => {
    await logout(serviceDeps(), ctx.state.actor);
    setCookie(ctx, null);
    ctx.body = { message: 'OK' };
  });

  router.get('/sessions', deps.auth, async (ctx) => {
    ctx.body = await listOwnSessions(deps.systemEm(), ctx.state.actor);
  });

  router.delete('/sessions/:id', deps.auth, async (ctx) => {
    const id = parse(sessionIdSchema, ctx.params.id);
    await endOwnSession(serviceDeps(), ctx.state.actor, id);
    ctx.status = 204;
  });

  router.get('/me', deps.auth, async (ctx) => {
    const user = await ctx.state.em.findOneOrFail(User, ctx.state.actor.userId);
    ctx.body = await loadSessionUser(ctx.state.em, user);
  });

  return router;
};
