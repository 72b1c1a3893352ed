import type { AppModule } from '../app-module.js';
import './tickets.events.js';
import { registerTicketsRealtime } from './tickets.realtime.js';
import { TicketSchema, TicketTrackingSchema, UserRatingSchema } from './ticket.entity.js';
import { ConversationHoldSchema } from './conversation-hold.entity.js';
import { TicketLogSchema } from './ticket-log.entity.js';
import { ticketsRoutes } from './tickets.routes.js';

/** The tickets module's contribution to the app (see modules/app-module.ts). */
export const ticketsModule: AppModule = {
  name: 'tickets',
  entities: [TicketSchema, TicketTrackingSchema, UserRatingSchema, ConversationHoldSchema, TicketLogSchema],
  routes: (deps) => [ticketsRoutes(deps)],
  realtime: registerTicketsRealtime,
};
