import { defineJob } from '@/lib/jobs/define';
import { stepQueue } from './queue';
import { runStep } from './send';

/**
 * Sends one step of one enrollment. Repeatable: a step is claimed (its message row written) before
 * its mail goes out, so a second run of the job — a retry, a duplicate, a worker killed mid-send —
 * finds the claim and never sends it again (at most once).
 */
export const sequenceStep = defineJob({
  ...stepQueue,
  async run(data, ctx) {
    if (ctx.signal.aborted) return;
    await runStep(data.siteId, data.enrollmentId, data.step);
  },
});
