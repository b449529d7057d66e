import { getDb, type Db } from '@/lib/db/client';
import { recordEvent, type EventType } from '@/lib/webhooks/events';
import type { WorkflowRecord } from './engine';

/**
 * The single place a run's end becomes a webhook event, for both engines: the embedded engine
 * calls it in the transaction that closes the run; on Temporal the workflow's last step records
 * it (an activity, retried until it lands; the dedupe key keeps one event per run).
 * COMPLETED → workflow.completed; CANCELLED → workflow.cancelled; FAILED, TIMED_OUT and
 * TERMINATED → workflow.failed (`data.status` tells which).
 */
export function runEventType(status: WorkflowRecord['status']): EventType | undefined {
  if (status === 'COMPLETED') return 'workflow.completed';
  if (status === 'CANCELLED') return 'workflow.cancelled';
  if (status === 'FAILED' || status === 'TIMED_OUT' || status === 'TERMINATED') return 'workflow.failed';
  return undefined;
}

/** Records the run's end with `tx` (the transaction that closes the run), or in a transaction of its own. */
export async function recordRunEnd(record: WorkflowRecord, siteId: string, tx?: Db): Promise<void> {
  const type = runEventType(record.status);
  if (!type) return;
  if (!tx) return (await getDb()).transaction((own) => recordRunEnd(record, siteId, own));
  await recordEvent(
    tx,
    siteId,
    type,
    {
      workflow_id: record.workflowId,
      run_id: record.runId,
      workflow_type: record.type,
      status: record.status,
      start_time: record.startTime,
      close_time: record.closeTime ?? null,
      ...(record.result !== undefined ? { result: record.result } : {}),
      ...(record.failure ? { failure: { message: record.failure.message } } : {}),
    },
    `run:${record.runId}`,
  );
}
