import { and, eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { workflowRuns, workflowSignals } from '@/lib/db/schema';
import type { WorkflowFailure } from '@/lib/workflows/engine';
import { recordRunEnd } from '@/lib/workflows/run-events';
import { toRecord } from './runs-repo';

/** What the client sends a running run: a signal, a cancel or a termination. */

/** Ends a RUNNING run of the site on request, its webhook event in the same transaction; answers whether this call ended it. */
export async function closeRunOfSite(
  siteId: string,
  workflowId: string,
  status: 'CANCELLED' | 'TERMINATED',
  at: Date,
  failure: WorkflowFailure,
): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(workflowRuns)
      .set({ status, closeTime: at, failure, heldBy: null })
      .where(and(eq(workflowRuns.siteId, siteId), eq(workflowRuns.workflowId, workflowId), eq(workflowRuns.status, 'RUNNING')))
      .returning();
    if (row) await recordRunEnd(toRecord(row), row.siteId, tx);
    return Boolean(row);
  });
}

export async function insertSignal(runId: string, siteId: string, name: string, payload: unknown): Promise<void> {
  const db = await getDb();
  await db.insert(workflowSignals).values({ runId, siteId, name, payload: payload ?? null });
}

/**
 * Hands the oldest unconsumed signal of that name to the step; undefined when none arrived. A
 * signal this step already took (a crash between taking it and the checkpoint) is taken again.
 */
export async function consumeSignal(runId: string, name: string, step: number): Promise<{ payload: unknown } | undefined> {
  const db = await getDb();
  const [row] = await db
    .update(workflowSignals)
    .set({ consumedStep: step })
    .where(
      eq(
        workflowSignals.id,
        sql`(select id from workflow_signals where run_id = ${runId} and name = ${name} and (consumed_step is null or consumed_step = ${step}) order by consumed_step is null, id limit 1)`,
      ),
    )
    .returning({ payload: workflowSignals.payload });
  return row;
}
