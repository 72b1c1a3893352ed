import type Router from '@koa/router';
import type { EntitySchema } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChannelManager } from '../channels/manager.js';
import type { Config } from '../config.js';
import type { EventBus } from '../events/bus.js';
import type { RouteDeps } from '../http/route-deps.js';
import type { AppState } from '../http/types.js';
import type { JobRegistry, Scheduler } from '../jobs/scheduler.js';
import type { Logger } from '../logger.js';
import type { MediaStore } from '../media/storage.js';
import type { PipelineDeps } from '../pipeline/inbound.js';
import type { OrderedStep } from '../pipeline/steps/index.js';
import type { Realtime } from '../realtime/server.js';
import type { OutboxSender } from './outbox/index.js';

/** What a module's jobs and listeners may use: the app's long-lived parts. */
export interface ModuleContext {
  config: Config;
  logger: Logger;
  events: EventBus;
  systemEm: () => EntityManager;
  media: MediaStore;
  channels: ChannelManager;
  pipeline: PipelineDeps;
  outbox: OutboxSender;
}

/**
 * What a domain module contributes to the app. The composition root (app.ts) and the ORM's entity list
 * iterate the modules of modules/index.ts: adding a module is its own folder plus one line there.
 */
export interface AppModule {
  name: string;
  /** Its tables. */
  entities?: EntitySchema<any, any>[];
  /** Its HTTP routes: thin (parse with the shared schema, call the service, shape the answer). */
  routes?: (deps: RouteDeps) => Router<AppState>[];
  /** Its timed jobs, defined before the scheduler starts. */
  jobs?: (registry: JobRegistry, ctx: ModuleContext) => void;
  /**
   * Its inbound automation: steps offered each stored customer message, at their place in the order
   * (pipeline/steps/order.ts). A step claims a message quickly; slow work (an external call) it defers.
   */
  steps?: (ctx: ModuleContext) => OrderedStep[];
  /** What it does when domain events happen. */
  listeners?: (ctx: ModuleContext) => void;
  /** What the clients hear of its domain events, and in which rooms. */
  realtime?: (events: EventBus, realtime: Realtime) => void;
  /** Once the scheduler runs (a job to run at start, ...). */
  started?: (ctx: ModuleContext & { scheduler: Scheduler }) => Promise<void>;
}
