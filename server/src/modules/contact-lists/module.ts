import type { AppModule } from '../app-module.js';
import './contact-lists.events.js';
import { ContactListImportSchema, ContactListItemSchema, ContactListSchema } from './contact-list.entity.js';
import { registerContactListJobs } from './contact-lists.jobs.js';
import { registerContactListsRealtime } from './contact-lists.realtime.js';
import { contactListsRoutes } from './contact-lists.routes.js';

/** The contact-lists module's contribution to the app (see modules/app-module.ts). */
export const contactListsModule: AppModule = {
  name: 'contact-lists',
  entities: [ContactListSchema, ContactListItemSchema, ContactListImportSchema],
  routes: (deps) => contactListsRoutes(deps),
  jobs: (registry, ctx) => registerContactListJobs(registry, ctx),
  realtime: registerContactListsRealtime,
};
