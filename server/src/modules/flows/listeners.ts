import type { JobRegistry } from '../../jobs/scheduler.js';
import type { ModuleContext } from '../app-module.js';

/** How long a ticket's flow log is kept. */
export const FLOW_LOG_DAYS = 30;

/**
 * A transition let go of a flow's conversation (a person took the ticket, it moved to a queue, it was
 * closed: tickets/holds.ts, transitions): its run is marked as handed over, so the log never shows a run
 * waiting for an answer that will never be its.
 */
export const registerFlowListeners = (ctx: ModuleContext): void => {
  ctx.events.on('ticket.changed', async ({ companyId, ticket }) => {
    if (ticket.status === 'pending' && ticket.queueId === null && ticket.userId === null) return;
    await ctx
      .systemEm()
      .execute(
        `update flow_runs r set status = 'handed', ended_at = now()
          where r.company_id = ? and r.ticket_id = ? and r.status in ('running', 'waiting')
            and not exists (select 1 from conversation_holds h where h.ticket_id = r.ticket_id and h.holder = 'flow')`,
        [companyId, ticket.id],
      )
      .catch((err: unknown) => ctx.logger.warn({ err, ticketId: ticket.id }, 'flow: a run could not be closed'));
  });
};

/** Flow logs older than FLOW_LOG_DAYS go, daily (a busy flow writes a line per node per message). */
export const registerFlowJobs = (registry: JobRegistry, ctx: ModuleContext): void => {
  registry.define({
    name: 'flows:prune-logs',
    every: '1 day',
    concurrency: 1,
    handler: async () => {
      await ctx.systemEm().execute(`delete from flow_steps where created_at < now() - make_interval(days => ?)`, [FLOW_LOG_DAYS]);
    },
  });
};
