import type { EntityManager } from '@mikro-orm/postgresql';
import { intArray } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';

/**
 * Who of the external automation answers a ticket's customer: its queue's integration or prompt, or, for a
 * ticket without a queue, its connection's (spec 04 sections 9 and 10). Never for groups, closed tickets
 * or tickets a person has (a user); never once the automation handed the conversation to a person in
 * that queue (until the ticket moves to another queue or closes); never for a feature the company's
 * plan switches off. An integration and a prompt on one queue: the integration answers. A flowbuilder
 * integration is the flow engine's, not ours.
 */
export interface AutomationTarget {
  kind: 'integration' | 'prompt';
  id: number;
}

/** What the hold of an integration or prompt keeps for the whole conversation. */
export interface AutomationMemory {
  /** The queue the automation was answering in (null: the connection's, without a queue). */
  scopeQueueId?: number | null;
}

interface Row {
  id: number;
  queue_id: number | null;
  scope_integration_id: number | null;
  scope_prompt_id: number | null;
  holder: string | null;
  holder_id: number | null;
  active: boolean | null;
  memory: AutomationMemory | null;
  use_integrations: boolean;
  use_open_ai: boolean;
}

/** The answering automation of each ticket that has one. `em` is bound to the company. */
export const automationTargets = async (em: EntityManager, ticketIds: number[]): Promise<Map<number, AutomationTarget>> => {
  if (ticketIds.length === 0) return new Map();
  const rows = await em.execute<Row[]>(
    `select t.id, t.queue_id,
            case when t.queue_id is null then w.integration_id else q.integration_id end as scope_integration_id,
            case when t.queue_id is null then w.prompt_id else q.prompt_id end as scope_prompt_id,
            h.holder, h.holder_id, h.active, h.memory, p.use_integrations, p.use_open_ai
       from tickets t
       join whatsapps w on w.id = t.whatsapp_id
       join companies c on c.id = t.company_id
       join plans p on p.id = c.plan_id
       left join queues q on q.id = t.queue_id
       left join conversation_holds h on h.ticket_id = t.id
      where t.id = any(?::int[]) and t.company_id = ? and t.user_id is null and t.status <> 'closed' and not t.is_group`,
    [intArray(ticketIds), requireTenant(em)],
  );
  const integrationIds = [...new Set(rows.flatMap((r) => [r.scope_integration_id, r.holder === 'integration' ? r.holder_id : null]))].filter(
    (id): id is number => id !== null,
  );
  const promptIds = [...new Set(rows.flatMap((r) => [r.scope_prompt_id, r.holder === 'prompt' ? r.holder_id : null]))].filter(
    (id): id is number => id !== null,
  );
  // Only integrations and prompts that exist (a deleted one answers nobody), and no flowbuilder.
  const integrations = new Set(
    integrationIds.length === 0
      ? []
      : (
          await em.execute<{ id: number }[]>(`select id from queue_integrations where id = any(?::int[]) and company_id = ? and type <> 'flowbuilder'`, [
            intArray(integrationIds),
            requireTenant(em),
          ])
        ).map((r) => r.id),
  );
  const prompts = new Set(
    promptIds.length === 0
      ? []
      : (await em.execute<{ id: number }[]>(`select id from prompts where id = any(?::int[]) and company_id = ?`, [intArray(promptIds), requireTenant(em)])).map(
          (r) => r.id,
        ),
  );
  const allowed = (row: Row, target: AutomationTarget | null): AutomationTarget | null => {
    if (!target) return null;
    if (target.kind === 'integration') return row.use_integrations && integrations.has(target.id) ? target : null;
    return row.use_open_ai && prompts.has(target.id) ? target : null;
  };
  const targets = new Map<number, AutomationTarget>();
  for (const row of rows) {
    const ours = row.holder === 'integration' || row.holder === 'prompt';
    const inScope = ours && (row.memory?.scopeQueueId === undefined || row.memory.scopeQueueId === row.queue_id);
    let target: AutomationTarget | null;
    if (ours && inScope && row.holder_id !== null) {
      // Still answering here, or handed to a person here (then nobody answers).
      target = row.active ? allowed(row, { kind: row.holder as AutomationTarget['kind'], id: row.holder_id }) : null;
    } else {
      target =
        allowed(row, row.scope_integration_id !== null ? { kind: 'integration', id: row.scope_integration_id } : null) ??
        allowed(row, row.scope_prompt_id !== null ? { kind: 'prompt', id: row.scope_prompt_id } : null);
    }
    if (target) targets.set(row.id, target);
  }
  return targets;
};
