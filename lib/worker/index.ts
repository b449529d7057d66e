import { config } from '@/lib/core/config';
import { log } from '@/lib/core/log';
import type { BackgroundJob } from '@/lib/jobs/define';
import { startJobWorker } from '@/lib/jobs/worker';
import { STEP_RETRY_LIMIT } from '@/lib/sequences/queue';
import type { EnrollmentWorkflows } from '@/lib/workflows/engines/temporal/enrollments';
import { temporalSettings } from '@/lib/workflows/engines/temporal/settings';
import type { TemporalWorker } from '@/lib/workflows/engines/temporal/worker';
import { createActivities } from './activities';
import { backgroundJobs } from './jobs';

/**
 * The worker's composition root: the one module that builds the activities implementation and
 * binds it — to the embedded engine's run queue, or to a Temporal worker — next to every other
 * background job. Entries: `npm run worker` (scripts/worker.ts, also the process the server
 * starts beside itself) and the test suites. The web process never imports this module.
 */
export interface BackgroundWork {
  /** Starts a queue's next job now (a job was just sent to it). */
  wake(queue: string): void;
  /** Stops taking work and lets what is in flight finish (up to `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

export interface BackgroundOptions {
  /** Instead of the product's jobs (tests of one job). */
  jobs?: BackgroundJob[];
  /** Run a Temporal worker when TEMPORAL_ADDRESS is set (default true). */
  temporal?: boolean;
  maintenanceIntervalSeconds?: number;
  /** A ready Temporal workflow bundle (tests: bundled once per run); else the worker bundles its own. */
  workflowBundle?: { code: string };
}

export async function startBackgroundWork(o: BackgroundOptions = {}): Promise<BackgroundWork> {
  const activities = createActivities();
  const settings = temporalSettings(config());
  // On Temporal each enrollment of a sequence is a workflow; its client loads on the first wake.
  let enrollments: Promise<EnrollmentWorkflows> | undefined;
  const wakeEnrollment = settings
    ? async (siteId: string, enrollmentId: string) => {
        enrollments ??= import('@/lib/workflows/engines/temporal/enrollments').then((m) => m.enrollmentWorkflows(settings, STEP_RETRY_LIMIT + 1));
        await (await enrollments).wake(siteId, enrollmentId);
      }
    : undefined;
  const jobs = o.jobs ?? backgroundJobs({ activities, embeddedRuns: !settings, wakeEnrollment });
  const queues = await startJobWorker(jobs, { maintenanceIntervalSeconds: o.maintenanceIntervalSeconds });
  let temporal: { worker: TemporalWorker; running: Promise<void> } | undefined;
  if (settings && o.temporal !== false) {
    // The Temporal worker's native runtime and bundler (~50 MB resident) load only where a cluster is configured.
    const { createTemporalWorker } = await import('@/lib/workflows/engines/temporal/worker');
    const worker = await createTemporalWorker({ settings, activities, workflowBundle: o.workflowBundle });
    temporal = { worker, running: worker.run() };
    log.info('temporal worker: polling', { address: settings.address, namespace: settings.namespace, taskQueue: settings.taskQueue });
  }
  return {
    wake: queues.wake,
    async stop(graceMs) {
      temporal?.worker.shutdown();
      await Promise.all([queues.stop(graceMs), temporal?.running.catch(() => undefined)]);
      await (await enrollments?.catch(() => undefined))?.close();
    },
  };
}
