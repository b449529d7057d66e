/**
 * Turns an engine-neutral definition (`lib/workflows/definition.ts`) into a Temporal workflow
 * function. Runs inside Temporal's deterministic sandbox: imports nothing but
 * `@temporalio/workflow`, `@temporalio/common` and pure modules.
 */
import {
  ApplicationFailure,
  CancellationScope,
  condition,
  defineSignal,
  isCancellation,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { Activities, RunEnd } from '@/lib/workflows/activities';
import { WorkflowFailedError, type WorkflowContext, type WorkflowDefinition } from '@/lib/workflows/definition';
import { SITE_ID_ATTRIBUTE } from './site-attribute';

/**
 * Every activity call is one step: retried with exponential backoff on transient errors (the
 * embedded engine's defaults: 3 retries from 2 s, doubling), never when it reports a deliberate
 * failure (WorkflowFailedError, e.g. a service not configured). Workflow code cannot read config,
 * so on Temporal this policy is fixed here.
 */
export const ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 4,
    nonRetryableErrorTypes: ['WorkflowFailedError'],
  },
};

export type TemporalWorkflow<I, O> = (input: I) => Promise<O>;

export function temporalWorkflow<A, I, O>(definition: WorkflowDefinition<A, I, O>): TemporalWorkflow<I, O> {
  return async (input: I) => {
    const info = workflowInfo();
    const siteId = info.typedSearchAttributes.get(SITE_ID_ATTRIBUTE);
    if (!siteId) throw ApplicationFailure.nonRetryable('The run has no site_id search attribute', 'MissingSiteId');
    const activities = proxyActivities(ACTIVITY_OPTIONS);
    const ctx: WorkflowContext<A> = {
      workflowId: info.workflowId,
      siteId,
      activities: activities as unknown as A,
      sleep: (ms) => sleep(ms),
      waitForSignal: signalInbox(),
    };
    // The run's end becomes a webhook event (lib/workflows/run-events.ts) in a last activity step,
    // retried until it lands; runs terminated or timed out by the cluster run no code and send none.
    const recordEnd = (end: Pick<RunEnd, 'status' | 'result' | 'failure'>) =>
      (activities as unknown as Pick<Activities, 'recordRunEnd'>).recordRunEnd(siteId, {
        workflow_id: info.workflowId,
        run_id: info.runId,
        workflow_type: info.workflowType,
        start_time: info.runStartTime.toISOString(),
        ...end,
      });
    let result: O;
    try {
      result = await definition(ctx, input);
    } catch (error) {
      if (isCancellation(error)) {
        await CancellationScope.nonCancellable(() =>
          recordEnd({ status: 'CANCELLED', failure: { message: 'CANCELLED: the run was cancelled on request' } }),
        );
        throw error;
      }
      const failure = runFailure(error);
      await recordEnd({ status: 'FAILED', failure: { message: failure instanceof Error ? failure.message : String(failure) } });
      throw failure;
    }
    await recordEnd({ status: 'COMPLETED', result });
    return result;
  };
}

/**
 * Signals are queued per name from the first wait on; Temporal buffers the ones that arrive
 * before any handler exists and hands them over when the handler is set.
 */
function signalInbox(): WorkflowContext<unknown>['waitForSignal'] {
  const queues = new Map<string, unknown[]>();
  return async <T>(name: string, timeoutMs?: number) => {
    let queue = queues.get(name);
    if (!queue) {
      const created: unknown[] = [];
      setHandler(defineSignal<[unknown]>(name), (payload) => void created.push(payload));
      queues.set(name, created);
      queue = created;
    }
    const ready = () => queue.length > 0;
    if (timeoutMs === undefined) await condition(ready);
    else if (timeoutMs <= 0 || !(await condition(ready, timeoutMs))) {
      if (!ready()) return undefined;
    }
    return queue.shift() as T;
  };
}

/**
 * A plain Error thrown by workflow code only fails the workflow *task*, which Temporal retries
 * forever; the run must end FAILED instead. Cancellation passes through (→ CANCELLED). The
 * message is the root cause's (an activity's "MODEL_NOT_CONFIGURED: …" rather than "Activity
 * task failed"); the original error stays attached as the cause chain.
 */
function runFailure(error: unknown): unknown {
  if (isCancellation(error)) return error;
  if (error instanceof ApplicationFailure && error.nonRetryable) return error;
  const root = rootCause(error);
  const type =
    error instanceof WorkflowFailedError
      ? error.code
      : root instanceof ApplicationFailure && root.type
        ? root.type
        : root instanceof Error
          ? root.name
          : 'Error';
  return ApplicationFailure.create({
    message: root instanceof Error ? root.message : String(root),
    type,
    nonRetryable: true,
    cause: error instanceof Error ? error : undefined,
  });
}

function rootCause(error: unknown): unknown {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current;
}
