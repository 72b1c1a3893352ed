/**
 * Who changes a ticket: a user, the system (a job, a sweep), the chatbot, a flow, an integration, an AI
 * prompt, a campaign or an API token. Every transition takes one (modules/transitions), writes it on the
 * ticket's log (ticket_logs) and carries it on `ticket.changed`, so the conversation can say who did what.
 */
export type TicketActor =
  | { kind: 'user'; userId: number }
  | { kind: 'system' }
  | { kind: 'chatbot' }
  | { kind: 'flow'; flowId: number }
  | { kind: 'integration'; integrationId: number }
  | { kind: 'prompt'; promptId: number }
  | { kind: 'campaign'; campaignId: number }
  | { kind: 'api'; tokenId: number };

export const SYSTEM: TicketActor = { kind: 'system' };
export const CHATBOT: TicketActor = { kind: 'chatbot' };
export const byUser = (userId: number): TicketActor => ({ kind: 'user', userId });

/** The actor as two columns: its kind and the id of the user, flow, integration... it names (none for system and chatbot). */
export const actorColumns = (actor: TicketActor): { actorKind: TicketActor['kind']; actorId: number | null } => {
  switch (actor.kind) {
    case 'user':
      return { actorKind: 'user', actorId: actor.userId };
    case 'flow':
      return { actorKind: 'flow', actorId: actor.flowId };
    case 'integration':
      return { actorKind: 'integration', actorId: actor.integrationId };
    case 'prompt':
      return { actorKind: 'prompt', actorId: actor.promptId };
    case 'campaign':
      return { actorKind: 'campaign', actorId: actor.campaignId };
    case 'api':
      return { actorKind: 'api', actorId: actor.tokenId };
    default:
      return { actorKind: actor.kind, actorId: null };
  }
};
