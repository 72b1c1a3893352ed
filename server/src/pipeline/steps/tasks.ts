import type { EntityManager } from '@mikro-orm/postgresql';
import { requireTenant } from '../../db/tenant.js';
import { afterCommit } from '../../events/after-commit.js';
import type { JobRegistry } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';
import type { InboundFacts, InboundStep } from './step.js';

/**
 * The slow half of inbound steps. An AI prompt, Typebot, Dialogflow or a webhook takes seconds to answer;
 * done inside the connection's inbound stage, one such call would hold every chat of that connection. So
 * a step claims its message at once and defers the call: `defer` writes a task in the claiming
 * transaction, and after commit a worker runs the step's `work(facts, data)`, which sends its answer
 * through the outbox. Tasks of one ticket run one at a time in the order deferred (an answer never
 * overtakes the one before); tasks of different tickets run side by side, up to `concurrency` per
 * process, in whichever process claims them (the claim skips rows another worker holds). A task a crash
 * left running is taken up again after STALE_TASK_MS; a failing one is retried with a backoff, then kept
 * as failed with its error.
 */
export const STEP_TASK_BACKOFF_MS = [5_000, 30_000, 120_000] as const;
/** A running task older than this belonged to a process that died (external calls time out well before). */
export const STALE_TASK_MS = 5 * 60_000;

interface TaskRow {
  id: number;
  company_id: number;
  ticket_id: number;
  step: string;
  facts: InboundFacts;
  data: Record<string, unknown>;
  attempts: number;
}

export class StepTasks {
  private active = 0;
  private again = false;
  private stopped = false;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      systemEm: () => EntityManager;
      logger: Logger;
      steps: () => InboundStep[];
      concurrency?: number;
      /** Waits after failed attempt 1, 2, ... (tests shorten them). */
      backoffMs?: readonly number[];
    },
  ) {}

  /**
   * The step's slow work for this message, run after the caller's transaction commits (`em` is bound to
   * the company; inside the claiming transaction, the task exists exactly when the claim does).
   */
  async defer(em: EntityManager, step: InboundStep, facts: InboundFacts, data: Record<string, unknown> = {}): Promise<void> {
    if (!step.work) throw new Error(`inbound step "${step.name}" has no work to defer`);
    await em.execute(`insert into step_tasks (company_id, ticket_id, step, facts, data, status, attempts, run_after, created_at)
      values (?, ?, ?, ?, ?, 'pending', 0, now(), now())`, [requireTenant(em), facts.ticketId, step.name, JSON.stringify(facts), JSON.stringify(data)]);
    afterCommit(() => this.kick());
  }

  /** Starts workers (up to the concurrency) while there may be due tasks. */
  kick(): void {
    if (this.stopped) return;
    const limit = this.deps.concurrency ?? 8;
    if (this.active >= limit) {
      this.again = true;
      return;
    }
    this.active += 1;
    const worker = this.work().finally(() => {
      this.active -= 1;
      this.running.delete(worker);
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      }
    });
    this.running.add(worker);
  }

  /** Tasks a dead process left running go back in line; every due task is looked for (start, sweep). */
  async sweep(): Promise<void> {
    await this.deps
      .systemEm()
      .execute(`update step_tasks set status = 'pending', run_after = now() where status = 'running' and started_at < now() - make_interval(secs => ?)`, [
        STALE_TASK_MS / 1000,
      ]);
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.running]);
  }

  private async work(): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return;
        const task = await this.claim();
        if (!task) return;
        // Another worker may start on the next ticket's task while this one runs.
        if (this.active < (this.deps.concurrency ?? 8)) this.kick();
        await this.run(task);
      }
    } catch (err) {
      this.deps.logger.error({ err }, 'step tasks: claiming failed');
    }
  }

  /** The oldest due task whose ticket has no earlier task waiting or running (skipping rows others hold). */
  private async claim(): Promise<TaskRow | undefined> {
    const [row] = await this.deps.systemEm().execute<TaskRow[]>(
      `update step_tasks t set status = 'running', attempts = t.attempts + 1, started_at = now()
        where t.id = (
          select c.id from step_tasks c
           where c.status = 'pending' and c.run_after <= now()
             and not exists (select 1 from step_tasks e where e.ticket_id = c.ticket_id and e.id < c.id and e.status in ('pending', 'running'))
           order by c.run_after, c.id limit 1 for update skip locked)
        returning t.id, t.company_id, t.ticket_id, t.step, t.facts, t.data, t.attempts`,
    );
    return row;
  }

  private async run(task: TaskRow): Promise<void> {
    const step = this.deps.steps().find((s) => s.name === task.step);
    const em = this.deps.systemEm();
    try {
      if (!step?.work) throw new Error(`no inbound step "${task.step}" with work here`);
      await step.work(task.facts, task.data);
      await em.execute(`delete from step_tasks where id = ?`, [task.id]);
    } catch (err) {
      const backoff = this.deps.backoffMs ?? STEP_TASK_BACKOFF_MS;
      const failed = task.attempts > backoff.length;
      this.deps.logger.warn({ err, step: task.step, ticketId: task.ticket_id, attempt: task.attempts, failed }, 'step task failed');
      const message = String((err as Error)?.message ?? err).slice(0, 500);
      if (failed) await em.execute(`update step_tasks set status = 'failed', last_error = ? where id = ?`, [message, task.id]);
      else {
        await em.execute(`update step_tasks set status = 'pending', last_error = ?, run_after = now() + make_interval(secs => ?) where id = ?`, [
          message,
          backoff[task.attempts - 1] / 1000,
          task.id,
        ]);
        const timer = setTimeout(() => this.kick(), backoff[task.attempts - 1] + 10);
        timer.unref();
      }
    }
  }
}

/** The sweep that takes up what no kick reached (a restart, a process that died mid-task). */
export const registerStepTaskJobs = (registry: JobRegistry, tasks: StepTasks): void => {
  registry.define({
    name: 'inbound:step-tasks-sweep',
    every: '30 seconds',
    concurrency: 1,
    handler: () => tasks.sweep(),
  });
};
