import type { AppModule } from '../app-module.js';
import { summaryOnTransfer } from './assist.js';
import { AiUsageSchema, PromptSchema } from './prompt.entity.js';
import { promptSteps } from './prompt.step.js';
import './prompts.events.js';
import { registerPromptsRealtime } from './prompts.realtime.js';
import { promptDepsOf, promptsRoutes } from './prompts.routes.js';

/** The AI prompts module's contribution to the app (see modules/app-module.ts). */
export const promptsModule: AppModule = {
  name: 'prompts',
  entities: [PromptSchema, AiUsageSchema],
  routes: (deps) => [promptsRoutes(deps)],
  realtime: registerPromptsRealtime,
  steps: (ctx) => promptSteps(ctx, promptDepsOf(ctx.config)),
  listeners: (ctx) => summaryOnTransfer(ctx.events, { ...promptDepsOf(ctx.config), systemEm: ctx.systemEm, logger: ctx.logger }),
};
