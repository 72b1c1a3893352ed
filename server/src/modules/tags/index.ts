import type { AppModule } from '../module.js';
import './tags.events.js';
import { TagSchema, TicketTagSchema } from './tag.entity.js';
import { registerTagsRealtime } from './tags.realtime.js';
import { tagsRoutes } from './tags.routes.js';

/** The tags module's contribution to the app (see modules/module.ts). */
export const tagsModule: AppModule = {
  name: 'tags',
  entities: [TagSchema, TicketTagSchema],
  routes: (deps) => [tagsRoutes(deps)],
  realtime: registerTagsRealtime,
};

// What other modules may use of this one (they import it only from here).
export { kanbanLanes, presentTag } from './tags.service.js';
