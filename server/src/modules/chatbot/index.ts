import type { AppModule } from '../module.js';
import { registerChatbotJobs } from './sweeps.js';

/** The chatbot module's contribution to the app (see modules/module.ts). */
export const chatbotModule: AppModule = {
  name: 'chatbot',
  jobs: (registry, ctx) => registerChatbotJobs(registry, ctx.pipeline),
};

// What other modules may use of this one (they import it only from here).
export { queueChatbotStep } from './chatbot.js';
