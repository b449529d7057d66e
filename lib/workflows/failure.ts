import { WorkflowFailedError } from './definition';
import type { WorkflowFailure } from './engine';

/** How a run's failure is recorded (spec §2.10 `failure`), the same for every engine. */
const STACK_MAX = 4_000;

/** A deliberate failure (not retried), also when it crossed a process boundary and lost its class. */
export function isWorkflowFailed(error: unknown): error is WorkflowFailedError {
  return error instanceof WorkflowFailedError || (error instanceof Error && error.name === 'WorkflowFailedError');
}

export function failureOf(error: unknown, source: string): WorkflowFailure {
  const e = error instanceof Error ? error : new Error(String(error));
  return { message: e.message, cause: { message: e.message, source, stackTrace: (e.stack ?? '').slice(0, STACK_MAX) } };
}

export function engineFailure(message: string): WorkflowFailure {
  return { message, cause: { message, source: 'engine', stackTrace: '' } };
}
