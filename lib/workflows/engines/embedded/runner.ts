import { now } from '@/lib/core/clock';
import type { JobContext } from '@/lib/jobs/define';
import { WorkflowFailedError, type WorkflowContext, type WorkflowDefinition } from '@/lib/workflows/definition';
import type { WorkflowFailure, WorkflowStatus } from '@/lib/workflows/engine';
import { engineFailure, failureOf, isWorkflowFailed } from '@/lib/workflows/failure';
import { runById, type RunRow } from './runs-repo';
import { consumeSignal } from './signals-repo';
import {
  type Checkpoint,
  closeRun,
  completeStep,
  completeStepThenState,
  holdRun,
  openStep,
  releaseRun,
  type RunState,
  runState,
  type StepRow,
} from './steps-repo';

/**
 * Executes one run of the embedded engine, from its start or from where it stopped. Every step
 * (activity call, timer, signal wait) gets the next index; a step already checkpointed is answered
 * from its record, so a run resumed after a crash does not redo completed steps. A timer or a
 * signal wait that cannot complete yet suspends the run: the job ends and the run is woken later.
 */
export interface RunnerDeps {
  definitions: Record<string, WorkflowDefinition<any, any, any>>;
  activities: object;
  /** The queue whose jobs execute runs (a run is held by one active job of it at a time). */
  queue: string;
  /** Queues the run's next execution, at `at` or now. */
  wake(runId: string, at?: Date): Promise<void>;
}

/** The run waits (timer, signal): its job ends, and it is woken at `wakeAt` (or by a signal). */
class Suspend {
  constructor(readonly wakeAt: Date | null) {}
}
/** The run ended under us (cancelled, terminated, timed out): stop without writing anything. */
class Halt {}

const date = () => new Date(now());
const BUSY_RETRY_MS = 2_000;

const timedOut = (run: RunRow) => engineFailure(`TIMED_OUT: the run did not finish by its deadline (${run.timeoutAt?.toISOString()})`);

/** JSON in, JSON out: what a step returns the first time is exactly what its record replays. */
const roundTrip = (value: unknown) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
const unwrap = (result: unknown) => (result && typeof result === 'object' && 'value' in result ? (result as { value: unknown }).value : undefined);

/**
 * Executes the run as the job `job` (ctx: its id, attempt and abort signal). Activity errors are
 * retried by the job's retries until the last one.
 */
export async function executeRun(runId: string, job: JobContext, deps: RunnerDeps): Promise<void> {
  const held = await holdRun(runId, deps.queue, job.id);
  if (!held) {
    const current = await runById(runId);
    if (!current || current.status !== 'RUNNING') return;
    if (current.timeoutAt && current.timeoutAt.getTime() <= now()) {
      await closeRun(runId, 'TIMED_OUT', date(), { failure: timedOut(current) });
      return;
    }
    // Another job holds the run (a signal arrived while it works, or its worker died and the
    // queue has not expired its job yet): look again later.
    await deps.wake(runId, new Date(now() + BUSY_RETRY_MS));
    return;
  }
  const { run } = held;
  // The run's end commits with its job's completion: one transaction, and nothing left for the worker to write.
  const finish = (status: Exclude<WorkflowStatus, 'RUNNING'>, outcome: { result?: unknown; failure?: WorkflowFailure }, checkpoint?: Checkpoint) =>
    closeRun(runId, status, date(), outcome, { checkpoint, within: job.completeWith });
  if (run.timeoutAt && run.timeoutAt.getTime() <= now()) {
    await finish('TIMED_OUT', { failure: timedOut(run) });
    return;
  }
  const definition = deps.definitions[run.type];
  if (!definition) {
    await finish('FAILED', { failure: engineFailure(`UNKNOWN_WORKFLOW_TYPE: no definition for ${run.type} in this worker`) });
    return;
  }

  const steps = new Map(held.steps.map((s) => [s.step, s]));
  let next = 0;
  let source = 'workflow';
  let interrupt!: (reason: Suspend | Halt) => void;
  const interrupted = new Promise<never>((_, reject) => (interrupt = reject));
  // Stops the definition where it stands: its pending promise is never settled.
  const pause = (reason: Suspend | Halt): Promise<never> => {
    interrupt(reason);
    return new Promise<never>(() => {});
  };
  const base = (step: number, kind: StepRow['kind'], name: string) => ({ runId, step, siteId: run.siteId, kind, name });
  /**
   * The checkpoint of the last completed activity, written with whatever the run does next — the
   * check before its next step, or the transaction that ends the run — instead of a commit of its
   * own. A crash before it lands repeats that activity, as a crash right after the activity did.
   */
  let pending: Checkpoint | undefined;
  const flush = async () => {
    const checkpoint = pending;
    pending = undefined;
    if (checkpoint) await completeStep(checkpoint);
  };
  // The state the hold just read: the first step's check needs no read of its own.
  let known: RunState | undefined = run;

  const recorded = (step: number, kind: StepRow['kind'], name: string) => {
    const s = steps.get(step);
    if (s && (s.kind !== kind || s.name !== name)) {
      throw new WorkflowFailedError('NON_DETERMINISTIC', `step ${step} was ${s.kind} ${s.name} and is now ${kind} ${name}`);
    }
    return s;
  };

  /**
   * Before a step does anything: the job is still this worker's, the run still RUNNING and within
   * its deadline (read with the pending checkpoint's write, or just read by the hold).
   */
  const guard = async () => {
    if (job.signal.aborted) return pause(new Halt());
    const checkpoint = pending;
    pending = undefined;
    const state = checkpoint ? await completeStepThenState(checkpoint) : (known ?? (await runState(runId)));
    known = undefined;
    if (!state || state.status !== 'RUNNING' || state.heldBy !== job.id) return pause(new Halt());
    if (state.timeoutAt && state.timeoutAt.getTime() <= now()) {
      await finish('TIMED_OUT', { failure: timedOut(run) });
      return pause(new Halt());
    }
  };

  const activity = async (name: string, args: unknown[]) => {
    const step = next++;
    const s = recorded(step, 'activity', name);
    if (s?.completed) return unwrap(s.result);
    if (args[0] !== run.siteId) throw new WorkflowFailedError('SITE_MISMATCH', `activity ${name} was called for another site`);
    const fn = (deps.activities as Record<string, unknown>)[name];
    if (typeof fn !== 'function') throw new WorkflowFailedError('UNKNOWN_ACTIVITY', `no activity named ${name}`);
    await guard();
    source = `activity:${name}`;
    // However long the step, the run stays this worker's: its job is kept active while it works.
    const value = roundTrip(await fn.apply(deps.activities, args));
    if (job.signal.aborted) return pause(new Halt());
    source = 'workflow';
    pending = { ...base(step, 'activity', name), value, at: date() };
    return value;
  };

  const sleep = async (ms: number) => {
    const step = next++;
    const s = recorded(step, 'sleep', 'sleep');
    if (s?.completed) return;
    await flush();
    const wakeAt = s?.wakeAt ?? new Date(now() + Math.max(0, ms));
    if (!s) await openStep({ ...base(step, 'sleep', 'sleep'), wakeAt });
    if (wakeAt.getTime() > now()) return pause(new Suspend(wakeAt));
    await guard();
    await completeStep({ ...base(step, 'sleep', 'sleep'), value: undefined, at: date() });
  };

  const waitForSignal = async <T>(name: string, timeoutMs?: number): Promise<T | undefined> => {
    const step = next++;
    const s = recorded(step, 'signal', name);
    if (s?.completed) return unwrap(s.result) as T | undefined;
    await flush();
    const wakeAt = s ? s.wakeAt : timeoutMs !== undefined ? new Date(now() + Math.max(0, timeoutMs)) : null;
    if (!s) await openStep({ ...base(step, 'signal', name), wakeAt });
    await guard();
    const signal = await consumeSignal(runId, name, step);
    if (signal) {
      const payload = roundTrip(signal.payload);
      await completeStep({ ...base(step, 'signal', name), value: payload, at: date() });
      return payload as T;
    }
    if (wakeAt && wakeAt.getTime() <= now()) {
      await completeStep({ ...base(step, 'signal', name), value: undefined, at: date() });
      return undefined;
    }
    return pause(new Suspend(wakeAt));
  };

  const ctx: WorkflowContext<unknown> = {
    workflowId: run.workflowId,
    siteId: run.siteId,
    activities: new Proxy({}, { get: (_target, name) => (typeof name === 'string' ? (...args: unknown[]) => activity(name, args) : undefined) }),
    sleep,
    waitForSignal,
  };

  try {
    const result = await Promise.race([definition(ctx, run.input), interrupted]);
    const checkpoint = pending;
    pending = undefined;
    await finish('COMPLETED', { result: roundTrip(result) }, checkpoint);
  } catch (error) {
    if (error instanceof Halt) return;
    if (error instanceof Suspend) {
      await releaseRun(runId, job.id);
      const times = [error.wakeAt, run.timeoutAt].filter((t): t is Date => t !== null).map((t) => t.getTime());
      if (times.length) await deps.wake(runId, new Date(Math.min(...times)));
      return;
    }
    const checkpoint = pending;
    pending = undefined;
    if (isWorkflowFailed(error)) {
      await finish('FAILED', { failure: failureOf(error, source) }, checkpoint);
      return;
    }
    if (job.attempt < job.retryLimit) {
      // The job fails and the queue runs it again after its backoff; completed steps replay.
      if (checkpoint) await completeStep(checkpoint);
      await releaseRun(runId, job.id);
      throw error;
    }
    await finish('FAILED', { failure: failureOf(error, source) }, checkpoint);
  }
}
