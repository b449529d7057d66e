/**
 * How a workflow is written once and run by either engine.
 *
 * A definition is an async function of a WorkflowContext and its input. It must be
 * deterministic: every side effect (database, model, HTTP, time-dependent reads) goes through
 * `ctx.activities`, each call of which is a durable step — recorded when it completes, and
 * answered from the record instead of run again when the run resumes after a crash (embedded)
 * or replays (Temporal). Definitions import nothing with side effects (no node modules, no
 * repos, no config): the Temporal worker bundles them into its deterministic sandbox.
 *
 * Activities take the site id as their first argument: a definition never reaches another
 * site, and an activity never trusts anything but that argument for the tenant.
 */
export interface WorkflowContext<A> {
  readonly workflowId: string;
  readonly siteId: string;
  /** Each call is one checkpointed step. */
  readonly activities: A;
  /** Durable timer. */
  sleep(ms: number): Promise<void>;
  /** Waits for a named signal; `undefined` when `timeoutMs` passes first. */
  waitForSignal<T = unknown>(name: string, timeoutMs?: number): Promise<T | undefined>;
}

export type WorkflowDefinition<A, I = unknown, O = unknown> = (ctx: WorkflowContext<A>, input: I) => Promise<O>;

/**
 * A failure a definition reports on purpose (e.g. a required service is not configured): the
 * run ends FAILED with this message, without retries.
 */
export class WorkflowFailedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'WorkflowFailedError';
  }
}
