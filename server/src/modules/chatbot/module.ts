import { STEP_ORDER } from '../../pipeline/steps/order.js';
import type { AppModule } from '../app-module.js';
import { queueChatbotStep } from './chatbot.js';
import { registerChatbotJobs } from './sweeps.js';

/** The chatbot module's contribution to the app (see modules/app-module.ts). */
export const chatbotModule: AppModule = {
  name: 'chatbot',
  steps: (ctx) => [{ order: STEP_ORDER.chatbot, step: queueChatbotStep(ctx.pipeline) }],
  jobs: (registry, ctx) => registerChatbotJobs(registry, ctx.pipeline),
};
