import type { Db } from '@/lib/db/client';
import { defineQueue } from '@/lib/jobs/define';
import { enqueueAll } from '@/lib/jobs/queue';

/**
 * One job per step of an enrollment, queued at the step's due time (the first with the
 * enrollment, each next one when the step before it is done). Its handler is `./jobs.ts`.
 */
export const stepQueue = defineQueue<{ siteId: string; enrollmentId: string; step: number }>('sequence-step', () => ({
  expireInSeconds: 60,
  // Retries of the job itself (the database or the mail server failed before anything was sent).
  retryLimit: 5,
  retryDelaySeconds: 30,
  concurrency: 4,
  pollSeconds: 1,
}));

/** Queues the job of each enrollment's step at its time, with the caller's transaction when given. */
export async function scheduleSteps(items: { siteId: string; enrollmentId: string; step: number; at: Date }[], tx?: Db): Promise<void> {
  await enqueueAll(
    stepQueue,
    items.map((i) => ({ data: { siteId: i.siteId, enrollmentId: i.enrollmentId, step: i.step }, startAfter: i.at })),
    { tx },
  );
}
