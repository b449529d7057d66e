/**
 * Background work, declared. Everything the product does later or periodically — webhook
 * deliveries, workflow runs, robot expiry, the deadline of a running command, retention — is one
 * of three kinds of definition, run by one mechanism: the queues and schedules of pg-boss on the
 * app's own database (`./queue.ts` enqueues, `./worker.ts` works them in the worker process).
 *
 * - `defineJob`: work that happens once per enqueue — `enqueue(job, data, { tx, startAfter })`.
 *   Retried with backoff when it throws; a worker that dies mid-job is noticed when the job's
 *   expiry passes (kept ahead while the job runs), and the job runs again. So a job's `run` is
 *   written to be repeated: idempotent, or checking what an earlier attempt left before it acts.
 * - `defineSchedule`: one job per cron tick, once across all workers (pg-boss schedules).
 * - `defineSiteSchedule`: one job per site and interval (default or per site), e.g. a mailbox
 *   sync every 15 minutes: a tick every minute enqueues the site's job at most once per window.
 *
 * A new job is a definition plus one line in the worker's list (`lib/worker/jobs.ts`): no table,
 * timer or sweeper of its own.
 */

import type { Db } from '@/lib/db/client';

/** pg-boss's schema in the app database. */
export const JOB_SCHEMA = 'pgboss';

/** How the queue treats each job; read when the job is sent and when a worker starts. */
export interface JobOptions {
  /**
   * The longest one attempt may go without a sign of life. The worker renews it while the job
   * runs; a job whose worker died is retried once it passes. Default 60 s.
   */
  expireInSeconds?: number;
  /** Attempts after the first when `run` throws or its worker dies (default 3). */
  retryLimit?: number;
  /** Seconds before the first retry, doubling with each (default 2). */
  retryDelaySeconds?: number;
  /** Jobs of this queue one worker process runs at once (default 1). */
  concurrency?: number;
  /** How often an idle worker looks for jobs, in seconds (default 1; jobs sent by a web process that started the worker wake it at once). */
  pollSeconds?: number;
}

export interface JobContext {
  /** The job's id in the queue. */
  readonly id: string;
  /** 0 on the first attempt. */
  readonly attempt: number;
  /** Attempts after the first this job may still get. */
  readonly retryLimit: number;
  /**
   * Aborted when the job is no longer this worker's (its expiry passed, it was cancelled) or the
   * worker stops: stop acting and do not record anything.
   */
  readonly signal: AbortSignal;
  /**
   * Completes the job with the caller's transaction, so the job ends exactly when the work it
   * records commits (one commit instead of two); the worker then writes nothing more for it.
   * Absent when the handler is called outside a worker (nothing to complete).
   */
  completeWith?(tx: Db): Promise<void>;
}

/** A named queue and how its jobs are treated: what a producer needs to enqueue. */
export interface JobQueue<D> {
  readonly name: string;
  readonly options?: () => JobOptions;
  /** Type carrier only. */
  readonly __data?: D;
}

export interface JobDefinition<D> extends JobQueue<D> {
  readonly kind: 'job';
  run(data: D, ctx: JobContext): Promise<void>;
  /**
   * Called once when the job failed for good (its retries ran out, by errors or by workers that
   * died), so nothing is silently lost: record the failure where a user sees it.
   */
  exhausted?(data: D, reason: string): Promise<void>;
}

export interface ScheduleDefinition {
  readonly kind: 'schedule';
  readonly name: string;
  /** Five-field cron in UTC (minute granularity), e.g. `17 * * * *` for hourly. */
  readonly cron: string;
  readonly options?: () => JobOptions;
  run(ctx: JobContext): Promise<void>;
}

export interface SiteScheduleDefinition {
  readonly kind: 'siteSchedule';
  readonly name: string;
  /** Default interval of each site, in minutes (1–1440). */
  readonly everyMinutes: number;
  /** The sites taking part, each with its own interval when it differs from the default. */
  sites(): Promise<{ siteId: string; everyMinutes?: number }[]>;
  readonly options?: () => JobOptions;
  run(siteId: string, ctx: JobContext): Promise<void>;
}

export type BackgroundJob = JobDefinition<any> | ScheduleDefinition | SiteScheduleDefinition;

const NAME = /^[a-z][a-z0-9-]{1,60}$/;

function checkName(name: string): void {
  if (!NAME.test(name)) throw new Error(`Job name must be lower-case letters, digits and hyphens: ${name}`);
}

export function defineJob<D>(definition: Omit<JobDefinition<D>, 'kind'>): JobDefinition<D> {
  checkName(definition.name);
  return { ...definition, kind: 'job' };
}

/** A queue whose jobs some other module runs (the handler is bound by the worker entry). */
export function defineQueue<D>(name: string, options?: () => JobOptions): JobQueue<D> {
  checkName(name);
  return { name, options };
}

export function defineSchedule(definition: Omit<ScheduleDefinition, 'kind'>): ScheduleDefinition {
  checkName(definition.name);
  return { ...definition, kind: 'schedule' };
}

export function defineSiteSchedule(definition: Omit<SiteScheduleDefinition, 'kind'>): SiteScheduleDefinition {
  checkName(definition.name);
  if (!Number.isInteger(definition.everyMinutes) || definition.everyMinutes < 1 || definition.everyMinutes > 1440) {
    throw new Error(`everyMinutes of ${definition.name} must be an integer 1–1440`);
  }
  return { ...definition, kind: 'siteSchedule' };
}

export const DEFAULT_OPTIONS: Required<JobOptions> = {
  expireInSeconds: 60,
  retryLimit: 3,
  retryDelaySeconds: 2,
  concurrency: 1,
  pollSeconds: 1,
};

export const optionsOf = (queue: { options?: () => JobOptions }): Required<JobOptions> => ({ ...DEFAULT_OPTIONS, ...queue.options?.() });

/** The queue of a site schedule's per-site jobs. */
export const siteQueueName = (schedule: Pick<SiteScheduleDefinition, 'name'>) => `${schedule.name}-site`;
/** The dead-letter queue of a job with an `exhausted` handler. */
export const exhaustedQueueName = (job: Pick<JobDefinition<unknown>, 'name'>) => `${job.name}-exhausted`;
