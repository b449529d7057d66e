import { randomBytes } from 'node:crypto';
import { now } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { parseInput } from '@/lib/core/validate';
import { workflowRunningCap } from '@/lib/sites/plans';
import { planOfSite } from '@/lib/sites/service';
import { COMMAND_RUN_TYPE, runTimeoutMs, workflowNamed, type CatalogEntry } from './catalog';
import type { ListPage, WorkflowRecord } from './engine';
import { workflowEngine } from './engines';
import type { ListWorkflowsQuery } from './schema';

/**
 * Starting and browsing workflow runs, for the routes and the console. Every call is scoped to
 * one site; the engine never sees a run of another site through here.
 */
const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** `<kebab-name>-<site_id>-<timestamp>-<suffix>` (spec §2.10). */
export function newWorkflowId(name: string, siteId: string): string {
  return `${kebab(name)}-${siteId}-${now()}-${randomBytes(4).toString('hex')}`;
}

/** A command's run ends TIMED_OUT after this (the model call itself is bounded by LLM_TIMEOUT_MS). */
const COMMAND_RUN_TIMEOUT_MS = 3_600_000;

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

const runningCapReached = (cap: number) =>
  new ApiError(
    'RATE_LIMITED',
    `This site already has ${cap} workflow runs in progress, the most its plan allows; start more when some finish or cancel one`,
    { running_limit: cap, retry_after: 10 },
    { 'retry-after': '10' },
  );

/** Codes of a workflow body's invalid fields other than INVALID_REQUEST (spec §7). */
export const WORKFLOW_BODY_CODES = { site_id: 'INVALID_SITE_ID' } as const;

/**
 * Parses a workflow's body with its catalog schema, as the start route's pipeline does (a missing
 * or malformed `site_id` is INVALID_SITE_ID there too): for the entries that start a run from a
 * body of their own (jobs, subscriptions, other domains).
 */
function parseWorkflowBody(entry: CatalogEntry, body: unknown): Record<string, unknown> {
  return parseInput(entry.body, body ?? {}, 'body', WORKFLOW_BODY_CODES);
}

/** Starts a run of the catalog workflow `name` with `body`, parsed here once with the catalog's schema. */
export function startWorkflow(
  siteId: string,
  name: string,
  body: unknown,
  idempotencyKey: string | null,
): Promise<{ workflowId: string; runId: string; created: boolean }> {
  const entry = workflowNamed(name);
  return startParsedWorkflow(siteId, entry, parseWorkflowBody(entry, body), idempotencyKey);
}

/**
 * Starts a run of `entry` with `parsed`, its body already parsed by the entry's schema (the start
 * route's pipeline, the console's form), within the site's cap of runs in progress.
 */
export async function startParsedWorkflow(
  siteId: string,
  entry: CatalogEntry,
  parsed: Record<string, unknown>,
  idempotencyKey: string | null,
): Promise<{ workflowId: string; runId: string; created: boolean }> {
  if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new ApiError('INVALID_REQUEST', 'Idempotency-Key must be 1–200 printable ASCII characters');
  }
  const input = { ...parsed, site_id: siteId };
  await entry.precheck?.(siteId, input);
  try {
    // The plan is read first: only the count and the start need to be one step (the engine's).
    const { plan, concurrencyLimit } = await planOfSite(siteId);
    const cap = workflowRunningCap(plan, concurrencyLimit);
    const started = await workflowEngine().startWithinCap(
      {
        siteId,
        type: entry.type,
        workflowId: newWorkflowId(entry.name, siteId),
        input,
        timeoutMs: runTimeoutMs(entry, input),
        ...(idempotencyKey !== null ? { idempotencyKey } : {}),
      },
      cap,
    );
    if (!started) throw runningCapReached(cap);
    return started;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    log.error('workflow start failed', { site_id: siteId, workflow: entry.name, ...errorFields(error) });
    throw new ApiError('WORKFLOW_EXECUTION_ERROR', 'The workflow could not be started');
  }
}

/**
 * Starts the run that carries out an agent command (`agentCommandWorkflow`, not in the catalog: it
 * has no body of its own and is started only when a command is created, outside the per-site cap
 * of catalog runs — a command in progress does count as a run in progress for that cap).
 */
export async function startCommandRun(siteId: string, commandId: string): Promise<{ workflowId: string; runId: string }> {
  return workflowEngine().start({
    siteId,
    type: COMMAND_RUN_TYPE,
    workflowId: newWorkflowId('agentCommand', siteId),
    input: { command_id: commandId },
    timeoutMs: COMMAND_RUN_TIMEOUT_MS,
  });
}

const PAGE = 100;

/**
 * Terminates every RUNNING run of the site (its deletion: Temporal runs live outside our
 * database); answers how many. The runs are listed first, page by page, then terminated one by
 * one: terminating while paging would shift the pages under the cursor.
 */
export async function terminateSiteRuns(siteId: string): Promise<number> {
  const engine = workflowEngine();
  const running = new Set<string>();
  let pageToken: string | undefined;
  do {
    const page = await engine.list({ siteId, limit: PAGE, status: 'RUNNING', pageToken });
    for (const run of page.records) running.add(run.workflowId);
    pageToken = page.nextPageToken;
  } while (pageToken);
  for (const workflowId of running) await engine.terminate(siteId, workflowId, 'the site was deleted');
  return running.size;
}

async function query<T>(what: string, siteId: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    log.error(`workflow ${what} failed`, { site_id: siteId, ...errorFields(error) });
    throw new ApiError('WORKFLOW_QUERY_ERROR', 'The workflow runs could not be read');
  }
}

export function listWorkflowRuns(siteId: string, q: Omit<ListWorkflowsQuery, 'site_id'>): Promise<ListPage> {
  return query('list', siteId, () =>
    workflowEngine().list({
      siteId,
      limit: q.limit,
      pageToken: q.pageToken,
      status: q.status,
      type: q.type,
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
    }),
  );
}

export async function getWorkflowRun(siteId: string, workflowId: string): Promise<WorkflowRecord> {
  const record = await query('read', siteId, () => workflowEngine().get(siteId, workflowId));
  if (!record) throw new ApiError('NOT_FOUND', 'Workflow run not found');
  return record;
}

/** Cancels a running run (→ CANCELLED); 409 when it already ended. */
export async function cancelWorkflowRun(siteId: string, workflowId: string): Promise<WorkflowRecord> {
  const record = await getWorkflowRun(siteId, workflowId);
  if (record.status !== 'RUNNING') throw new ApiError('CONFLICT', `The run already ended (${record.status})`);
  await query('cancel', siteId, () => workflowEngine().cancel(siteId, workflowId));
  return getWorkflowRun(siteId, workflowId);
}

/** Delivers a signal to a running run (e.g. a human's answer); 409 when it already ended. */
export async function signalWorkflowRun(siteId: string, workflowId: string, signal: string, payload: unknown): Promise<WorkflowRecord> {
  const record = await getWorkflowRun(siteId, workflowId);
  if (record.status !== 'RUNNING') throw new ApiError('CONFLICT', `The run already ended (${record.status})`);
  await query('signal', siteId, () => workflowEngine().signal(siteId, workflowId, signal, payload));
  return record;
}
