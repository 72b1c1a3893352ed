import type { EntityManager } from '@mikro-orm/postgresql';
import type { Profile } from '@atrium/shared';
import type { Config } from './config.js';
import type { EventBus } from './events/bus.js';
import type { Logger } from './logger.js';
import { AppError } from './errors.js';
import { forCompany, forSystem } from './db/tenant.js';

/** Who is acting. Every service call names it explicitly. */
export interface Actor {
  userId: number;
  companyId: number;
  profile: Profile;
  isSuper: boolean;
  sessionId: string;
}

/**
 * What a service needs for one call: an entity manager bound to the actor's company (see db/tenant.ts),
 * the actor, and the event bus for side effects.
 */
export interface ServiceContext {
  em: EntityManager;
  actor: Actor;
  events: EventBus;
}

/** Long-lived dependencies handed to route builders and listeners at start-up. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  events: EventBus;
}

export const isAdmin = (actor: Actor): boolean => actor.profile === 'admin' || actor.isSuper;

export const requireAdmin = (actor: Actor): void => {
  if (!isAdmin(actor)) throw new AppError('ERR_NO_PERMISSION');
};

export const requireSuper = (actor: Actor): void => {
  if (!actor.isSuper) throw new AppError('ERR_NO_SUPER');
};

/**
 * The entity manager for `companyId`: the caller's own, or, for super users only, another company's.
 * This is the one door through which a request reaches a company other than its own.
 */
export const emForCompany = (ctx: ServiceContext, companyId: number): EntityManager => {
  if (companyId === ctx.actor.companyId) return ctx.em;
  requireSuper(ctx.actor);
  return forCompany(ctx.em, companyId);
};

/** Every company at once: super users only. */
export const crossCompanyEm = (ctx: ServiceContext): EntityManager => {
  requireSuper(ctx.actor);
  return forSystem(ctx.em);
};

export const pageOf = <T>(rows: T[], count: number, pageNumber: number, pageSize: number) => ({
  rows,
  count,
  hasMore: count > pageNumber * pageSize,
});
