import type { PipelineDeps } from '../inbound.js';
import { STEP_ORDER } from './order.js';
import { ratingReplyStep } from './rating-reply.js';
import type { InboundStep } from './step.js';

export { runSteps, type InboundFacts, type InboundStep } from './step.js';
export { STEP_ORDER } from './order.js';

/** A step and where it runs (STEP_ORDER). */
export interface OrderedStep {
  order: number;
  step: InboundStep;
}

/**
 * The inbound automation, in the order it runs: the pipeline's own rating reply, then what the modules
 * contribute (AppModule.steps). Two steps of one name would make a resumed wait ambiguous: refused.
 */
export const inboundSteps = (deps: PipelineDeps, contributed: OrderedStep[]): InboundStep[] => {
  const all = [{ order: STEP_ORDER.ratingReply, step: ratingReplyStep(deps) }, ...contributed].sort((a, b) => a.order - b.order);
  const names = all.map((s) => s.step.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Error(`inbound step "${twice}" contributed twice`);
  return all.map((s) => s.step);
};
