import { forCompany } from '../../db/tenant.js';
import { handleRatingReply } from '../../modules/transitions/index.js';
import { Ticket } from '../../modules/tickets/ticket.entity.js';
import type { PipelineDeps } from '../inbound.js';
import type { InboundStep } from './step.js';

/** The customer's answer to a rating request (stored on the closed ticket that asked): rated, asked again, or dropped. */
export const ratingReplyStep = (deps: PipelineDeps): InboundStep => ({
  name: 'rating reply',
  candidates: (batch) => batch.filter((f) => f.ratingReply && !f.fromMe),
  run: async (facts) => {
    const em = forCompany(deps.systemEm(), facts.companyId);
    const ticket = await em.findOne(Ticket, facts.ticketId);
    if (ticket) await handleRatingReply(deps, em, ticket, facts.body);
    return true;
  },
});
