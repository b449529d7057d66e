/**
 * The workflow engine port. Two adapters implement it — embedded (durable on the app's own
 * database) and Temporal — and both run the same definitions (`./definition.ts`). Routes and
 * the console talk to this interface only; every call is scoped to one site.
 */
export const WORKFLOW_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED', 'TIMED_OUT'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

/** Spec §2.10 `failure`: a message and a nested cause. */
export interface WorkflowFailure {
  message: string;
  cause?: { message: string; source: string; stackTrace: string };
}

/** One run as the logs show it (spec §2.10). Times are ISO 8601. */
export interface WorkflowRecord {
  workflowId: string;
  runId: string;
  /** Workflow type name, e.g. `leadGenerationWorkflow`. */
  type: string;
  status: WorkflowStatus;
  startTime: string;
  closeTime?: string;
  /** Milliseconds from start to close. */
  executionTime?: number;
  input: unknown;
  result?: unknown;
  failure?: WorkflowFailure;
}

export interface StartOptions {
  siteId: string;
  /** Workflow type name (catalog `type`). */
  type: string;
  /** `<kebab-name>-<site_id>-<timestamp>-<suffix>`, made by the caller. */
  workflowId: string;
  input: unknown;
  /** Whole-run timeout; the run ends TIMED_OUT when it passes. */
  timeoutMs?: number;
  /**
   * The caller's retry key: a start with a key the site already used returns that run instead of
   * starting another (`created: false`).
   */
  idempotencyKey?: string;
}

export interface ListQuery {
  siteId: string;
  /** 1–100. */
  limit: number;
  /** Opaque token from a previous page; a token the engine cannot read is an INVALID_REQUEST. */
  pageToken?: string;
  status?: WorkflowStatus;
  type?: string;
  /** Runs started at or after / before. */
  from?: Date;
  to?: Date;
}

export interface ListPage {
  records: WorkflowRecord[];
  /** Present only when another non-empty page follows. */
  nextPageToken?: string;
  /** Runs of the site matching the filters. */
  totalFound: number;
}

export interface WorkflowEngine {
  readonly kind: 'embedded' | 'temporal';
  start(options: StartOptions): Promise<{ workflowId: string; runId: string; created?: boolean }>;
  /**
   * Starts the run only while the site has fewer than `cap` runs in progress, the count and the
   * start one step across processes; `undefined` at the cap. A start with a key the site used
   * before answers that run even at the cap. Each engine makes it atomic its own way (embedded:
   * one transaction; Temporal: under the site's lock).
   */
  startWithinCap(options: StartOptions, cap: number): Promise<{ workflowId: string; runId: string; created: boolean } | undefined>;
  list(query: ListQuery): Promise<ListPage>;
  /** Another site's run is `undefined`, never returned. */
  get(siteId: string, workflowId: string): Promise<WorkflowRecord | undefined>;
  /** Asks the run to stop (→ CANCELLED). */
  cancel(siteId: string, workflowId: string): Promise<void>;
  /** Ends the run at once (→ TERMINATED). */
  terminate(siteId: string, workflowId: string, reason: string): Promise<void>;
  /** Delivers a named signal to a waiting run (e.g. humanIntervention). */
  signal(siteId: string, workflowId: string, name: string, payload: unknown): Promise<void>;
  /** The run a start with this Idempotency-Key made, if any. */
  findByIdempotencyKey(siteId: string, key: string): Promise<{ workflowId: string; runId: string } | undefined>;
  /** Runs of the site that are RUNNING now (per-site caps). */
  countRunning(siteId: string): Promise<number>;
  close(): Promise<void>;
}
