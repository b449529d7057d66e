import { sql, type SQL } from 'drizzle-orm';
import { now } from '@/lib/core/clock';
import { config, type Config } from '@/lib/core/config';
import { log } from '@/lib/core/log';
import { getDb } from '@/lib/db/client';
import { defineSchedule, type JobContext } from '@/lib/jobs/define';

/**
 * Retention: every hour, rows past their keeping period are deleted, oldest first, in batches of
 * BATCH (each batch its own short statement, by the index on the time column), so pruning never
 * holds the database for long; a backlog is worked off over the following hours. Repeatable: a
 * prune cut short by a worker that died simply deletes the rest next time.
 */
const BATCH = 5_000;
/** Batches per table and run: at most this many rows of one table go per hour. */
const MAX_BATCHES = 40;
const DAY_MS = 86_400_000;

interface Rule {
  table: string;
  /** Days to keep, from config. */
  days: (c: Config) => number;
  /** The rows older than the cutoff that may go, as a select of their ids (oldest first). */
  ids: (cutoff: string) => SQL;
}

export const RETENTION_RULES: Rule[] = [
  {
    // A day after expiry: an expired session or mailed token can no longer be used, and nothing reads it.
    table: 'user_sessions',
    days: () => 1,
    ids: (cutoff) => sql`select id from user_sessions where expires_at < ${cutoff}::timestamptz order by expires_at limit ${BATCH}`,
  },
  {
    table: 'account_tokens',
    days: () => 1,
    ids: (cutoff) => sql`select id from account_tokens where expires_at < ${cutoff}::timestamptz order by expires_at limit ${BATCH}`,
  },
  {
    table: 'api_key_usage',
    days: (c) => c.KEY_USAGE_RETENTION_DAYS,
    ids: (cutoff) => sql`select id from api_key_usage where created_at < ${cutoff}::timestamptz order by created_at limit ${BATCH}`,
  },
  {
    table: 'platform_audit_log',
    days: (c) => c.AUDIT_RETENTION_DAYS,
    ids: (cutoff) => sql`select id from platform_audit_log where created_at < ${cutoff}::timestamptz order by created_at limit ${BATCH}`,
  },
  {
    table: 'secure_token_audit',
    days: (c) => c.AUDIT_RETENTION_DAYS,
    ids: (cutoff) => sql`select id from secure_token_audit where created_at < ${cutoff}::timestamptz order by created_at limit ${BATCH}`,
  },
  {
    // Ended runs only, with their steps and signals (on delete cascade); a running run is kept.
    table: 'workflow_runs',
    days: (c) => c.WORKFLOW_RUN_RETENTION_DAYS,
    ids: (cutoff) => sql`select run_id from workflow_runs where close_time < ${cutoff}::timestamptz order by close_time limit ${BATCH}`,
  },
  {
    table: 'webhook_events',
    days: (c) => c.WORKFLOW_RUN_RETENTION_DAYS,
    ids: (cutoff) => sql`select id from webhook_events where received_at < ${cutoff}::timestamptz order by received_at limit ${BATCH}`,
  },
  {
    // Outbound events with their deliveries and attempts, once none of them is still pending.
    table: 'outbound_events',
    days: (c) => c.WEBHOOK_RETENTION_DAYS,
    ids: (cutoff) =>
      sql`select e.id from outbound_events e where e.created_at < ${cutoff}::timestamptz
            and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending')
          order by e.created_at limit ${BATCH}`,
  },
];

const KEY_COLUMN: Record<string, string> = { workflow_runs: 'run_id' };

/** Deletes what the rules allow at `at`; answers the rows deleted per table. */
export async function pruneExpiredRows(at = new Date(now()), signal?: AbortSignal): Promise<Record<string, number>> {
  const db = await getDb();
  const c = config();
  const deleted: Record<string, number> = {};
  for (const rule of RETENTION_RULES) {
    const cutoff = new Date(at.getTime() - rule.days(c) * DAY_MS).toISOString();
    const key = sql.raw(KEY_COLUMN[rule.table] ?? 'id');
    deleted[rule.table] = 0;
    for (let i = 0; i < MAX_BATCHES && !signal?.aborted; i++) {
      const result = (await db.execute(sql`delete from ${sql.raw(rule.table)} where ${key} in (${rule.ids(cutoff)})`)) as unknown as {
        affectedRows?: number;
        rowCount?: number;
      };
      const n = result.affectedRows ?? result.rowCount ?? 0;
      deleted[rule.table] += n;
      if (n < BATCH) break;
    }
  }
  return deleted;
}

export const retention = defineSchedule({
  name: 'retention',
  cron: '23 * * * *',
  options: () => ({ expireInSeconds: 300, retryLimit: 2, retryDelaySeconds: 60 }),
  async run(ctx: JobContext) {
    const deleted = await pruneExpiredRows(new Date(now()), ctx.signal);
    log.info('retention: old rows deleted', deleted);
  },
});
