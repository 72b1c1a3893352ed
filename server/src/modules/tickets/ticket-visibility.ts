import { intArray } from '../../db/sql.js';
import type { Viewer } from './ticket-access.js';

/** A piece of a hand-written `where` over `tickets t`, with its parameters in order. */
export interface TicketClause {
  sql: string;
  params: unknown[];
}

const queueLess = (viewer: Viewer) => (viewer.allTicket ? 'or t.queue_id is null' : '');

/** Every ticket an agent may see (the SQL twin of canViewTicket for non-admins): their own, their queues', queue-less ones with allTicket. */
export const agentVisibleClause = (viewer: Viewer): TicketClause => ({
  sql: `(t.user_id = ? or t.queue_id = any(?::int[]) ${queueLess(viewer)})`,
  params: [viewer.actor.userId, intArray(viewer.queueIds)],
});

/**
 * What a ticket list shows without a search (spec 03 section 1): with showAll an admin sees every ticket
 * of the company (null: no clause); otherwise an admin sees their own and the waiting ones, an agent their
 * own and the waiting ones of their queues (queue-less ones too with allTicket). showAll means nothing
 * from an agent.
 */
export const defaultListClause = (viewer: Viewer, showAll: boolean): TicketClause | null => {
  const me = viewer.actor.userId;
  if (viewer.isAdmin && showAll) return null;
  if (viewer.isAdmin) return { sql: `(t.user_id = ? or t.status = 'pending')`, params: [me] };
  return {
    sql: `(t.user_id = ? or (t.status = 'pending' and (t.queue_id = any(?::int[]) ${queueLess(viewer)})))`,
    params: [me, intArray(viewer.queueIds)],
  };
};

/**
 * The queues a caller asked for (an agent's limited to their own): tickets of those queues, queue-less
 * ones and the caller's own. Null when none were asked for.
 */
export const queueFilterClause = (viewer: Viewer, asked: number[] | undefined): TicketClause | null => {
  const effective = viewer.isAdmin ? asked : (asked ?? viewer.queueIds).filter((q) => viewer.queueIds.includes(q));
  if (effective === undefined) return null;
  return { sql: '(t.queue_id = any(?::int[]) or t.queue_id is null or t.user_id = ?)', params: [intArray(effective), viewer.actor.userId] };
};
