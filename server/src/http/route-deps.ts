import type { EntityManager } from '@mikro-orm/postgresql';
import type Koa from 'koa';
import type { Config } from '../config.js';
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import type { Scheduler } from '../jobs/scheduler.js';
import type { ChannelManager } from '../channels/manager.js';
import type { MediaStore } from '../media/storage.js';
import type { Realtime } from '../realtime/server.js';
import type { AppState } from './types.js';

/** What every module's route builder receives. */
export interface RouteDeps {
  config: Config;
  logger: Logger;
  events: EventBus;
  /** A fresh cross-company manager, for public routes (login, signup) only. */
  systemEm: () => EntityManager;
  /** Authenticates and binds the request to the user's company. */
  auth: Koa.Middleware<AppState>;
  /** Stored media files (signed URLs). */
  media: MediaStore;
  /** Live channel sessions. */
  channels: ChannelManager;
  realtime: Realtime;
  /** Timed jobs (Agenda): a module schedules its own jobs by name. */
  scheduler: Scheduler;
}
