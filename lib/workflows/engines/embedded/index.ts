import { now } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { defineQueue } from '@/lib/jobs/define';
import { enqueue } from '@/lib/jobs/queue';
import type { ListPage, ListQuery, StartOptions, WorkflowEngine, WorkflowRecord } from '@/lib/workflows/engine';
import { engineFailure } from '@/lib/workflows/failure';
import * as store from './store';

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

export class EmbeddedEngine implements WorkflowEngine {
  readonly kind = 'embedded' as const;

  async start(options: StartOptions) {
    const startTime = new Date(now());
    const { row, created } = await store.insertRun(
      {
        siteId: options.siteId,
        workflowId: options.workflowId,
        type: options.type,
        input: options.input,
        idempotencyKey: options.idempotencyKey,
        startTime,
        timeoutAt: options.timeoutMs ? new Date(startTime.getTime() + options.timeoutMs) : null,
      },
      (tx, runId) => enqueue(RUN_QUEUE, { runId }, { tx }),
    );
    return { workflowId: row.workflowId, runId: row.runId, created };
  }

  startWithinCap(options: StartOptions, cap: number) {
    const startTime = new Date(now());
    return store.insertRunWithinCap(
      {
        siteId: options.siteId,
        workflowId: options.workflowId,
        type: options.type,
        input: options.input,
        idempotencyKey: options.idempotencyKey,
        startTime,
        timeoutAt: options.timeoutMs ? new Date(startTime.getTime() + options.timeoutMs) : null,
      },
      cap,
      (tx, runId) => enqueue(RUN_QUEUE, { runId }, { tx }),
    );
  }

  list(query: ListQuery): Promise<ListPage> {
    return store.listRuns(query);
  }

  async get(siteId: string, workflowId: string): Promise<WorkflowRecord | undefined> {
    const row = await store.runOfSite(siteId, workflowId);
    return row && store.toRecord(row);
  }

  async cancel(siteId: string, workflowId: string): Promise<void> {
    await store.closeRunOfSite(siteId, workflowId, 'CANCELLED', new Date(now()), engineFailure('CANCELLED: the run was cancelled on request'));
  }

  async terminate(siteId: string, workflowId: string, reason: string): Promise<void> {
    await store.closeRunOfSite(siteId, workflowId, 'TERMINATED', new Date(now()), engineFailure(`TERMINATED: ${reason}`));
  }

  async signal(siteId: string, workflowId: string, name: string, payload: unknown): Promise<void> {
    const run = await store.runOfSite(siteId, workflowId);
    if (!run || run.status !== 'RUNNING') return;
    await store.insertSignal(run.runId, siteId, name, payload);
    await wakeRun(run.runId);
  }

  async findByIdempotencyKey(siteId: string, key: string) {
    const row = await store.runByIdempotencyKey(siteId, key);
    return row && { workflowId: row.workflowId, runId: row.runId };
  }

  countRunning(siteId: string): Promise<number> {
    return store.countRunning(siteId);
  }

  async close(): Promise<void> {}
}
