import { queueChatbotStep } from '../../modules/chatbot/index.js';
import type { PipelineDeps } from '../inbound.js';
import { ratingReplyStep } from './rating-reply.js';
import type { InboundStep } from './step.js';

export { runSteps, type InboundFacts, type InboundStep } from './step.js';

/**
 * The inbound automation, in the order it runs (DESIGN.md, "The automation spine"): rating reply →
 * flow-campaign phrase → running flow → integration or AI prompt → queue chatbot. A new step is one file
 * and one line here.
 */
export const inboundSteps = (deps: PipelineDeps): InboundStep[] => [ratingReplyStep(deps), queueChatbotStep(deps)];
