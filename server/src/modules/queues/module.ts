import type { AppModule } from '../app-module.js';
import './queues.events.js';
import { registerQueuesRealtime } from './queues.realtime.js';
import { QueueSchema, UserQueueSchema } from './queue.entity.js';
import { queuesRoutes } from './queues.routes.js';

/** The queues module's contribution to the app (see modules/app-module.ts). */
export const queuesModule: AppModule = {
  name: 'queues',
  entities: [QueueSchema, UserQueueSchema],
  routes: (deps) => [queuesRoutes(deps)],
  realtime: registerQueuesRealtime,
};
