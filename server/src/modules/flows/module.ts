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
  routes: (deps) => [flowsRoutes(deps, { media: deps.media })],
  steps: (ctx) => flowSteps(new FlowConversations(ctx.pipeline), ctx.systemEm),
  listeners: registerFlowListeners,
  jobs: registerFlowJobs,
  realtime: registerFlowsRealtime,
};
