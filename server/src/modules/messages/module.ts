import type { AppModule } from '../app-module.js';
import './messages.events.js';
import { registerMessagesRealtime } from './messages.realtime.js';
import { MessageSchema } from './message.entity.js';
import { registerMessageJobs } from './messages.retention.js';
import { messagesRoutes } from './messages.routes.js';

/** The messages module's contribution to the app (see modules/app-module.ts). */
export const messagesModule: AppModule = {
  name: 'messages',
  entities: [MessageSchema],
  routes: (deps) => [messagesRoutes(deps)],
  realtime: registerMessagesRealtime,
  jobs: (registry, ctx) => registerMessageJobs(registry, ctx.systemEm, ctx.media, ctx.logger, ctx.config.rawMessageRetentionDays),
};
