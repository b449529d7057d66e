import { defineQueue } from '@/lib/jobs/define';

/** One job per start of an instance's browser, due when its `timeout_hours` run out (`./jobs.ts`). */
export const robotExpiryQueue = defineQueue<{ siteId: string; instanceId: string }>('robot-expiry', () => ({
  expireInSeconds: 120,
  retryLimit: 5,
  retryDelaySeconds: 10,
}));
