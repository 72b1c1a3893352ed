import type { AppModule } from '../app-module.js';
import './connections.events.js';
import { createMailer } from '../../mail/mailer.js';
import { registerConnectionJobs } from './connections.down-watch.js';
import { registerKeyRetentionJob } from './connections.key-retention.js';
import { registerConnectionsRealtime } from './connections.realtime.js';
import { connectionsRoutes } from './connections.routes.js';
import { ChannelAuthKeySchema, ConnectionLeaseSchema, WhatsappQueueSchema, WhatsappSchema } from './whatsapp.entity.js';

/** The connections module's contribution to the app (see modules/app-module.ts). */
export const connectionsModule: AppModule = {
  name: 'connections',
  entities: [WhatsappSchema, WhatsappQueueSchema, ChannelAuthKeySchema, ConnectionLeaseSchema],
  routes: (deps) => [connectionsRoutes(deps)],
  realtime: registerConnectionsRealtime,
  jobs: (registry, ctx) => {
    registerConnectionJobs(
      registry,
      { systemEm: ctx.systemEm, events: ctx.events, logger: ctx.logger, mailer: createMailer(ctx.config.mail) },
      ctx.config.connectionDownAlertMinutes,
    );
    registerKeyRetentionJob(registry, ctx.systemEm, ctx.logger, ctx.config.signalKeyIdleDays);
  },
};
