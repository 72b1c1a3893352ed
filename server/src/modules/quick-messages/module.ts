import type { AppModule } from '../app-module.js';
import './quick-messages.events.js';
import { registerQuickMessagesRealtime } from './quick-messages.realtime.js';
import { QuickMessageSchema } from './quick-message.entity.js';
import { quickMessagesRoutes } from './quick-messages.routes.js';

/** The quick-messages module's contribution to the app (see modules/app-module.ts). */
export const quickMessagesModule: AppModule = {
  name: 'quick-messages',
  entities: [QuickMessageSchema],
  routes: (deps) => [quickMessagesRoutes(deps)],
  realtime: registerQuickMessagesRealtime,
};
