import type { AppModule } from '../app-module.js';
import { ApiRequestSchema } from './api-request.entity.js';
import { sweepExpired } from './idempotency.js';
import { messagesApiRoutes } from './messages-api.routes.js';

/** The external messages API's contribution to the app (see modules/app-module.ts). */
export const messagesApiModule: AppModule = {
  name: 'messages-api',
  entities: [ApiRequestSchema],
  routes: (deps) => [messagesApiRoutes(deps)],
  jobs: (registry, ctx) => {
    // Idempotency keys (and the requests' records) are kept a day.
    registry.define({
      name: 'messages-api:sweep-requests',
      every: '1 hour',
      concurrency: 1,
      handler: async () => {
        await sweepExpired(ctx.systemEm());
      },
    });
  },
};
