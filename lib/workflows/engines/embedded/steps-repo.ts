import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { getDb, type Db } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { workflowRuns, workflowSteps } from '@/lib/db/schema';
import { JOB_SCHEMA } from '@/lib/jobs/define';
import type { WorkflowFailure, WorkflowStatus } from '@/lib/workflows/engine';
import { recordRunEnd } from '@/lib/workflows/run-events';
import { toRecord, type RunRow } from './runs-repo';

/**
 * An execution of a run (the runner): it takes the run, checkpoints each step it completes,
 * lets go of the run when it waits, and closes it at its end.
 */
export type StepRow = typeof workflowSteps.$inferSelect;
/** What an execution replays of a recorded step. */
export type StepState = Pick<StepRow, 'step' | 'kind' | 'name' | 'wakeAt' | 'completed' | 'result'>;

/**
 * Takes the run for the job `jobId` of `queue`: when nobody holds it, this job already does (its
 * retry after a crash), or its holder's job is no longer active in the queue (that worker died
 * and the queue expired its job). A live holder keeps its job active, so the run stays its own.
 */
export async function holdRun(runId: string, queue: string, jobId: string): Promise<{ run: RunRow; steps: StepState[] } | undefined> {
  const db = await getDb();
  // The run's recorded steps come back with the same statement (one round trip per execution).
  const [held] = await db
    .update(workflowRuns)
    .set({ heldBy: jobId })
    .where(
      and(
        eq(workflowRuns.runId, runId),
        eq(workflowRuns.status, 'RUNNING'),
        sql`(${workflowRuns.heldBy} is null or ${workflowRuns.heldBy} = ${jobId} or not exists (select 1 from ${sql.raw(JOB_SCHEMA)}.job j where j.name = ${queue} and j.id = ${workflowRuns.heldBy} and j.state = 'active'))`,
      ),
    )
    .returning({
      ...getTableColumns(workflowRuns),
      steps: sql<unknown>`(select coalesce(json_agg(json_build_object('step', s.step, 'kind', s.kind, 'name', s.name, 'wakeAt', s.wake_at, 'completed', s.completed, 'result', s.result) order by s.step), '[]'::json) from workflow_steps s where s.run_id = workflow_runs.run_id)`,
    });
  if (!held) return undefined;
  const { steps, ...run } = held;
  const list = (typeof steps === 'string' ? JSON.parse(steps) : steps) as (Omit<StepState, 'wakeAt'> & { wakeAt: string | null })[];
  return { run, steps: list.map((step) => ({ ...step, wakeAt: step.wakeAt === null ? null : new Date(step.wakeAt) })) };
}

/** What a step checks before it acts: the run is still RUNNING, within its deadline and held by its job. */
export interface RunState {
  status: string;
  timeoutAt: Date | null;
  heldBy: string | null;
}

/** The run's status and deadline, to check before a step acts. */
export async function runState(runId: string): Promise<RunState | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ status: workflowRuns.status, timeoutAt: workflowRuns.timeoutAt, heldBy: workflowRuns.heldBy })
    .from(workflowRuns)
    .where(eq(workflowRuns.runId, runId));
  return row;
}

/** Lets go of the run (it waits for a timer or a signal, or its job failed and will be retried). */
export async function releaseRun(runId: string, jobId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(workflowRuns)
    .set({ heldBy: null })
    .where(and(eq(workflowRuns.runId, runId), eq(workflowRuns.heldBy, jobId)));
}

/** Records a step as reached (timers and signal waits: with when the wait ends). */
export async function openStep(step: {
  runId: string;
  step: number;
  siteId: string;
  kind: StepRow['kind'];
  name: string;
  wakeAt: Date | null;
}): Promise<void> {
  const db = await getDb();
  await db
    .insert(workflowSteps)
    .values({ ...step, completed: false })
    .onConflictDoNothing();
}

/** A completed step to record: its result (wrapped, so `undefined` survives) and when it completed. */
export interface Checkpoint {
  runId: string;
  step: number;
  siteId: string;
  kind: StepRow['kind'];
  name: string;
  value: unknown;
  at: Date;
}

const checkpointStatement = (c: Checkpoint) => {
  const result = c.value === undefined ? {} : { value: c.value };
  return sql`insert into workflow_steps (run_id, step, site_id, kind, name, completed, result, completed_at)
    values (${c.runId}, ${c.step}, ${c.siteId}, ${c.kind}, ${c.name}, true, ${JSON.stringify(result)}::jsonb, ${c.at.toISOString()}::timestamptz)
    on conflict (run_id, step) do update set completed = true, result = excluded.result, completed_at = excluded.completed_at`;
};

async function writeCheckpoint(c: Checkpoint, db: Db): Promise<void> {
  await db.execute(checkpointStatement(c));
}

/** Checkpoints a completed step. */
export async function completeStep(c: Checkpoint): Promise<void> {
  await writeCheckpoint(c, await getDb());
}

/** Checkpoints a completed step and reads the run's state after it, in one statement (the check before the next step). */
export async function completeStepThenState(c: Checkpoint): Promise<RunState | undefined> {
  const [row] = await rows<{ status: string; timeout_at: string | Date | null; held_by: string | null }>(
    sql`with checkpoint as (${checkpointStatement(c)} returning 1)
      select status, timeout_at, held_by from workflow_runs where run_id = ${c.runId}`,
  );
  return row && { status: row.status, timeoutAt: row.timeout_at === null ? null : new Date(row.timeout_at), heldBy: row.held_by };
}

/**
 * Ends a running run (no-op when it already ended); answers whether this call ended it. The
 * `workflow.*` webhook event is written in the same transaction (lib/webhooks/events.ts).
 */
export async function closeRun(
  runId: string,
  status: Exclude<WorkflowStatus, 'RUNNING'>,
  at: Date,
  outcome: { result?: unknown; failure?: WorkflowFailure },
  /** With the same commit: the checkpoint of the run's last step, and the executing job's completion. */
  also: { checkpoint?: Checkpoint; within?: (tx: Db) => Promise<unknown> } = {},
): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    if (also.checkpoint) await writeCheckpoint(also.checkpoint, tx);
    const [row] = await tx
      .update(workflowRuns)
      .set({ status, closeTime: at, result: outcome.result ?? null, failure: outcome.failure ?? null, heldBy: null })
      .where(and(eq(workflowRuns.runId, runId), eq(workflowRuns.status, 'RUNNING')))
      .returning();
    if (row) await recordRunEnd(toRecord(row), row.siteId, tx);
    await also.within?.(tx);
    return Boolean(row);
  });
}
