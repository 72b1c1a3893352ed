import type { AppModule } from '../app-module.js';
import './announcements.events.js';
import { registerAnnouncementsRealtime } from './announcements.realtime.js';
import { AnnouncementSchema } from './announcement.entity.js';
import { announcementsRoutes } from './announcements.routes.js';

/** The announcements module's contribution to the app (see modules/app-module.ts). */
export const announcementsModule: AppModule = {
  name: 'announcements',
  entities: [AnnouncementSchema],
  routes: (deps) => [announcementsRoutes(deps)],
  realtime: registerAnnouncementsRealtime,
};
