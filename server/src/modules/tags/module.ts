import type { AppModule } from '../app-module.js';
import './tags.events.js';
import { TagSchema, TicketTagSchema } from './tag.entity.js';
import { registerTagsRealtime } from './tags.realtime.js';
import { tagsRoutes } from './tags.routes.js';

/** The tags module's contribution to the app (see modules/app-module.ts). */
export const tagsModule: AppModule = {
  name: 'tags',
  entities: [TagSchema, TicketTagSchema],
  routes: (deps) => [tagsRoutes(deps)],
  realtime: registerTagsRealtime,
};
