import { currentDate } from '@/lib/core/clock';
import { defineJob } from '@/lib/jobs/define';
import { attemptDelivery } from './deliver';
import { deliveryQueue } from './queue';
import { loadDelivery, recordLostDelivery } from './repo';

/**
 * Sends one attempt of a delivery. Repeatable: a delivery that is no longer pending (delivered,
 * failed, or its attempt recorded by an earlier run of this job) is left alone, and an attempt
 * cut off by a worker that died is sent again — with the same `webhook-id`, so the receiver drops
 * the duplicate (at least once).
 */
export const deliverWebhook = defineJob({
  ...deliveryQueue,
  async run({ deliveryId }, ctx) {
    const claimed = await loadDelivery(deliveryId);
    if (!claimed || claimed.delivery.status !== 'pending' || ctx.signal.aborted) return;
    await attemptDelivery(claimed);
  },
  async exhausted({ deliveryId }, reason) {
    await recordLostDelivery(deliveryId, `The delivery could not be attempted: ${reason}`, currentDate());
  },
});
