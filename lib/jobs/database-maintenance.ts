import { log } from '@/lib/core/log';
import { maintainEmbeddedTables } from '@/lib/db/maintenance';
import { defineSchedule, type JobContext } from './define';

/** Vacuum and statistics of the embedded database, which runs no autovacuum (lib/db/maintenance.ts); on Postgres, nothing. */
export const databaseMaintenance = defineSchedule({
  name: 'database-maintenance',
  cron: '* * * * *',
  options: () => ({ expireInSeconds: 900, retryLimit: 0 }),
  async run(ctx: JobContext) {
    const done = await maintainEmbeddedTables(ctx.signal);
    if (done.vacuumed.length + done.analyzed.length > 0) log.info('database maintenance: tables vacuumed and analyzed', done);
  },
});
