import type { AppModule } from './module.js';
import { authModule } from './auth/index.js';
import { companiesModule } from './companies/index.js';
import { plansModule } from './plans/index.js';
import { usersModule } from './users/index.js';
import { settingsModule } from './settings/index.js';
import { helpsModule } from './helps/index.js';
import { connectionsModule } from './connections/index.js';
import { contactsModule } from './contacts/index.js';
import { ticketsModule } from './tickets/index.js';
import { messagesModule } from './messages/index.js';
import { queuesModule } from './queues/index.js';
import { tagsModule } from './tags/index.js';
import { kanbanModule } from './kanban/index.js';
import { ticketNotesModule } from './ticket-notes/index.js';
import { quickMessagesModule } from './quick-messages/index.js';
import { queueOptionsModule } from './queue-options/index.js';
import { billingModule } from './billing/index.js';
import { schedulesModule } from './schedules/index.js';
import { announcementsModule } from './announcements/index.js';
import { dashboardModule } from './dashboard/index.js';
import { chatbotModule } from './chatbot/index.js';
import { outboxModule } from './outbox/index.js';
import { filesModule } from './files/index.js';
import { chatsModule } from './chats/index.js';

/** Every domain module, in the order their routes are tried. A new module is its folder plus one line here. */
export const modules: AppModule[] = [
  authModule,
  companiesModule,
  plansModule,
  usersModule,
  settingsModule,
  helpsModule,
  connectionsModule,
  contactsModule,
  ticketsModule,
  messagesModule,
  queuesModule,
  tagsModule,
  kanbanModule,
  ticketNotesModule,
  quickMessagesModule,
  queueOptionsModule,
  billingModule,
  schedulesModule,
  announcementsModule,
  dashboardModule,
  chatbotModule,
  outboxModule,
  filesModule,
  chatsModule,
];

export type { AppModule, ModuleContext } from './module.js';
