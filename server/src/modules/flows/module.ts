import { createSealer } from '../../secrets/sealed.js';
import type { AppModule } from '../app-module.js';
import './flows.events.js';
import { FlowConversations } from './conversation.js';
import { FlowCampaignSchema, FlowMediaSchema, FlowRunSchema, FlowSchema, FlowStepSchema, FlowVersionSchema } from './flow.entity.js';
import { registerFlowJobs, registerFlowListeners } from './listeners.js';
import { registerFlowsRealtime } from './flows.realtime.js';
import { flowsRoutes } from './flows.routes.js';
import { flowSteps } from './steps.js';

/** The flow builder's contribution to the app (see modules/app-module.ts). */
export const flowsModule: AppModule = {
  name: 'flows',
  entities: [FlowSchema, FlowVersionSchema, FlowCampaignSchema, FlowMediaSchema, FlowRunSchema, FlowStepSchema],
  routes: (deps) => [flowsRoutes(deps, { media: deps.media, sealer: createSealer(deps.config.integrations.secretKey) })],
  steps: (ctx) =>
    flowSteps(new FlowConversations(ctx.pipeline, { sealer: createSealer(ctx.config.integrations.secretKey), config: ctx.config.integrations }), ctx.systemEm),
  listeners: registerFlowListeners,
  jobs: registerFlowJobs,
  realtime: registerFlowsRealtime,
};
