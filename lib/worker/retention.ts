import { now } from '@/lib/core/clock';
import { config, type Config } from '@/lib/core/config';
import { log } from '@/lib/core/log';
import { defineSchedule, type JobContext } from '@/lib/jobs/define';
import { pruneKeyUsage } from '@/lib/keys/usage-repo';
import { prunePlatformAudit } from '@/lib/platform/repo';
import { pruneSecureTokenAudit } from '@/lib/secure-tokens/repo';
import { visitorDataRetentionDays } from '@/lib/sites/repo';
import { pruneUserSessions } from '@/lib/users/sessions-repo';
import { pruneAccountTokens } from '@/lib/users/tokens-repo';
import { pruneSessionEvents } from '@/lib/visitors/events-repo';
import { pruneEndedSessions } from '@/lib/visitors/sessions-repo';
import { pruneIdleVisitors } from '@/lib/visitors/visitors-repo';
import { pruneOutboundEvents } from '@/lib/webhooks/outbox-repo';
import { pruneEndedRuns, pruneWebhookEvents } from '@/lib/workflows/repo';

/**
 * Retention: every ten minutes, rows past their keeping period are deleted, oldest first, in batches
 * of BATCH (each batch its own short statement, by the index on the time column, written by the
 * table's domain in its repository), so pruning never holds the database for long; a backlog is
 * worked off over the following runs. Repeatable: a prune cut short by a worker that died simply
 * deletes the rest next time.
 */
const BATCH = 5_000;
/** Batches per table and run: at most this many rows of one table go per run. */
const MAX_BATCHES = 40;
/**
 * Time a run spends on visitor data at most: its batches go one after another until the backlog is
 * gone or this is spent (~1.2 M events per run on Postgres at the measured ~10,000 events/s,
 * bench/RESULTS.md), well inside the job's expiry.
 */
const VISITOR_RUN_BUDGET_MS = 120_000;
const DAY_MS = 86_400_000;

interface Rule {
  table: string;
  /** Days to keep, from config. */
  days: (c: Config) => number;
  /** Its domain's prune: deletes up to `limit` rows older than the cutoff that may go, oldest first; answers how many went. */
  prune: (cutoff: Date, limit: number) => Promise<number>;
}

export const RETENTION_RULES: Rule[] = [
  // A day after expiry: an expired session or mailed token can no longer be used, and nothing reads it.
  { table: 'user_sessions', days: () => 1, prune: pruneUserSessions },
  { table: 'account_tokens', days: () => 1, prune: pruneAccountTokens },
  { table: 'api_key_usage', days: (c) => c.KEY_USAGE_RETENTION_DAYS, prune: pruneKeyUsage },
  { table: 'platform_audit_log', days: (c) => c.AUDIT_RETENTION_DAYS, prune: prunePlatformAudit },
  { table: 'secure_token_audit', days: (c) => c.AUDIT_RETENTION_DAYS, prune: pruneSecureTokenAudit },
  // Ended runs only, with their steps and signals; a running run is kept.
  { table: 'workflow_runs', days: (c) => c.WORKFLOW_RUN_RETENTION_DAYS, prune: pruneEndedRuns },
  { table: 'webhook_events', days: (c) => c.WORKFLOW_RUN_RETENTION_DAYS, prune: pruneWebhookEvents },
  // Outbound events with their deliveries and attempts, once none of them is still pending.
  { table: 'outbound_events', days: (c) => c.WEBHOOK_RETENTION_DAYS, prune: pruneOutboundEvents },
];

/** Deletes what the rules allow at `at`; answers the rows deleted per table. */
export async function pruneExpiredRows(at = new Date(now()), signal?: AbortSignal): Promise<Record<string, number>> {
  const c = config();
  const deleted: Record<string, number> = {};
  for (const rule of RETENTION_RULES) {
    const cutoff = new Date(at.getTime() - rule.days(c) * DAY_MS);
    deleted[rule.table] = 0;
    for (let i = 0; i < MAX_BATCHES && !signal?.aborted; i++) {
      const n = await rule.prune(cutoff, BATCH);
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

/** Runs `batch` until it deletes less than a full batch or the run's time is spent, yielding to other work between batches. */
async function inBatches(batch: () => Promise<number>, deadline: number, signal?: AbortSignal): Promise<number> {
  let total = 0;
  while (!signal?.aborted && Date.now() < deadline) {
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
export async function pruneVisitorData(
  at = new Date(now()),
  signal?: AbortSignal,
  deadline = Date.now() + VISITOR_RUN_BUDGET_MS,
): Promise<Record<string, number>> {
  const sites = await visitorDataRetentionDays(DEFAULT_DATA_RETENTION_DAYS);
  const totals = { session_events: 0, visitor_sessions: 0, visitors: 0 };
  for (const site of sites) {
    if (signal?.aborted) break;
    const cutoff = at.getTime() - Math.max(30, Number(site.days)) * DAY_MS;
    totals.session_events += await inBatches(() => pruneSessionEvents(site.id, cutoff, VISITOR_BATCH), deadline, signal);
    totals.visitor_sessions += await inBatches(() => pruneEndedSessions(site.id, cutoff, VISITOR_BATCH), deadline, signal);
    totals.visitors += await inBatches(() => pruneIdleVisitors(site.id, cutoff, VISITOR_BATCH), deadline, signal);
  }
  return totals;
}

export const retention = defineSchedule({
  name: 'retention',
  cron: '*/10 * * * *',
  options: () => ({ expireInSeconds: 300, retryLimit: 2, retryDelaySeconds: 60 }),
  async run(ctx: JobContext) {
    const at = new Date(now());
    const old = await pruneExpiredRows(at, ctx.signal);
    log.info('retention: old rows deleted', old);
    const visitorData = await pruneVisitorData(at, ctx.signal);
    log.info('retention: visitor data past its keeping period deleted', visitorData);
  },
});
