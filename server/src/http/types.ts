import type { EntityManager } from '@mikro-orm/postgresql';
import type { Router, RouterContext } from '@koa/router';
import type { Actor, ServiceContext } from '../context.js';

/** What the auth middleware puts on every authenticated request. */
export interface AppState {
  actor: Actor;
  /** Bound to the actor's company: see db/tenant.ts. */
  em: EntityManager;
  service: ServiceContext;
}

export type AppContext = RouterContext<AppState>;
export type AppRouter = Router<AppState>;
