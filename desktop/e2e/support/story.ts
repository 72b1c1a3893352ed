import type { TestContext } from 'vitest';

/**
 * The steps of one story share a page and build on each other: after a failed step the rest are skipped
 * (their failure would only repeat the first one). Call `skipIfBroken(ctx)` first in every step.
 */
export const storySteps = () => {
  let brokenAt = '';
  return {
    skipIfBroken: (ctx: TestContext) => {
      if (brokenAt) ctx.skip(`an earlier step failed: ${brokenAt}`);
      ctx.onTestFailed(() => {
        brokenAt ||= ctx.task.name;
      });
    },
    /** The name of the first step that failed, '' while none has. */
    broken: () => brokenAt,
  };
};
