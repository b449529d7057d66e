import PgBoss from 'pg-boss';
import { now } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { errorFields, log } from '@/lib/core/log';
import { database } from '@/lib/db/client';
import { createActivities } from '../../activities-impl';
import type { WorkflowDefinition } from '../../definition';
import { workflowDefinitions } from '../../definitions';
import type { ListPage, ListQuery, StartOptions, WorkflowEngine, WorkflowRecord } from '../../engine';
import { engineFailure } from '../../failure';
import { executeRun } from './runner';
import * as store from './store';

/**
 * The embedded engine: durable on the app's own database (PGlite or Postgres). Runs and their
 * checkpoints live in `workflow_runs`/`workflow_steps`; pg-boss (on the same database, through
 * its `db.executeSql` hook) carries the jobs that execute them — with retries and backoff, and
 * expiry of jobs whose worker died, so another worker resumes the run.
 */
export const RUN_QUEUE = 'workflow-run';

export interface EmbeddedEngineOptions {
  /** Definitions by type name (default: the catalog's). */
  definitions?: Record<string, WorkflowDefinition<any, any, any>>;
  /** Activity implementation (default: `createActivities()`). */
  activities?: object;
  leaseSeconds?: number;
  pollSeconds?: number;
  retryLimit?: number;
  retryDelaySeconds?: number;
  concurrency?: number;
}

export class EmbeddedEngine implements WorkflowEngine {
  readonly kind = 'embedded' as const;
  private boss?: Promise<PgBoss>;
  private working = false;
  private readonly workers: string[] = [];
  private closed = false;
  private readonly o: Required<EmbeddedEngineOptions>;

  constructor(options: EmbeddedEngineOptions = {}) {
    const c = config();
    this.o = {
      definitions: options.definitions ?? workflowDefinitions,
      activities: options.activities ?? createActivities(),
      leaseSeconds: options.leaseSeconds ?? c.WORKFLOW_LEASE_SECONDS,
      pollSeconds: options.pollSeconds ?? c.WORKFLOW_POLL_SECONDS,
      retryLimit: options.retryLimit ?? c.WORKFLOW_RETRY_LIMIT,
      retryDelaySeconds: options.retryDelaySeconds ?? c.WORKFLOW_RETRY_DELAY_SECONDS,
      concurrency: options.concurrency ?? c.WORKFLOW_CONCURRENCY,
    };
  }

  private queue(): Promise<PgBoss> {
    this.boss ??= (async () => {
      const db = await database();
      const boss = new PgBoss({
        db: { executeSql: (text, values) => db.executeSql(text, values) },
        // Expiry of jobs whose worker vanished is checked this often (the lease bounds how stale).
        maintenanceIntervalSeconds: Math.min(60, Math.max(1, Math.floor(this.o.leaseSeconds / 2))),
        schedule: false,
      });
      boss.on('error', (error) => log.error('workflow queue error', errorFields(error)));
      await boss.start();
      await boss.createQueue(RUN_QUEUE, { name: RUN_QUEUE, ...this.jobOptions() });
      return boss;
    })().catch((error) => {
      this.boss = undefined;
      throw error;
    });
    return this.boss;
  }

  /** Retries and expiry of each job (set per job, so every process's own settings apply to what it sends). */
  private jobOptions() {
    return { retryLimit: this.o.retryLimit, retryDelay: this.o.retryDelaySeconds, retryBackoff: true, expireInSeconds: this.o.leaseSeconds };
  }

  private async wake(runId: string, at?: Date): Promise<void> {
    const boss = await this.queue();
    await boss.send(RUN_QUEUE, { runId }, { ...this.jobOptions(), ...(at && at.getTime() > now() ? { startAfter: at } : {}) });
  }

  /** Starts executing runs in this process (the app's instrumentation hook, `npm run worker`, tests). */
  async startWorker(): Promise<void> {
    if (this.working) return;
    this.working = true;
    const boss = await this.queue();
    const deps = {
      definitions: this.o.definitions,
      activities: this.o.activities,
      leaseSeconds: this.o.leaseSeconds,
      wake: (runId: string, at?: Date) => this.wake(runId, at),
    };
    for (let i = 0; i < this.o.concurrency; i++) {
      const workerId = await boss.work<{ runId: string }>(
        RUN_QUEUE,
        { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: this.o.pollSeconds },
        async ([job]) => {
          try {
            await executeRun(job.data.runId, { retryCount: job.retryCount, retryLimit: job.retryLimit }, deps);
          } catch (error) {
            log.warn('workflow step failed, will retry', { run_id: job.data.runId, attempt: job.retryCount + 1, ...errorFields(error) });
            throw error;
          }
        },
      );
      this.workers.push(workerId);
    }
  }

  /** A run started in a process that works the queue begins now rather than at the next poll. */
  private async notifyWorkers(): Promise<void> {
    if (this.workers.length === 0) return;
    const boss = await this.queue();
    for (const id of this.workers) boss.notifyWorker(id);
  }

  async start(options: StartOptions) {
    const boss = await this.queue();
    const startTime = new Date(now());
    const { row, created } = await store.insertRun({
      siteId: options.siteId,
      workflowId: options.workflowId,
      type: options.type,
      input: options.input,
      idempotencyKey: options.idempotencyKey,
      startTime,
      timeoutAt: options.timeoutMs ? new Date(startTime.getTime() + options.timeoutMs) : null,
    });
    if (created) {
      try {
        await boss.send(RUN_QUEUE, { runId: row.runId }, this.jobOptions());
      } catch (error) {
        // Without its job the run would never execute: take it back, so nothing half-started stays.
        await store.deleteRun(row.runId);
        throw error;
      }
      await this.notifyWorkers();
    }
    return { workflowId: row.workflowId, runId: row.runId, created };
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
    await this.wake(run.runId);
  }

  async findByIdempotencyKey(siteId: string, key: string) {
    const row = await store.runByIdempotencyKey(siteId, key);
    return row && { workflowId: row.workflowId, runId: row.runId };
  }

  countRunning(siteId: string): Promise<number> {
    return store.countRunning(siteId);
  }

  /** Stops the worker (runs in flight are handed back to the queue) and the queue client. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.workers.length = 0;
    const boss = await this.boss?.catch(() => undefined);
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
  }
}
