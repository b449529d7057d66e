import { ApiError } from '@/lib/core/errors';
import { defineJob } from '@/lib/jobs/define';
import { stepQueue } from './queue';
import { runStep } from './send';
import { failEnrollment } from './send-repo';

/** What a failed attempt says to the owner: an error meant for people, else a pointer to the log (no internals). */
const reasonOf = (error: unknown) => (error instanceof ApiError ? error.message : 'an internal error (the server log has its cause)');

/**
 * Sends one step of one enrollment. Repeatable: a step is claimed (its message row written) before
 * its mail goes out, so a second run of the job — a retry, a duplicate, a worker killed mid-send —
 * finds the claim and never sends it again (at most once). When the last attempt fails, or the
 * attempts run out by workers that died, the enrollment ends `failed` with the reason: it never
 * waits for a step that will not come.
 */
export const sequenceStep = defineJob({
  ...stepQueue,
  async run(data, ctx) {
    if (ctx.signal.aborted) return;
    try {
      await runStep(data.siteId, data.enrollmentId, data.step);
    } catch (error) {
      if (ctx.attempt >= ctx.retryLimit && !ctx.signal.aborted)
        await failEnrollment(
          data.siteId,
          data.enrollmentId,
          data.step,
          `Step ${data.step + 1} was not sent after ${ctx.attempt + 1} attempts: ${reasonOf(error)}`,
        );
      throw error;
    }
  },
  async exhausted(data) {
    await failEnrollment(
      data.siteId,
      data.enrollmentId,
      data.step,
      `Step ${data.step + 1} was not sent: every attempt stopped without an answer (the worker stopped or timed out)`,
    );
  },
});
