import { randomBytes } from 'node:crypto';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { describe, inject } from 'vitest';
import { config, resetConfig } from '@/lib/core/config';
import { STEP_RETRY_LIMIT } from '@/lib/sequences/queue';
import { startBackgroundWork } from '@/lib/worker';
import { createActivities } from '@/lib/worker/activities';
import { enrollmentWorkflowId, SETTLE_UPDATE } from '@/lib/workflows/engines/temporal/enrollment-workflow';
import { enrollmentWorkflows } from '@/lib/workflows/engines/temporal/enrollments';
import { temporalSettings } from '@/lib/workflows/engines/temporal/settings';
import { createTemporalWorker } from '@/lib/workflows/engines/temporal/worker';
import { describeSequenceBehaviour } from '../integration/sequences/behaviour';

/**
 * The sequences' behaviour suite on Temporal: a real dev server (tests/helpers/temporal-global-setup.ts),
 * the app configured for it (each enrollment a workflow) and a worker in this process running the
 * enrollments' workflows with the real activities on this file's database. A step due by the test
 * clock runs when its workflow is woken — as a change of its due time wakes it — and the suite
 * waits (a workflow update) until the workflow read the enrollment and waits again.
 */
const server = inject('temporal');

if (server) {
  describeSequenceBehaviour('Temporal', async () => {
    Runtime.install({ shutdownSignals: [], logger: new DefaultLogger('ERROR') });
    process.env.TEMPORAL_ADDRESS = server.address;
    process.env.TEMPORAL_NAMESPACE = server.namespace;
    process.env.TEMPORAL_TASK_QUEUE = `sequences-${randomBytes(6).toString('hex')}`;
    resetConfig();
    const settings = temporalSettings(config())!;
    const workflowBundle = { code: server.workflowBundle };
    const worker = await createTemporalWorker({ settings, activities: createActivities(), workflowBundle });
    const running = worker.run();
    const enrollments = enrollmentWorkflows(settings, STEP_RETRY_LIMIT + 1);
    const connection = await Connection.connect({ address: server.address });
    const client = new Client({ connection, namespace: server.namespace });

    async function settle(enrollmentId: string): Promise<void> {
      const handle = client.workflow.getHandle(enrollmentWorkflowId(enrollmentId));
      try {
        await handle.executeUpdate(SETTLE_UPDATE);
      } catch (error) {
        // The enrollment ended and its workflow with it.
        if (error instanceof WorkflowNotFoundError || (await handle.describe()).status.name !== 'RUNNING') return;
        throw error;
      }
    }

    return {
      async due(siteId, enrollmentIds) {
        await Promise.all(
          enrollmentIds.map(async (id) => {
            await enrollments.wake(siteId, id);
            await settle(id);
          }),
        );
      },
      background: () => startBackgroundWork({ workflowBundle }),
      async stop() {
        worker.shutdown();
        await running;
        await enrollments.close();
        await connection.close();
        for (const name of ['TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'TEMPORAL_TASK_QUEUE']) delete process.env[name];
        resetConfig();
      },
    };
  });
} else {
  describe.skip('sequences on the Temporal engine (no temporal CLI; see docs/OPERATIONS.md "Running with Temporal")', () => {});
}
