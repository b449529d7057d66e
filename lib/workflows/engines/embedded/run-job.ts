import { now } from '@/lib/core/clock';
import { defineJob, type JobDefinition } from '@/lib/jobs/define';
import type { WorkflowDefinition } from '@/lib/workflows/definition';
import { engineFailure } from '@/lib/workflows/failure';
import { RUN_QUEUE, wakeRun } from './index';
import { executeRun } from './runner';
import { closeRun } from './steps-repo';

/**
 * The embedded engine's worker side: the `workflow-run` queue bound to the definitions and the
 * activities it executes. Only worker entries build it (they hold the activities). A run whose
 * job failed for good — its workers died or failed every attempt — is closed FAILED, never left
 * RUNNING.
 */
export function workflowRunJob(deps: {
  definitions: Record<string, WorkflowDefinition<any, any, any>>;
  activities: object;
}): JobDefinition<{ runId: string }> {
  return defineJob({
    ...RUN_QUEUE,
    run: (data, ctx) => executeRun(data.runId, ctx, { ...deps, queue: RUN_QUEUE.name, wake: wakeRun }),
    async exhausted(data, reason) {
      await closeRun(data.runId, 'FAILED', new Date(now()), {
        failure: engineFailure(`WORKER_LOST: the run's job failed for good (${reason})`),
      });
    },
  });
}
