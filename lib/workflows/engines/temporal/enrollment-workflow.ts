/**
 * One enrollment of an outreach sequence as a Temporal workflow, on the Temporal engine
 * (docs/PRODUCT.md "Outreach sequences"): it reads what the enrollment waits for, sleeps on a
 * durable timer until the step is due (or until it is woken: a change moved the due time), sends
 * the step in an activity — the same `runStep` and at-most-once claim as the embedded engine's
 * step job — and reads again, until the enrollment ends.
 *
 * A system workflow: the product starts it for itself without the `site_id` search attribute, so
 * it is never one of the site's runs (not in its logs, not under its cap of running workflows,
 * out of reach of the runs API). Runs inside Temporal's sandbox: imports nothing but
 * `@temporalio/workflow` and types.
 */
import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  defineSignal,
  defineUpdate,
  proxyActivities,
  setHandler,
  TimeoutFailure,
} from '@temporalio/workflow';
import type { Activities } from '@/lib/workflows/activities';

export const ENROLLMENT_WORKFLOW = 'sequenceEnrollmentWorkflow';
/** Read the enrollment again now (its due time may have moved). */
export const WAKE_SIGNAL = 'wake';
/** A wake that answers once the enrollment was read after it and the workflow waits again (or ended). */
export const SETTLE_UPDATE = 'settle';

export const enrollmentWorkflowId = (enrollmentId: string) => `sequence-enrollment-${enrollmentId}`;

export interface EnrollmentWorkflowInput {
  siteId: string;
  enrollmentId: string;
  /** How long a send may go without a sign of life (a worker that died is given up on after it), the first retry delay, and the attempts in all. */
  stepTimeoutSeconds: number;
  retryDelaySeconds: number;
  attempts: number;
}

/** With nothing due, the enrollment is read again at least this often (a wake lost between a commit and its job). */
const IDLE_READ_MS = 6 * 60 * 60_000;
/** Reads before the run carries on as a new run (its history stays small). */
const READS_PER_RUN = 200;

export async function sequenceEnrollmentWorkflow(input: EnrollmentWorkflowInput): Promise<void> {
  const { siteId, enrollmentId } = input;
  // Reads and records retry until the database answers.
  const records = proxyActivities<Pick<Activities, 'sequenceNextStep' | 'failSequenceStep'>>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
  });
  // A live worker's send says it is alive (heartbeats, ./worker.ts) however long it takes; a dead one's is retried elsewhere.
  const sender = proxyActivities<Pick<Activities, 'sendSequenceStep'>>({
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: `${input.stepTimeoutSeconds} seconds`,
    retry: { initialInterval: `${input.retryDelaySeconds} seconds`, backoffCoefficient: 2, maximumAttempts: input.attempts },
  });

  let wakes = 0;
  /** Wakes followed by a read of the enrollment (the workflow waits again, or ended). */
  let settled = 0;
  setHandler(defineSignal(WAKE_SIGNAL), () => {
    wakes++;
  });
  setHandler(defineUpdate<void>(SETTLE_UPDATE), async () => {
    const mine = ++wakes;
    await condition(() => settled >= mine);
  });

  async function send(step: number): Promise<void> {
    try {
      await sender.sendSequenceStep(siteId, enrollmentId, step);
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      // Every attempt failed: the enrollment ends failed with the reason, never waits for a step that will not come.
      const cause = error.cause;
      await records.failSequenceStep(
        siteId,
        enrollmentId,
        step,
        cause instanceof TimeoutFailure
          ? 'no answer'
          : {
              attempts: input.attempts,
              reason: cause instanceof ApplicationFailure ? cause.message : 'an internal error (the server log has its cause)',
            },
      );
    }
  }

  let justSent: number | null = null;
  for (let reads = 0; ; reads++) {
    const seen = wakes;
    const next = await records.sequenceNextStep(siteId, enrollmentId);
    if (!next) {
      settled = Number.MAX_SAFE_INTEGER;
      await condition(allHandlersFinished);
      return;
    }
    if (next.in_ms === 0 && next.step !== justSent) {
      justSent = next.step;
      await send(next.step);
      continue;
    }
    if (wakes > seen) continue; // woken while reading: read again
    settled = seen;
    if (reads >= READS_PER_RUN) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof sequenceEnrollmentWorkflow>(input);
    }
    // Due again right after its send (nothing moved it): tried again after the retry delay, never in a loop.
    const waitMs = next.in_ms === 0 ? input.retryDelaySeconds * 1_000 : Math.min(next.in_ms ?? IDLE_READ_MS, IDLE_READ_MS);
    await condition(() => wakes > seen, waitMs);
    justSent = null;
  }
}
