import type { AppModule } from '../app-module.js';
import './outbox.events.js';
import { OutboundMessageSchema } from './outbound-message.entity.js';
import { OutboxPacingSchema, OutboxPacingStateSchema } from './outbox-pacing.entity.js';
import { announceQueued } from './outbox.js';
import { registerOutboxJobs } from './outbox.sender.js';

/** The outbox module's contribution to the app (see modules/app-module.ts). */
export const outboxModule: AppModule = {
  name: 'outbox',
  entities: [OutboundMessageSchema, OutboxPacingSchema, OutboxPacingStateSchema],
  jobs: (registry, ctx) => registerOutboxJobs(registry, ctx.outbox),
  listeners: (ctx) => {
    // A connection's sender wakes when a message is queued for it (in the process that runs its session,
    // whichever process queued it) and when it connects.
    ctx.events.on('outbox.queued', ({ whatsappId }) => ctx.channels.wakeOwner(whatsappId, () => ctx.outbox.kick(whatsappId)));
    ctx.events.on('outbox.queuedOnTicket', (queued) => announceQueued(ctx, queued));
    ctx.channels.onWake((whatsappId) => ctx.outbox.kick(whatsappId));
    ctx.events.on('connection.session', ({ session }) => {
      if (session.status === 'CONNECTED') ctx.outbox.kick(session.id);
    });
  },
};
