import { failStaleMedia } from '../../pipeline/inbound.js';
import type { AppModule } from '../module.js';
import './messages.events.js';
import { registerMessagesRealtime } from './messages.realtime.js';
import { MessageSchema } from './message.entity.js';
import { messagesRoutes } from './messages.routes.js';

/** The messages module's contribution to the app (see modules/module.ts). */
export const messagesModule: AppModule = {
  name: 'messages',
  entities: [MessageSchema],
  routes: (deps) => [messagesRoutes(deps)],
  realtime: registerMessagesRealtime,
  jobs: (registry, ctx) => {
    // Connecting sessions take pending media up first (see failStaleMedia).
    const runningSince = new Date();
    registry.define({
      name: 'messages:fail-stale-media',
      every: '5 minutes',
      concurrency: 1,
      handler: async () => {
        await failStaleMedia(ctx.pipeline, new Date(), { runningSince });
      },
    });
  },
};

// What other modules may use of this one (they import it only from here).
export { followLastMessage } from './last-message.js';
export { previewOf, storeMessage } from './message-store.js';
export { messageView, presentMessages } from './message.presenter.js';
export { sendMedia, sendText } from './outbound.js';
export type { ConversationDeps } from './outbound.js';
