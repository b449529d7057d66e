import { defineJob } from '@/lib/jobs/define';
import { expireInstance } from './lifecycle';
import { robotExpiryQueue } from './queue';

/** Stops a running instance whose timeout ran out (repeatable: a stopped or resumed instance is left alone). */
export const robotExpiry = defineJob({
  ...robotExpiryQueue,
  async run({ siteId, instanceId }) {
    await expireInstance(siteId, instanceId);
  },
});
