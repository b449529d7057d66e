import { randomBytes } from 'node:crypto';
import { now } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { withLock } from '@/lib/db/lock';
import { workflowRunningCap } from '@/lib/sites/plans';
import { planOfSite } from '@/lib/sites/repo';
import { catalogEntry, COMMAND_RUN_TYPE, runTimeoutMs } from './catalog';
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

function invalidBody(issues: { path: PropertyKey[]; message: string }[]): ApiError {
  const list = issues.map((i) => ({ path: ['body', ...i.path.map(String)].join('.'), message: i.message }));
  return new ApiError('INVALID_REQUEST', `Invalid body: ${list.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues: list });
}

const runningCapReached = (cap: number) =>
  new ApiError(
    'RATE_LIMITED',
    `This site already has ${cap} workflow runs in progress, the most its plan allows; start more when some finish or cancel one`,
    { running_limit: cap, retry_after: 10 },
    { 'retry-after': '10' },
  );

export async function startWorkflow(
  siteId: string,
  name: string,
  body: unknown,
  idempotencyKey: string | null,
): Promise<{ workflowId: string; runId: string; created: boolean }> {
  const entry = catalogEntry(name);
  if (!entry) throw new ApiError('NOT_FOUND', `Unknown workflow: ${name}`);
  const raw = (body ?? {}) as Record<string, unknown>;
  if (raw.site_id === undefined && entry.name !== 'webhook') throw new ApiError('INVALID_SITE_ID', 'site_id is required');
  const parsed = entry.body.safeParse(raw);
  if (!parsed.success) throw invalidBody(parsed.error.issues);
  if (idempotencyKey !== null && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new ApiError('INVALID_REQUEST', 'Idempotency-Key must be 1–200 printable ASCII characters');
  }
  const input = { ...parsed.data, site_id: siteId };
  await entry.precheck?.(siteId, input);
  const engine = workflowEngine();
  try {
    // The plan is read first: only the count and the start need to be one step.
    const { plan, concurrencyLimit } = await planOfSite(siteId);
    const cap = workflowRunningCap(plan, concurrencyLimit);
    const options = {
      siteId,
      type: entry.type,
      workflowId: newWorkflowId(entry.name, siteId),
      input,
      timeoutMs: runTimeoutMs(entry, input),
      ...(idempotencyKey !== null ? { idempotencyKey } : {}),
    };
    // The embedded engine counts and starts in one transaction (its insert counts the running runs).
    if (engine.startWithinCap) {
      const started = await engine.startWithinCap(options, cap);
      if (!started) throw runningCapReached(cap);
      return started;
    }
    // Temporal counts through the cluster's visibility store and starts on the cluster, which no
    // database transaction spans: the count, the start and the wait until the run is visible
    // (`TemporalEngine.start`) run under the site's lock — across processes on Postgres, which the
    // Temporal set-up shares — so parallel starts never pass the cap together.
    return await withLock(`workflow-running:${siteId}`, async () => {
      // A retry returns its run even when the site reached its cap since.
      const earlier = idempotencyKey !== null ? await engine.findByIdempotencyKey?.(siteId, idempotencyKey) : undefined;
      if (earlier) return { ...earlier, created: false };
      if ((await engine.countRunning(siteId)) >= cap) throw runningCapReached(cap);
      const started = await engine.start(options);
      return { workflowId: started.workflowId, runId: started.runId, created: started.created ?? true };
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    log.error('workflow start failed', { site_id: siteId, workflow: name, ...errorFields(error) });
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
