import type { AppModule } from '../app-module.js';
import { kanbanRoutes } from './kanban.routes.js';

/**
 * The kanban board over tickets (spec 02 sections 2, 4 and 7): the board, card moves and ticket-tag links.
 * Its tables are the tags module's; a moved card is announced as the ticket's change (`company-{id}-ticket`
 * to whoever may see the ticket), lanes as tag changes (`company-{id}-tag`).
 */
export const kanbanModule: AppModule = {
  name: 'kanban',
  routes: (deps) => kanbanRoutes(deps),
};
