import type { AppModule } from '../app-module.js';
import './chats.events.js';
import { ChatMessageSchema, ChatSchema, ChatUserSchema } from './chat.entity.js';
import { registerChatsRealtime } from './chats.realtime.js';
import { chatsRoutes } from './chats.routes.js';

/** The internal chat's contribution to the app (see modules/app-module.ts). */
export const chatsModule: AppModule = {
  name: 'chats',
  entities: [ChatSchema, ChatUserSchema, ChatMessageSchema],
  routes: (deps) => [chatsRoutes(deps)],
  realtime: registerChatsRealtime,
};
