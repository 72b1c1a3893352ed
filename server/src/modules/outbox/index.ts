// What other modules may use of this one (they import it only from here; its routes, jobs and
// listeners are in module.ts, which only the app composes). Every message the platform sends is queued
// here and sent by the connection's sender.
export { cancelQueued, failAfterSend, markEchoed, queueOnTicket, queueToNumber, requeueFailed } from './outbox.js';
export type { QueueOptions } from './outbox.js';
export { asVoiceNote, peerOf, renderForTicket, sendMedia, sendText } from './outbound.js';
export type { ConversationDeps, OutboundFile } from './outbound.js';
export { OutboxSender } from './outbox.sender.js';
