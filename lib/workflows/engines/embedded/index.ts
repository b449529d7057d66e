import { now } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import type { Db } from '@/lib/db/client';
import { defineQueue } from '@/lib/jobs/define';
import { enqueue, enqueueAll } from '@/lib/jobs/queue';
import type { ListPage, ListQuery, StartOptions, WorkflowEngine, WorkflowRecord } from '@/lib/workflows/engine';
import { engineFailure } from '@/lib/workflows/failure';
import { countRunning, listRuns, runByIdempotencyKey, runOfSite, toRecord } from './runs-repo';
import { closeRunOfSite, insertSignal } from './signals-repo';
import { insertRun, insertRunWithinCap, type NewRun } from './starts-repo';

/**
 * The embedded engine's client: durable on the app's own database (PGlite or Postgres). Runs and
 * their checkpoints live in `workflow_runs`/`workflow_steps`; each execution of a run is a job of
 * the `workflow-run` queue (`lib/jobs`), written in the transaction that records the run. The
 * client needs no activities: the worker entry binds them to the queue (`./run-job.ts`).
 */
export const RUN_QUEUE = defineQueue<{ runId: string }>('workflow-run', () => {
  const c = config();
  return {
    expireInSeconds: c.WORKFLOW_LEASE_SECONDS,
    retryLimit: c.WORKFLOW_RETRY_LIMIT,
    retryDelaySeconds: c.WORKFLOW_RETRY_DELAY_SECONDS,
    concurrency: c.WORKFLOW_CONCURRENCY,
    pollSeconds: c.WORKFLOW_POLL_SECONDS,
  };
});

/** Queues the run's next execution, at `at` or now. */
export const wakeRun = async (runId: string, at?: Date): Promise<void> => {
  await enqueue(RUN_QUEUE, { runId }, at && at.getTime() > now() ? { startAfter: at } : {});
};

/** The run `options` start, beginning now. */
function newRun(options: StartOptions): NewRun {
  const startTime = new Date(now());
  const { siteId, workflowId, type, input, idempotencyKey, timeoutMs } = options;
  return { siteId, workflowId, type, input, idempotencyKey, startTime, timeoutAt: timeoutMs ? new Date(startTime.getTime() + timeoutMs) : null };
}

/** A run's first execution, queued in the transaction that records it. */
const enqueueFirst = (tx: Db, runId: string) => enqueue(RUN_QUEUE, { runId }, { tx });
/** The first executions of several runs, queued in one statement of the transaction that records them. */
const enqueueFirsts = (tx: Db, runIds: string[]) =>
  enqueueAll(
    RUN_QUEUE,
    runIds.map((runId) => ({ data: { runId } })),
    { tx },
  );

export class EmbeddedEngine implements WorkflowEngine {
  readonly kind = 'embedded' as const;

  async start(options: StartOptions) {
    const { row, created } = await insertRun(newRun(options), enqueueFirst);
    return { workflowId: row.workflowId, runId: row.runId, created };
  }

  startWithinCap(options: StartOptions, cap: number) {
    return insertRunWithinCap(newRun(options), cap, enqueueFirsts);
  }

  list(query: ListQuery): Promise<ListPage> {
    return listRuns(query);
  }

  async get(siteId: string, workflowId: string): Promise<WorkflowRecord | undefined> {
    const row = await runOfSite(siteId, workflowId);
    return row && toRecord(row);
  }

  async cancel(siteId: string, workflowId: string): Promise<void> {
    await closeRunOfSite(siteId, workflowId, 'CANCELLED', new Date(now()), engineFailure('CANCELLED: the run was cancelled on request'));
  }

  async terminate(siteId: string, workflowId: string, reason: string): Promise<void> {
    await closeRunOfSite(siteId, workflowId, 'TERMINATED', new Date(now()), engineFailure(`TERMINATED: ${reason}`));
  }

  async signal(siteId: string, workflowId: string, name: string, payload: unknown): Promise<void> {
    const run = await runOfSite(siteId, workflowId);
    if (!run || run.status !== 'RUNNING') return;
    await insertSignal(run.runId, siteId, name, payload);
    await wakeRun(run.runId);
  }

  async findByIdempotencyKey(siteId: string, key: string) {
    const row = await runByIdempotencyKey(siteId, key);
    return row && { workflowId: row.workflowId, runId: row.runId };
  }

  countRunning(siteId: string): Promise<number> {
    return countRunning(siteId);
  }

  async close(): Promise<void> {}
}
