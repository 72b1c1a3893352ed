import type { EntityManager } from '@mikro-orm/postgresql';
import { forCompany } from '../../db/tenant.js';
import type { EventBus } from '../../events/bus.js';
import type { Logger } from '../../logger.js';
import type { InboundFacts, InboundStep } from '../../pipeline/steps/step.js';
import type { StepTasks } from '../../pipeline/steps/tasks.js';
import { withConversation } from '../tickets/index.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { latestInboundFacts, takeConversation } from './handoff.js';
import { automationTargets, type AutomationTarget } from './targets.js';

export interface AutomationStepDeps {
  systemEm: () => EntityManager;
  logger: Logger;
  /** The pipeline's deferred work (set once the app is composed). */
  tasks: () => StepTasks | undefined;
}

/**
 * The inbound step of an integration or a prompt: it claims, at once, each customer message of a ticket
 * it answers (automationTargets), takes the conversation and defers the external call (`work`, after
 * commit, in order per ticket). The data handed to `work` names the target, which `work` checks again
 * against the hold before it acts: a person may have taken the ticket meanwhile.
 */
export const automationStep = (
  deps: AutomationStepDeps,
  spec: {
    name: string;
    kind: AutomationTarget['kind'];
    work: (facts: InboundFacts, target: AutomationTarget, data: Record<string, unknown>) => Promise<void>;
    resume?: InboundStep['resume'];
  },
): InboundStep => {
  const step: InboundStep = {
    name: spec.name,
    candidates: async (batch) => {
      const customers = batch.filter((f) => !f.fromMe && !f.isGroup && !f.ratingReply);
      const wanted: InboundFacts[] = [];
      for (const companyId of new Set(customers.map((f) => f.companyId))) {
        const facts = customers.filter((f) => f.companyId === companyId);
        const targets = await automationTargets(forCompany(deps.systemEm(), companyId), [...new Set(facts.map((f) => f.ticketId))]);
        wanted.push(...facts.filter((f) => targets.get(f.ticketId)?.kind === spec.kind));
      }
      return wanted;
    },
    run: (facts) => claim(deps, step, spec.kind, facts),
    work: async (facts, data) => {
      const target = data.target as AutomationTarget | undefined;
      if (target) await spec.work(facts, target, data);
    },
    resume: spec.resume,
  };
  return step;
};

/** Takes the conversation and defers the call, under the ticket's lock; false when the target changed. */
const claim = async (deps: AutomationStepDeps, step: InboundStep, kind: AutomationTarget['kind'], facts: InboundFacts): Promise<boolean> => {
  const tasks = deps.tasks();
  if (!tasks) return false;
  const claimed = await withConversation(forCompany(deps.systemEm(), facts.companyId), facts.ticketId, async (tx, ticket, hold) => {
    const target = (await automationTargets(tx, [ticket.id])).get(ticket.id);
    if (target?.kind !== kind) return false;
    await takeConversation(tx, ticket, hold, target);
    await tx.flush();
    await tasks.defer(tx, step, facts, { target });
    return true;
  });
  return claimed ?? false;
};

/**
 * A queue's automation also answers the message that brought the ticket into the queue: the chatbot chose
 * the queue with it, after this step had let it pass (the ticket had no queue then). So when the chatbot
 * moves a ticket into a queue this step answers in, the ticket's latest customer message is claimed.
 */
export const answerOnQueueChoice = (events: EventBus, deps: AutomationStepDeps, step: () => InboundStep, kind: AutomationTarget['kind']) => {
  events.on('ticket.changed', async ({ companyId, ticket, previous, actor }) => {
    if (actor?.kind !== 'chatbot' || !previous || previous.queueId === ticket.queueId || ticket.queueId === null) return;
    if (ticket.userId !== null || ticket.status === 'closed') return;
    const em = forCompany(deps.systemEm(), companyId);
    const target = (await automationTargets(em, [ticket.id])).get(ticket.id);
    if (target?.kind !== kind) return;
    const row = await em.findOne(Ticket, ticket.id);
    const facts = row && (await latestInboundFacts(em, row));
    if (facts) await step().run(facts);
  });
};
