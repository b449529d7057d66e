import { sql } from 'drizzle-orm';
import { getDb, type Db } from '@/lib/db/client';
import { changedRows } from '@/lib/db/raw';
import { webhookEvents } from '@/lib/db/schema';

/** Stores an inbound change event received by the webhook workflow. */
export async function insertWebhookEvent(
  siteId: string,
  event: { workflowId: string; eventType: string | null; tableName: string | null; payload: Record<string, unknown> },
): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .insert(webhookEvents)
    .values({ siteId, ...event })
    .returning({ id: webhookEvents.id });
  return row.id;
}

/** Announces a run's end on `channel` with `tx`: heard when the transaction that closes the run commits. */
export async function announceRunEnd(tx: Db, channel: string, payload: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/** Retention (lib/worker/retention.ts): deletes up to `limit` received webhook events older than `cutoff`, oldest first; answers how many went. */
export const pruneWebhookEvents = (cutoff: Date, limit: number): Promise<number> =>
  changedRows(
    sql`delete from webhook_events where id in (select id from webhook_events where received_at < ${cutoff.toISOString()}::timestamptz order by received_at limit ${limit})`,
  );

/**
 * Retention (lib/worker/retention.ts): deletes up to `limit` runs that ended before `cutoff`, oldest first, with
 * their steps and signals (on delete cascade); a running run is kept. Answers how many went.
 */
export const pruneEndedRuns = (cutoff: Date, limit: number): Promise<number> =>
  changedRows(
    sql`delete from workflow_runs where run_id in (select run_id from workflow_runs where close_time < ${cutoff.toISOString()}::timestamptz order by close_time limit ${limit})`,
  );
