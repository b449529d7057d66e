import { randomBytes } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { describe, inject } from 'vitest';
import { createActivities } from '@/lib/worker/activities';
import { TemporalEngine } from '@/lib/workflows/engines/temporal/engine';
import { createTemporalWorker } from '@/lib/workflows/engines/temporal/worker';
import { describeWorkflowBehaviour } from '../integration/workflows/behaviour';

/**
 * The engine-neutral behaviour suite through the API routes, on Temporal: a real dev server
 * (tests/helpers/temporal-global-setup.ts) and a worker in this process running the catalog and
 * the real activities on this file's database.
 */
const server = inject('temporal');

if (server) {
  describeWorkflowBehaviour('Temporal', async () => {
    Runtime.install({ shutdownSignals: [], logger: new DefaultLogger('ERROR') });
    const settings = { address: server.address, namespace: server.namespace, taskQueue: `behaviour-${randomBytes(6).toString('hex')}` };
    const engine = new TemporalEngine(settings);
    const worker = await createTemporalWorker({ settings, activities: createActivities(), workflowBundle: { code: server.workflowBundle } });
    const running = worker.run();
    return {
      engine,
      stop: async () => {
        worker.shutdown();
        await running;
        await engine.close();
      },
    };
  });
} else {
  describe.skip('workflows on the Temporal engine (no temporal CLI; see docs/OPERATIONS.md "Running with Temporal")', () => {});
}
