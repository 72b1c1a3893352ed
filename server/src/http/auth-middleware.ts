import type { EntityManager } from '@mikro-orm/postgresql';
import type Koa from 'koa';
import { requireAdmin, requireSuper, type Actor } from '../context.js';
import { forCompany } from '../db/tenant.js';
import type { EventBus } from '../events/bus.js';
import type { AppState } from './types.js';

export const bearerToken = (header: string | undefined): string | undefined => {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
};

/**
 * Authenticates the request and binds its entity manager to the user's company. Every route not public
 * by the spec goes through here. `authenticate` is the auth module's (given by the app, so this layer
 * does not import a module).
 */
export const authMiddleware =
  (deps: { systemEm: () => EntityManager; events: EventBus; authenticate: (token: string | undefined) => Promise<Actor> }): Koa.Middleware<AppState> =>
  async (ctx, next) => {
    const actor = await deps.authenticate(bearerToken(ctx.get('authorization')));
    const em = forCompany(deps.systemEm(), actor.companyId);
    ctx.state.actor = actor;
    ctx.state.em = em;
    ctx.state.service = { em, actor, events: deps.events };
    await next();
  };

export const adminOnly: Koa.Middleware<AppState> = async (ctx, next) => {
  requireAdmin(ctx.state.actor);
  await next();
};

export const superOnly: Koa.Middleware<AppState> = async (ctx, next) => {
  requireSuper(ctx.state.actor);
  await next();
};
