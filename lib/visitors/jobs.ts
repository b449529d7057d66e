import { log } from '@/lib/core/log';
import { defineSchedule, type JobContext } from '@/lib/jobs/define';
import { closeExpiredSessions } from './service';

/** Sessions closed per statement, and batches per run: at most 20,000 sessions a minute. */
const BATCH = 500;
const MAX_BATCHES = 40;

/**
 * Every minute, sessions that ran out of time while their visitors stayed away are closed as the
 * visitor's next start would close them (expired, exit page, `bounce`/`timeout`, session.ended
 * webhook event). Stored rows and webhooks then follow expiry within a minute, and the index of
 * active sessions holds live sessions only. Repeatable: a sweep cut short leaves the rest to the next.
 */
export const sessionSweep = defineSchedule({
  name: 'session-sweep',
  cron: '* * * * *',
  options: () => ({ expireInSeconds: 120, retryLimit: 0 }),
  async run(ctx: JobContext) {
    let closed = 0;
    for (let i = 0; i < MAX_BATCHES && !ctx.signal.aborted; i++) {
      const n = await closeExpiredSessions(undefined, BATCH);
      closed += n;
      if (n < BATCH) break;
    }
    if (closed > 0) log.info('session sweep: lapsed sessions closed', { closed });
  },
});
