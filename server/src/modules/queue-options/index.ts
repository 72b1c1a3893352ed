import type { AppModule } from '../module.js';
import { QueueOptionSchema } from './queue-option.entity.js';
import { queueOptionsRoutes } from './queue-options.routes.js';

/** The queue-options module's contribution to the app (see modules/module.ts). */
export const queueOptionsModule: AppModule = {
  name: 'queue-options',
  entities: [QueueOptionSchema],
  routes: (deps) => [queueOptionsRoutes(deps)],
};

// What other modules may use of this one (they import it only from here).
export { optionsAt } from './queue-options.service.js';
