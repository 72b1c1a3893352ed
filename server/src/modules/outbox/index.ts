// What other modules may use of this one (they import it only from here; its routes, jobs and
// listeners are in module.ts, which only the app composes). Every message the platform sends is queued
// here and sent by the connection's sender.
//
// The outbox's API, for conversations, campaigns and automation:
// - Queue: `sendText`/`sendMedia` (a ticket's conversation, variables filled), `queueOnTicket`,
//   `queueManyOnTicket` (several on one ticket, in one statement each for the copies and the rows),
//   `queueToNumber` (a bare number, no ticket) and `queueBulk` (many numbers: one statement per 2,000
//   rows; what a campaign calls, per chunk of its list, inside its own transaction if it likes). The
//   single sends write the conversation's copy and the outbox row together; queueBulk writes the outbox
//   rows only, and each row's contact and copy in the contact's history as it settles (sent or failed).
//   Nothing leaves before the commit.
// - Priority: 'conversation' (the default of the single sends: an agent's reply, the chatbot, a flow's
//   or an integration's answer, a platform text) always leaves before 'bulk' (the default of queueBulk)
//   on the same connection. Bulk rows of two runs alternate by their place in their run (`seq`).
// - plannedAt: not before this time; a row planned for later holds nothing of its chat meanwhile.
// - Pacing: `pacing: { name, gapMs, longGapEvery, longGapMs, dailyCap, window }` on any queue call
//   creates or updates that named policy of the connection (outbox_pacing) and paces the rows by it. The
//   sender applies it when it takes a row (a gap spread ±30%, a long gap every N sends, a cap per day and
//   a send window in the company's time zone; 0 or no window is off), through one gate per connection:
//   two campaigns on one number take turns, and rows overdue after an outage still go one gap apart.
// - Source: `source: { kind, id }` (agent, system, chatbot, schedule, campaign, flow, integration, api)
//   says who asked; a single send defaults to its agent (userId) or the system.
// - Outcome: each row records status and sent_at / failed_at / delivered_at / read_at, and every outcome
//   (also a late error receipt or a withdrawal) is announced once as `outbox.settled` with the row's id,
//   message, wid and source, whether or not the message has a ticket: a report or a status call reads the
//   table, a listener (a campaign's row) follows the event.
export {
  applyPacing,
  cancelQueued,
  failAfterSend,
  markEchoed,
  newMessageId,
  queueBulk,
  queueManyOnTicket,
  queueOnTicket,
  queueToNumber,
  recordReceipt,
  requeueFailed,
  withdrawQueued,
} from './outbox.js';
export type { BulkInput, BulkQueued, BulkRow, OutboxOutcome, OutboxSource, PacingPolicy, QueueOptions } from './outbox.js';
export type { OutboxPriority, OutboxSourceKind } from './outbound-message.entity.js';
export { asVoiceNote, peerOf, renderForTicket, sendMedia, sendText } from './outbound.js';
export type { ConversationDeps, OutboundFile, SendTextOptions } from './outbound.js';
export { OutboxSender } from './outbox.sender.js';
