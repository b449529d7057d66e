import { ApiError } from '@/lib/core/errors';
import { defineJob } from '@/lib/jobs/define';
import { enrollmentQueue, stepQueue } from './queue';
import { runStep } from './send';
import { failEnrollment, loadForSend } from './send-repo';

/** What a failed attempt says to the owner: an error meant for people, else a pointer to the log (no internals). */
export const reasonOf = (error: unknown) => (error instanceof ApiError ? error.message : 'an internal error (the server log has its cause)');

/** The enrollment's failure when step `step` was refused at every attempt, or no attempt came back. */
const stepFailure = (step: number, cause: { attempts: number; reason: string } | 'no answer') =>
  cause === 'no answer'
    ? `Step ${step + 1} was not sent: every attempt stopped without an answer (the worker stopped or timed out)`
    : `Step ${step + 1} was not sent after ${cause.attempts} attempts: ${cause.reason}`;

/** Ends the enrollment `failed` at step `step`, saying why (on either engine). */
export const failStep = (siteId: string, enrollmentId: string, step: number, cause: { attempts: number; reason: string } | 'no answer') =>
  failEnrollment(siteId, enrollmentId, step, stepFailure(step, cause));

/**
 * Sends one step of one enrollment (embedded engine). Repeatable: a step is claimed (its message
 * row written) before its mail goes out, so a second run of the job — a retry, a duplicate, a
 * worker killed mid-send — finds the claim and never sends it again (at most once). When the last
 * attempt fails, or the attempts run out by workers that died, the enrollment ends `failed` with
 * the reason: it never waits for a step that will not come.
 */
export const sequenceStep = defineJob({
  ...stepQueue,
  async run(data, ctx) {
    if (ctx.signal.aborted) return;
    try {
      await runStep(data.siteId, data.enrollmentId, data.step);
    } catch (error) {
      if (ctx.attempt >= ctx.retryLimit && !ctx.signal.aborted)
        await failStep(data.siteId, data.enrollmentId, data.step, { attempts: ctx.attempt + 1, reason: reasonOf(error) });
      throw error;
    }
  },
  async exhausted(data) {
    await failStep(data.siteId, data.enrollmentId, data.step, 'no answer');
  },
});

/**
 * The Temporal engine's job: starts the enrollment's workflow, or wakes the one running so it
 * reads the enrollment again (`wake` comes from the worker, which holds the cluster's client).
 */
export const sequenceEnrollmentJob = (wake: (siteId: string, enrollmentId: string) => Promise<void>) =>
  defineJob({
    ...enrollmentQueue,
    run: (data) => wake(data.siteId, data.enrollmentId),
    // The cluster stayed out of reach through every retry: the enrollment ends failed, never waits unseen.
    async exhausted(data) {
      const loaded = await loadForSend(data.siteId, data.enrollmentId);
      if (loaded?.enrollment.status !== 'active') return;
      const step = loaded.enrollment.nextStep;
      await failEnrollment(data.siteId, data.enrollmentId, step, `Step ${step + 1} was not sent: the workflow engine could not be reached`);
    },
  });
