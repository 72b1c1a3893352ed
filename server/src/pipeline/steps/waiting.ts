import type { JobRegistry } from '../../jobs/scheduler.js';
import type { InboundFacts, InboundStep } from './step.js';

/**
 * A step that has to wait (a flow's "typing" pause, a question's timeout) does not sleep: it schedules
 * its continuation as a job and lets the message go, so the other chats of the connection go on. The job
 * is stored (it survives a restart) and calls the step's `resume` with what it saved.
 */
export const RESUME_STEP_JOB = 'inbound:resume-step';

export interface StepWaits {
  /** Calls `step.resume(facts, data)` at `when`. */
  resumeAt(when: Date, step: InboundStep, facts: InboundFacts, data: Record<string, unknown>): Promise<void>;
}

type ResumeJobData = { step: string; facts: InboundFacts; data: Record<string, unknown> };

/** The job that resumes a waiting step, found by its name in the pipeline's list. */
export const registerStepJobs = (registry: JobRegistry, steps: () => InboundStep[]): void => {
  registry.define<ResumeJobData>({
    name: RESUME_STEP_JOB,
    handler: async ({ step, facts, data }) => {
      await steps()
        .find((s) => s.name === step)
        ?.resume?.(facts, data);
    },
  });
};

/** Waits through the job scheduler. */
export const scheduledWaits = (schedule: (when: Date, name: string, data: ResumeJobData) => Promise<void>): StepWaits => ({
  resumeAt: (when, step, facts, data) => schedule(when, RESUME_STEP_JOB, { step: step.name, facts, data }),
});
