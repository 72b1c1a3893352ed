/**
 * Who changes a ticket: a user, the system (a job, the chatbot's sweeps), a flow, a campaign or an API
 * token. Every transition takes one (transitions/), so a ticket's log can say who did what.
 */
export type TicketActor =
  | { kind: 'user'; userId: number }
  | { kind: 'system' }
  | { kind: 'flow'; flowId: number }
  | { kind: 'campaign'; campaignId: number }
  | { kind: 'api'; tokenId: number };

export const SYSTEM: TicketActor = { kind: 'system' };
export const byUser = (userId: number): TicketActor => ({ kind: 'user', userId });
