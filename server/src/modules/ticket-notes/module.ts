import type { AppModule } from '../app-module.js';
import { TicketNoteSchema } from './ticket-note.entity.js';
import { ticketNotesRoutes } from './ticket-notes.routes.js';

/** The ticket-notes module's contribution to the app (see modules/app-module.ts). */
export const ticketNotesModule: AppModule = {
  name: 'ticket-notes',
  entities: [TicketNoteSchema],
  routes: (deps) => [ticketNotesRoutes(deps)],
};
