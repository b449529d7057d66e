import { config } from '@/lib/core/config';
import type { Db } from '@/lib/db/client';
import { defineQueue } from '@/lib/jobs/define';
import { enqueueAll } from '@/lib/jobs/queue';
import { workflowEngine } from '@/lib/workflows/engines';

/**
 * Where an enrollment's next step is scheduled, by the configured workflow engine:
 *
 * - embedded: one job per step (`sequence-step`), queued at the step's due time — the first with
 *   the enrollment, each next one when the step before it is done. Its handler is `./jobs.ts`.
 * - Temporal: the enrollment is a workflow of its own that sleeps until the step is due and sends
 *   it in an activity. A change of the due time queues a `sequence-enrollment` job (bound by the
 *   worker) that starts the workflow or wakes it to read the enrollment again.
 *
 * Both run the same `runStep` (`./send.ts`) with the same at-most-once claim.
 */
/** Attempts of a step's send after the first, on either engine. */
export const STEP_RETRY_LIMIT = 5;

export const stepQueue = defineQueue<{ siteId: string; enrollmentId: string; step: number }>('sequence-step', () => ({
  // A worker that died mid-send is given up on after this; the step's claim keeps it from going twice.
  expireInSeconds: config().SEQUENCE_STEP_TIMEOUT_SECONDS,
  // Retries of the job itself (the database or the mail server failed before anything was sent).
  retryLimit: STEP_RETRY_LIMIT,
  retryDelaySeconds: config().SEQUENCE_STEP_RETRY_DELAY_SECONDS,
  concurrency: 4,
  pollSeconds: 1,
}));

/** Temporal: starts the enrollment's workflow, or wakes the running one to read its enrollment again. */
export const enrollmentQueue = defineQueue<{ siteId: string; enrollmentId: string }>('sequence-enrollment', () => ({
  // From 2 s, doubling: the cluster may be out of reach for about a day and a half before the enrollment ends failed.
  retryLimit: 16,
  retryDelaySeconds: 2,
  concurrency: 4,
  pollSeconds: 1,
}));

/**
 * Schedules each enrollment's step at its time, with the caller's transaction when given, so the
 * schedule exists exactly when the change that asked for it commits.
 */
export async function scheduleSteps(items: { siteId: string; enrollmentId: string; step: number; at: Date }[], tx?: Db): Promise<void> {
  if (workflowEngine().kind === 'temporal') {
    // The workflow reads the step and its time from the enrollment; the job only starts or wakes it.
    await enqueueAll(
      enrollmentQueue,
      items.map((i) => ({ data: { siteId: i.siteId, enrollmentId: i.enrollmentId } })),
      { tx },
    );
    return;
  }
  await enqueueAll(
    stepQueue,
    items.map((i) => ({ data: { siteId: i.siteId, enrollmentId: i.enrollmentId, step: i.step }, startAfter: i.at })),
    { tx },
  );
}
