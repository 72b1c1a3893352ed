import type { AppModule } from '../module.js';
import './outbox.events.js';
import { OutboundMessageSchema } from './outbound-message.entity.js';
import { registerOutboxJobs } from './outbox.sender.js';

/** The outbox module's contribution to the app (see modules/module.ts). */
export const outboxModule: AppModule = {
  name: 'outbox',
  entities: [OutboundMessageSchema],
  jobs: (registry, ctx) => registerOutboxJobs(registry, ctx.outbox),
  listeners: (ctx) => {
    // A connection's sender wakes when a message is queued for it and when it connects.
    ctx.events.on('outbox.queued', ({ whatsappId }) => ctx.outbox.kick(whatsappId));
    ctx.events.on('connection.session', ({ session }) => {
      if (session.status === 'CONNECTED') ctx.outbox.kick(session.id);
    });
  },
};

// What other modules may use of this one (they import it only from here).
export { cancelQueued, failAfterSend, markEchoed, queueOnTicket, requeueFailed } from './outbox.js';
export type { QueueOptions } from './outbox.js';
