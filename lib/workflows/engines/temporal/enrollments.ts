import { Client, Connection } from '@temporalio/client';
import { config } from '@/lib/core/config';
import { ENROLLMENT_WORKFLOW, enrollmentWorkflowId, WAKE_SIGNAL, type EnrollmentWorkflowInput } from './enrollment-workflow';
import { connectionOptions, type TemporalSettings } from './settings';

export interface EnrollmentWorkflows {
  /**
   * Starts the enrollment's workflow, or wakes the running one to read its enrollment again. One
   * workflow per enrollment (its id names the enrollment), so waking twice never starts two; one
   * that ended is started again and ends at once when the enrollment has ended.
   */
  wake(siteId: string, enrollmentId: string): Promise<void>;
  close(): Promise<void>;
}

/** The client of the enrollments' workflows (`./enrollment-workflow.ts`), for the worker's `sequence-enrollment` job. */
export function enrollmentWorkflows(settings: TemporalSettings, attempts: number): EnrollmentWorkflows {
  const connection = Connection.lazy(connectionOptions(settings));
  const client = new Client({ connection, namespace: settings.namespace });
  return {
    async wake(siteId, enrollmentId) {
      const input: EnrollmentWorkflowInput = {
        siteId,
        enrollmentId,
        stepTimeoutSeconds: config().SEQUENCE_STEP_TIMEOUT_SECONDS,
        retryDelaySeconds: config().SEQUENCE_STEP_RETRY_DELAY_SECONDS,
        attempts,
      };
      await client.workflow.signalWithStart(ENROLLMENT_WORKFLOW, {
        taskQueue: settings.taskQueue,
        workflowId: enrollmentWorkflowId(enrollmentId),
        args: [input],
        signal: WAKE_SIGNAL,
        signalArgs: [],
        // No site_id attribute: a system workflow, never one of the site's runs.
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
    },
    close: () => connection.close(),
  };
}
