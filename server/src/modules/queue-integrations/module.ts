import type { AppModule } from '../app-module.js';
import { integrationSteps } from './integration.step.js';
import { QueueIntegrationSchema, WebhookDeliverySchema } from './queue-integration.entity.js';
import './queue-integrations.events.js';
import { registerQueueIntegrationsRealtime } from './queue-integrations.realtime.js';
import { integrationDepsOf, queueIntegrationsRoutes } from './queue-integrations.routes.js';

/** The queue-integrations module's contribution to the app (see modules/app-module.ts). */
export const queueIntegrationsModule: AppModule = {
  name: 'queue-integrations',
  entities: [QueueIntegrationSchema, WebhookDeliverySchema],
  routes: (deps) => [queueIntegrationsRoutes(deps)],
  realtime: registerQueueIntegrationsRealtime,
  steps: (ctx) => integrationSteps(ctx, integrationDepsOf(ctx.config)),
};
