import type { Logger } from '../../logger.js';

/** What a step learns of a stored inbound message; it loads anything else it needs itself. */
export interface InboundFacts {
  companyId: number;
  whatsappId: number;
  ticketId: number;
  contactId: number;
  messageId: number;
  body: string;
  mediaType: string;
  /** The channel id of the message this one quotes (answers). */
  quotedWid?: string | null;
  /** The id of the button or list row the customer tapped, when the message is such a reply. */
  replyId?: string | null;
  fromMe: boolean;
  isGroup: boolean;
  isNewTicket: boolean;
  /** Stored on a closed ticket that asked for a rating: the customer's answer to it. */
  ratingReply: boolean;
}

/**
 * One piece of inbound automation (pipeline/steps/, run in the order of the list in steps/index.ts). For a
 * batch of stored messages, a step first says which it may claim — one read for the whole batch, so the
 * common message that no step wants costs little — then handles each of those in order; a message it
 * claims is not offered to the steps after it. A step that has to wait (a flow's pause) schedules a job
 * instead of sleeping, so it never holds up the other chats of the connection.
 */
export interface InboundStep {
  readonly name: string;
  candidates(batch: InboundFacts[]): Promise<InboundFacts[]> | InboundFacts[];
  /** Handles one candidate; true when it claimed the message. */
  run(facts: InboundFacts): Promise<boolean>;
  /** Goes on after a wait the step scheduled (steps/waiting.ts), with the data it saved. */
  resume?(facts: InboundFacts, data: Record<string, unknown>): Promise<void>;
  /**
   * The slow part of handling a claimed message (an external call), deferred by `run` through
   * `StepTasks.defer` (steps/tasks.ts): it runs after commit, outside the connection's inbound stage, in
   * order per ticket. It sends through the outbox; it may run again after a crash, so it checks the
   * conversation's hold before it acts.
   */
  work?(facts: InboundFacts, data: Record<string, unknown>): Promise<void>;
}

/** Runs the steps over a batch, in order; a step's failure is logged and never fails the stored messages. */
export const runSteps = async (steps: InboundStep[], batch: InboundFacts[], logger: Logger): Promise<void> => {
  // A reaction (an emoji on a message) answers no automation, and neither does a placeholder (a message
  // that could not be read): the chatbot would answer it with its menu as if the customer had said nothing.
  let open = batch.filter((f) => f.mediaType !== 'reactionMessage' && f.mediaType !== 'unavailable');
  for (const step of steps) {
    if (open.length === 0) return;
    let wanted: Set<InboundFacts>;
    try {
      wanted = new Set(await step.candidates(open));
    } catch (err) {
      logger.error({ err, step: step.name }, 'inbound step failed');
      continue;
    }
    const claimed = new Set<InboundFacts>();
    for (const facts of open) {
      if (!wanted.has(facts)) continue;
      try {
        if (await step.run(facts)) claimed.add(facts);
      } catch (err) {
        // Claimed all the same: a later step must not answer a message this one half-handled.
        claimed.add(facts);
        logger.error({ err, step: step.name, ticketId: facts.ticketId }, 'inbound step failed');
      }
    }
    open = open.filter((f) => !claimed.has(f));
  }
};
