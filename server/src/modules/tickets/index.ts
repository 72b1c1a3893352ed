import type { AppModule } from '../module.js';
import './tickets.events.js';
import { registerTicketsRealtime } from './tickets.realtime.js';
import { TicketSchema, TicketTrackingSchema, UserRatingSchema } from './ticket.entity.js';
import { ConversationHoldSchema } from './conversation-hold.entity.js';
import { ticketsRoutes } from './tickets.routes.js';

/** The tickets module's contribution to the app (see modules/module.ts). */
export const ticketsModule: AppModule = {
  name: 'tickets',
  entities: [TicketSchema, TicketTrackingSchema, UserRatingSchema, ConversationHoldSchema],
  routes: (deps) => [ticketsRoutes(deps)],
  realtime: registerTicketsRealtime,
};

// What other modules may use of this one (they import it only from here).
export { chatbotHold, chatbotState, holdView, stopChatbot } from './holds.js';
export { canActOnTicket, findActionableTicket, findVisibleTicket, loadViewer, type Viewer } from './ticket-access.js';
export { findActiveTicket } from './ticket-lookup.js';
export { findTicketAwaitingRating, handleRatingReply, RATING_TIMEOUT_HOURS } from './ticket-rating.js';
export { agentVisibleClause, defaultListClause, queueFilterClause, type TicketClause } from './ticket-visibility.js';
export { presentTicket, presentTickets, presentTicketsByIds, ticketView } from './ticket.presenter.js';
export { markTicketRead } from './tickets.service.js';
export { announce, byUser, closeTicket, findOrCreateActiveTicket, messageCounters, moveToQueue, placementOf, placeTicket, SYSTEM, transitionDeps } from './transitions.js';
export type { TransitionDeps } from './transitions.js';
