import type { AppModule } from '../app-module.js';
import './connections.events.js';
import { registerConnectionsRealtime } from './connections.realtime.js';
import { connectionsRoutes } from './connections.routes.js';
import { ChannelAuthKeySchema, ConnectionLeaseSchema, WhatsappQueueSchema, WhatsappSchema } from './whatsapp.entity.js';

/** The connections module's contribution to the app (see modules/app-module.ts). */
export const connectionsModule: AppModule = {
  name: 'connections',
  entities: [WhatsappSchema, WhatsappQueueSchema, ChannelAuthKeySchema, ConnectionLeaseSchema],
  routes: (deps) => [connectionsRoutes(deps)],
  realtime: registerConnectionsRealtime,
};
