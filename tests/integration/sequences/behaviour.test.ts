import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { sequenceEnrollments } from '@/lib/db/schema';
import { runStep } from '@/lib/sequences/send';
import { startBackgroundWork } from '@/lib/worker';
import { describeSequenceBehaviour } from './behaviour';

/**
 * The sequences' behaviour suite on the embedded engine: a step due now runs as its job runs it
 * (`sequence-step`, with the step the enrollment waits for); the worker's queues send by themselves.
 */
describeSequenceBehaviour('embedded', async () => ({
  async due(siteId, enrollmentIds) {
    for (const id of enrollmentIds) {
      const [row] = await (await getDb()).select().from(sequenceEnrollments).where(eq(sequenceEnrollments.id, id));
      await runStep(siteId, id, row.nextStep);
    }
  },
  background: () => startBackgroundWork(),
  stop: async () => {},
}));
