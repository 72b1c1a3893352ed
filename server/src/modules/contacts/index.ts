import type { AppModule } from '../module.js';
import './contacts.events.js';
import { registerContactsRealtime } from './contacts.realtime.js';
import { ContactCustomFieldSchema, ContactSchema } from './contact.entity.js';
import { contactsRoutes } from './contacts.routes.js';

/** The contacts module's contribution to the app (see modules/module.ts). */
export const contactsModule: AppModule = {
  name: 'contacts',
  entities: [ContactSchema, ContactCustomFieldSchema],
  routes: (deps) => [contactsRoutes(deps)],
  realtime: registerContactsRealtime,
};

// What other modules may use of this one (they import it only from here).
export { digitsOnly, isPlaceholderName, upsertChannelContact } from './contact-identity.js';
export { presentContact } from './contact.presenter.js';
