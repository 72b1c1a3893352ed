import type { AppModule } from '../app-module.js';
import { QueueOptionSchema } from './queue-option.entity.js';
import { queueOptionsRoutes } from './queue-options.routes.js';

/** The queue-options module's contribution to the app (see modules/app-module.ts). */
export const queueOptionsModule: AppModule = {
  name: 'queue-options',
  entities: [QueueOptionSchema],
  routes: (deps) => [queueOptionsRoutes(deps)],
};
