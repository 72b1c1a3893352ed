import type { AppModule } from '../app-module.js';
import { registerChatbotJobs } from './sweeps.js';

/** The chatbot module's contribution to the app (see modules/app-module.ts). */
export const chatbotModule: AppModule = {
  name: 'chatbot',
  jobs: (registry, ctx) => registerChatbotJobs(registry, ctx.pipeline),
};
