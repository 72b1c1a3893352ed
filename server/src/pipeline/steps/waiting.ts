import type { EntityManager } from '@mikro-orm/postgresql';
import { forCompany } from '../../db/tenant.js';
import type { JobRegistry } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';
import { findHold } from '../../modules/tickets/index.js';
import type { InboundFacts, InboundStep } from './step.js';

/**
 * A step that has to wait (a flow's "typing" pause, a question's "no reply within N minutes") does not
 * sleep: it schedules its continuation as a job and lets the message go, so the other chats of the
 * connection go on. The job is stored (it survives a restart) and calls the step's `resume` with what it
 * saved. A wait has a handle, so the step can cancel it (the customer answered in time); one that fires
 * anyway (cancelled too late, or never cancelled) with a `holdVersion` is dropped when the conversation's
 * hold has changed since it was planned: a stale resume does nothing.
 */
export const RESUME_STEP_JOB = 'inbound:resume-step';

export interface WaitHandle {
  jobId: string;
}

export interface StepWaits {
  /**
   * Calls `step.resume(facts, data)` at `when`. With `holdVersion`, only if the ticket's hold still has
   * that version then (nothing else advanced the conversation meanwhile).
   */
  resumeAt(when: Date, step: InboundStep, facts: InboundFacts, data: Record<string, unknown>, guard?: { holdVersion: number }): Promise<WaitHandle>;
  /** The wait will not resume (a no-op when it already did). */
  cancel(handle: WaitHandle): Promise<void>;
}

type ResumeJobData = { step: string; facts: InboundFacts; data: Record<string, unknown>; holdVersion?: number; attempt?: number };

/**
 * A resume that fails (a deadlock or a dropped connection under load: its transaction rolled back whole)
 * is planned again a little later, a few times. The job scheduler never runs a failed one-off job again,
 * so without this the conversation would wait forever: a flow paused for a second that never goes on.
 * Resuming twice is harmless: a step applies a resume only while its wait is still the current one.
 */
export const RESUME_RETRIES = 5;
const retryDelayMs = (attempt: number) => Math.min(30_000, 500 * 2 ** (attempt - 1));

/** Whether the ticket's hold is still the one the wait was planned on. */
const stillCurrent = async (em: EntityManager, ticketId: number, holdVersion: number | undefined): Promise<boolean> => {
  if (holdVersion === undefined) return true;
  const hold = await findHold(em, ticketId);
  return hold?.version === holdVersion;
};

/** The job that resumes a waiting step, found by its name in the pipeline's list. */
export const registerStepJobs = (
  registry: JobRegistry,
  deps: {
    steps: () => InboundStep[];
    systemEm: () => EntityManager;
    logger: Logger;
    /** Stores the job again, due at `when` (the scheduler, once it exists). */
    reschedule: (when: Date, data: ResumeJobData) => Promise<unknown>;
  },
): void => {
  registry.define<ResumeJobData>({
    name: RESUME_STEP_JOB,
    handler: async (planned) => {
      const { step, facts, data, holdVersion } = planned;
      try {
        const em = forCompany(deps.systemEm(), facts.companyId);
        if (!(await stillCurrent(em, facts.ticketId, holdVersion))) {
          deps.logger.debug({ step, ticketId: facts.ticketId }, 'a wait outlived its conversation state; not resumed');
          return;
        }
        await deps
          .steps()
          .find((s) => s.name === step)
          ?.resume?.(facts, data);
      } catch (err) {
        const attempt = (planned.attempt ?? 0) + 1;
        if (attempt > RESUME_RETRIES) throw err;
        deps.logger.warn({ err, step, ticketId: facts.ticketId, attempt }, 'a wait could not be resumed; trying again shortly');
        await deps.reschedule(new Date(Date.now() + retryDelayMs(attempt)), { ...planned, attempt });
      }
    },
  });
};

/** Waits through the job scheduler. */
export const scheduledWaits = (scheduler: {
  schedule: (when: Date, name: string, data: ResumeJobData) => Promise<string>;
  cancel: (jobId: string) => Promise<void>;
}): StepWaits => ({
  resumeAt: async (when, step, facts, data, guard) => ({
    jobId: await scheduler.schedule(when, RESUME_STEP_JOB, { step: step.name, facts, data, ...(guard ? { holdVersion: guard.holdVersion } : {}) }),
  }),
  cancel: (handle) => scheduler.cancel(handle.jobId),
});
