import type { AppModule } from '../module.js';
import './queues.events.js';
import { registerQueuesRealtime } from './queues.realtime.js';
import { QueueSchema, UserQueueSchema } from './queue.entity.js';
import { queuesRoutes } from './queues.routes.js';

/** The queues module's contribution to the app (see modules/module.ts). */
export const queuesModule: AppModule = {
  name: 'queues',
  entities: [QueueSchema, UserQueueSchema],
  routes: (deps) => [queuesRoutes(deps)],
  realtime: registerQueuesRealtime,
};

// What other modules may use of this one (they import it only from here).
export { findQueue } from './queues.service.js';
