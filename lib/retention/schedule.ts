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

/** Days a site keeps visitor sessions and events when its settings name none (`tracking.data_retention_days`). */
export const DEFAULT_DATA_RETENTION_DAYS = 730;
/** Visitor data goes in smaller batches: each is a short statement between ingestion's writes. */
const VISITOR_BATCH = 1_000;

/** One batch of `statement` (a delete answering its rows); how many rows it deleted. */
async function deleted(statement: SQL): Promise<number> {
  const db = await getDb();
  const result = (await db.execute(statement)) as unknown as { affectedRows?: number; rowCount?: number };
  return result.affectedRows ?? result.rowCount ?? 0;
}

/** Runs `batch` until it deletes less than a full batch, MAX_BATCHES at most, yielding to other work between batches. */
async function inBatches(batch: () => Promise<number>, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES && !signal?.aborted; i++) {
    const n = await batch();
    total += n;
    if (n < VISITOR_BATCH) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return total;
}

/**
 * Visitor data past each site's keeping period (settings `tracking.data_retention_days`, default
 * 730): events by the time they were received, then ended sessions by their start, then visitors
 * no lead is linked to that have no session left and were last seen before the cutoff. Each
 * statement deletes at most VISITOR_BATCH rows by an index on (site, time), so ingestion's writes
 * are never held behind a long delete; what a run leaves goes on the next. Rolled-up analytics
 * days keep their counts.
 */
export async function pruneVisitorData(at = new Date(now()), signal?: AbortSignal): Promise<Record<string, number>> {
  const db = await getDb();
  const sites = (await db.execute(
    sql`select id, coalesce((settings -> 'tracking' ->> 'data_retention_days')::int, ${DEFAULT_DATA_RETENTION_DAYS}) as days from sites`,
  )) as unknown as { rows: { id: string; days: number }[] };
  const totals = { session_events: 0, visitor_sessions: 0, visitors: 0 };
  for (const site of sites.rows) {
    if (signal?.aborted) break;
    const cutoff = at.getTime() - Math.max(30, Number(site.days)) * DAY_MS;
    totals.session_events += await inBatches(
      () =>
        deleted(sql`delete from session_events where id in (
          select id from session_events where site_id = ${site.id}::uuid and received_at < ${cutoff} order by received_at limit ${VISITOR_BATCH})`),
      signal,
    );
    totals.visitor_sessions += await inBatches(
      () =>
        deleted(sql`delete from visitor_sessions where id in (
          select id from visitor_sessions where site_id = ${site.id}::uuid and created_at < ${cutoff} and last_activity_at < ${cutoff}
            and status <> 'active' order by created_at limit ${VISITOR_BATCH})`),
      signal,
    );
    totals.visitors += await inBatches(
      () =>
        deleted(sql`delete from visitors where id in (
          select v.id from visitors v where v.site_id = ${site.id}::uuid and v.lead_id is null and v.last_seen_at < ${cutoff}
            and not exists (select 1 from visitor_sessions s where s.visitor_id = v.id) order by v.last_seen_at limit ${VISITOR_BATCH})`),
      signal,
    );
  }
  return totals;
}

export const retention = defineSchedule({
  name: 'retention',
  cron: '23 * * * *',
  options: () => ({ expireInSeconds: 300, retryLimit: 2, retryDelaySeconds: 60 }),
  async run(ctx: JobContext) {
    const at = new Date(now());
    const old = await pruneExpiredRows(at, ctx.signal);
    log.info('retention: old rows deleted', old);
    const visitorData = await pruneVisitorData(at, ctx.signal);
    log.info('retention: visitor data past its keeping period deleted', visitorData);
  },
});
