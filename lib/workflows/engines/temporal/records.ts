import { defaultPayloadConverter } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { WorkflowFailure, WorkflowRecord, WorkflowStatus } from '@/lib/workflows/engine';
import { engineFailure } from '@/lib/workflows/failure';

/** Reading Temporal's raw visibility and history messages into the records of spec §2.10. */
type ExecutionInfo = temporal.api.workflow.v1.IWorkflowExecutionInfo;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
type Payload = temporal.api.common.v1.IPayload;
type Timestamp = { seconds?: number | { toNumber(): number } | null; nanos?: number | null } | null | undefined;

const Status = temporal.api.enums.v1.WorkflowExecutionStatus;

const STATUS: Partial<Record<number, WorkflowStatus>> = {
  [Status.WORKFLOW_EXECUTION_STATUS_RUNNING]: 'RUNNING',
  [Status.WORKFLOW_EXECUTION_STATUS_COMPLETED]: 'COMPLETED',
  // A run that continued as new finished its part of the work.
  [Status.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW]: 'COMPLETED',
  [Status.WORKFLOW_EXECUTION_STATUS_FAILED]: 'FAILED',
  [Status.WORKFLOW_EXECUTION_STATUS_CANCELED]: 'CANCELLED',
  [Status.WORKFLOW_EXECUTION_STATUS_TERMINATED]: 'TERMINATED',
  [Status.WORKFLOW_EXECUTION_STATUS_TIMED_OUT]: 'TIMED_OUT',
};

/** The `ExecutionStatus` values of Temporal's visibility query language. */
export const QUERY_STATUS: Record<WorkflowStatus, string> = {
  RUNNING: 'Running',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
  CANCELLED: 'Canceled',
  TERMINATED: 'Terminated',
  TIMED_OUT: 'TimedOut',
};

export function statusOf(info: ExecutionInfo): WorkflowStatus {
  return STATUS[info.status ?? 0] ?? 'RUNNING';
}

export function decodePayload(payload: Payload | null | undefined): unknown {
  return payload ? defaultPayloadConverter.fromPayload(payload as never) : undefined;
}

/** The run's `site_id` search attribute, or undefined when it carries none. */
export function siteIdOf(info: ExecutionInfo): string | undefined {
  const value = decodePayload(info.searchAttributes?.indexedFields?.site_id);
  // Keyword attributes may come back as a one-element list.
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

function toDate(ts: Timestamp): Date | undefined {
  if (!ts || ts.seconds === null || ts.seconds === undefined) return undefined;
  const seconds = typeof ts.seconds === 'number' ? ts.seconds : ts.seconds.toNumber();
  return new Date(seconds * 1000 + Math.floor((ts.nanos ?? 0) / 1e6));
}

/** What only the close event holds: the result, or why the run did not complete. */
export interface CloseDetails {
  result?: unknown;
  failure?: WorkflowFailure;
}

/** Failures recorded as the embedded engine records them (`lib/workflows/failure.ts`). */
export function closeDetails(event: HistoryEvent | undefined): CloseDetails {
  if (!event) return {};
  if (event.workflowExecutionCompletedEventAttributes) {
    return { result: decodePayload(event.workflowExecutionCompletedEventAttributes.result?.payloads?.[0]) };
  }
  if (event.workflowExecutionFailedEventAttributes?.failure) {
    return { failure: failureRecord(event.workflowExecutionFailedEventAttributes.failure) };
  }
  if (event.workflowExecutionCanceledEventAttributes) return { failure: engineFailure('CANCELLED: the run was cancelled on request') };
  if (event.workflowExecutionTerminatedEventAttributes) {
    return { failure: engineFailure(`TERMINATED: ${event.workflowExecutionTerminatedEventAttributes.reason || 'no reason given'}`) };
  }
  if (event.workflowExecutionTimedOutEventAttributes) {
    return { failure: engineFailure('TIMED_OUT: the run did not finish by its deadline') };
  }
  return {};
}

/**
 * Spec §2.10: the run's failure message, and as `cause` the innermost failure with where it was
 * raised (`activity:<name>` when an activity failed, else `workflow`) and its stack.
 */
export function failureRecord(failure: temporal.api.failure.v1.IFailure): WorkflowFailure {
  let root = failure;
  let activity: string | undefined;
  for (;;) {
    activity = root.activityFailureInfo?.activityType?.name ?? activity;
    if (!root.cause) break;
    root = root.cause;
  }
  return {
    message: failure.message ?? '',
    cause: { message: root.message ?? '', source: activity ? `activity:${activity}` : 'workflow', stackTrace: root.stackTrace ?? '' },
  };
}

export function toRecord(info: ExecutionInfo, details: CloseDetails): WorkflowRecord {
  const startTime = toDate(info.startTime) ?? new Date(0);
  const closeTime = toDate(info.closeTime);
  const record: WorkflowRecord = {
    workflowId: info.execution?.workflowId ?? '',
    runId: info.execution?.runId ?? '',
    type: info.type?.name ?? '',
    status: statusOf(info),
    startTime: startTime.toISOString(),
    input: decodePayload(info.memo?.fields?.input) ?? null,
  };
  if (closeTime) {
    record.closeTime = closeTime.toISOString();
    record.executionTime = closeTime.getTime() - startTime.getTime();
  }
  if (details.result !== undefined) record.result = details.result;
  if (details.failure) record.failure = details.failure;
  return record;
}
