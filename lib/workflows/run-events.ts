import { onAnnouncement } from '@/lib/db/announcements';
import type { Db } from '@/lib/db/client';
import { lockedTransaction } from '@/lib/db/lock';
import type { EventType } from '@/lib/webhooks/events';
import { recordEvent } from '@/lib/webhooks/service';
import type { WorkflowRecord } from './engine';
import { announceRunEnd } from './repo';

const RUN_ENDS = 'workflow_run_ends';
/** Announcements carry at most this much (Postgres refuses 8000 bytes and more): a bigger record is announced by its id. */
const MAX_ANNOUNCED = 7_000;

/** A run's end as announced: its id, and its record when it was small enough to go along. */
interface RunEnd {
  workflowId: string;
  record?: WorkflowRecord;
}

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
  if (!tx) return lockedTransaction([], (own) => recordRunEnd(record, siteId, own));
  const whole = JSON.stringify({ workflowId: record.workflowId, record });
  await announceRunEnd(tx, RUN_ENDS, whole.length <= MAX_ANNOUNCED ? whole : JSON.stringify({ workflowId: record.workflowId }));
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

/**
 * Calls `listener` with each run's end as it commits, on either engine (lib/db/announcements.ts);
 * with `undefined` when ends may have been missed. Resolves once it listens; answers its stop.
 */
export const onRunEnd = (listener: (end: RunEnd | undefined) => void): Promise<() => void> =>
  onAnnouncement(RUN_ENDS, (payload) => listener(payload === undefined ? undefined : (JSON.parse(payload) as RunEnd)));
