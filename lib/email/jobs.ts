import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { log } from '@/lib/core/log';
import { defineSiteSchedule } from '@/lib/jobs/define';
import { startWorkflow } from '@/lib/workflows/service';
import { sitesWithMailbox } from './repo';

/**
 * Every site with a mailbox is synced every MAILBOX_SYNC_EVERY_MINUTES (default 15): the job
 * starts a `syncEmails` run, so each sync is a run the owner sees in the workflow log, with its
 * outcome (MAILBOX_AUTH_FAILED, MAILBOX_UNREACHABLE) on the run.
 */
export const mailboxSync = defineSiteSchedule({
  name: 'mailbox-sync',
  everyMinutes: 15,
  sites: async () => {
    const every = config().MAILBOX_SYNC_EVERY_MINUTES;
    return (await sitesWithMailbox()).map((siteId) => ({ siteId, everyMinutes: every }));
  },
  async run(siteId) {
    try {
      await startWorkflow(siteId, 'syncEmails', { site_id: siteId }, null);
    } catch (error) {
      // A site at its cap of running workflows syncs at the next tick; anything else is retried.
      if (error instanceof ApiError && error.code === 'RATE_LIMITED') {
        log.info('mailbox sync deferred: the site is at its cap of running workflows', { site_id: siteId });
        return;
      }
      throw error;
    }
  },
});
