// What other modules may use of this one (they import it only from here; its routes, jobs and
// listeners are in module.ts, which only the app composes). Ticket changes are the transitions module's.
export { actorColumns, byUser, CHATBOT, SYSTEM, type TicketActor } from './actor.js';
export { applyHoldInput, findHold, holdConversation, holdIfFree, holdView, idleHold, releaseHold, releaseHoldOf, withConversation } from './holds.js';
export { followLastMessage } from './last-message.js';
export { canActOnTicket, findActionableTicket, findVisibleTicket, loadViewer, type Viewer } from './ticket-access.js';
export { findActiveTicket } from './ticket-lookup.js';
export { markTicketRead } from './ticket-read.js';
export { agentVisibleClause, defaultListClause, queueFilterClause, type TicketClause } from './ticket-visibility.js';
export { placementOf, presentTicket, presentTickets, ticketView } from './ticket.presenter.js';
export { ticketRoomPolicy } from './room-policy.js';
