import { and, eq, isNull } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { temporalStartKeys } from '@/lib/db/schema';

/**
 * Idempotency keys of Temporal starts. The first start with a key reserves it with its workflow
 * id; a retry finds the reservation and gets that run back instead of starting another.
 */
export interface StartKey {
  workflowId: string;
  runId: string | null;
  /** This call made the reservation (its workflow id is the one to start). */
  own: boolean;
}

export async function reserveStartKey(siteId: string, key: string, workflowId: string): Promise<StartKey> {
  const db = await getDb();
  const [inserted] = await db
    .insert(temporalStartKeys)
    .values({ siteId, idempotencyKey: key, workflowId })
    .onConflictDoNothing()
    .returning({ workflowId: temporalStartKeys.workflowId });
  if (inserted) return { workflowId: inserted.workflowId, runId: null, own: true };
  const [existing] = await db
    .select({ workflowId: temporalStartKeys.workflowId, runId: temporalStartKeys.runId })
    .from(temporalStartKeys)
    .where(and(eq(temporalStartKeys.siteId, siteId), eq(temporalStartKeys.idempotencyKey, key)));
  if (!existing) throw new Error('idempotency key vanished between insert and read');
  return { ...existing, own: false };
}

export async function recordStartedRun(siteId: string, key: string, runId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(temporalStartKeys)
    .set({ runId })
    .where(and(eq(temporalStartKeys.siteId, siteId), eq(temporalStartKeys.idempotencyKey, key), isNull(temporalStartKeys.runId)));
}

/** The start never reached the cluster: free the key so a retry starts afresh. */
export async function releaseStartKey(siteId: string, key: string): Promise<void> {
  const db = await getDb();
  await db
    .delete(temporalStartKeys)
    .where(and(eq(temporalStartKeys.siteId, siteId), eq(temporalStartKeys.idempotencyKey, key), isNull(temporalStartKeys.runId)));
}

/** The run a start with this key made, once the cluster accepted it. */
export async function startedRunOfKey(siteId: string, key: string): Promise<{ workflowId: string; runId: string } | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ workflowId: temporalStartKeys.workflowId, runId: temporalStartKeys.runId })
    .from(temporalStartKeys)
    .where(and(eq(temporalStartKeys.siteId, siteId), eq(temporalStartKeys.idempotencyKey, key)));
  return row?.runId ? { workflowId: row.workflowId, runId: row.runId } : undefined;
}
