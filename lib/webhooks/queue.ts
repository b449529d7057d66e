import { config } from '@/lib/core/config';
import { defineQueue } from '@/lib/jobs/define';

/**
 * The delivery queue: one job per attempt of a delivery (the first one written with the event,
 * each retry by the attempt before it, at its due time). Its handler is `./jobs.ts`.
 */
export const deliveryQueue = defineQueue<{ deliveryId: string }>('webhook-delivery', () => {
  const c = config();
  return {
    // An attempt lasts at most its timeout, then is recorded; the expiry is renewed while it runs.
    expireInSeconds: Math.ceil(c.WEBHOOK_TIMEOUT_MS / 1000) + 5,
    // Retries of the job itself (the database failed while recording), not of the receiver's answer.
    retryLimit: 5,
    retryDelaySeconds: 5,
    concurrency: c.WEBHOOK_CONCURRENCY,
    pollSeconds: c.WEBHOOK_POLL_MS / 1000,
  };
});
