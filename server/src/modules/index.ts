import type { AppModule } from './app-module.js';
import { authModule } from './auth/module.js';
import { companiesModule } from './companies/module.js';
import { plansModule } from './plans/module.js';
import { usersModule } from './users/module.js';
import { settingsModule } from './settings/module.js';
import { helpsModule } from './helps/module.js';
import { connectionsModule } from './connections/module.js';
import { contactsModule } from './contacts/module.js';
import { ticketsModule } from './tickets/module.js';
import { messagesModule } from './messages/module.js';
import { queuesModule } from './queues/module.js';
import { tagsModule } from './tags/module.js';
import { kanbanModule } from './kanban/module.js';
import { ticketNotesModule } from './ticket-notes/module.js';
import { quickMessagesModule } from './quick-messages/module.js';
import { queueOptionsModule } from './queue-options/module.js';
import { billingModule } from './billing/module.js';
import { schedulesModule } from './schedules/module.js';
import { announcementsModule } from './announcements/module.js';
import { dashboardModule } from './dashboard/module.js';
import { chatbotModule } from './chatbot/module.js';
import { outboxModule } from './outbox/module.js';
import { filesModule } from './files/module.js';
import { chatsModule } from './chats/module.js';
import { messagesApiModule } from './messages-api/module.js';
import { promptsModule } from './prompts/module.js';
import { queueIntegrationsModule } from './queue-integrations/module.js';
import { flowsModule } from './flows/module.js';
import { contactListsModule } from './contact-lists/module.js';
import { campaignsModule } from './campaigns/module.js';

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
  messagesApiModule,
  promptsModule,
  queueIntegrationsModule,
  flowsModule,
  contactListsModule,
  campaignsModule,
];

export type { AppModule, ModuleContext } from './app-module.js';
