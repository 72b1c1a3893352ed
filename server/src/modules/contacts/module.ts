import type { AppModule } from '../app-module.js';
import './contacts.events.js';
import { registerContactsRealtime } from './contacts.realtime.js';
import { ContactCustomFieldSchema, ContactSchema } from './contact.entity.js';
import { contactsRoutes } from './contacts.routes.js';

/** The contacts module's contribution to the app (see modules/app-module.ts). */
export const contactsModule: AppModule = {
  name: 'contacts',
  entities: [ContactSchema, ContactCustomFieldSchema],
  routes: (deps) => [contactsRoutes(deps)],
  realtime: registerContactsRealtime,
};
