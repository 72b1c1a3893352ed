// Ticket transitions (DESIGN.md, "The automation spine"): every change of a ticket's state goes through
// here, whoever acts (an agent, a job, the chatbot, a flow, a campaign, an API token).
export { announce, closeTicket, findOrCreateActiveTicket, moveToQueue, placeTicket, startTicket, transitionDeps, type TransitionDeps } from './transitions.js';
export { findTicketAwaitingRating, handleRatingReply, RATING_TIMEOUT_HOURS } from './ticket-rating.js';
