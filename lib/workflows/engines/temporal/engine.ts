import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Client, Connection, isGrpcServiceError, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { z } from 'zod';
import { authSecret } from '@/lib/auth/secret';
import { now } from '@/lib/core/clock';
import { ApiError, type ErrorCode } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { withLock } from '@/lib/db/lock';
import type { ListPage, ListQuery, StartOptions, WorkflowEngine, WorkflowRecord } from '@/lib/workflows/engine';
import { closeDetails, QUERY_STATUS, siteIdOf, statusOf, toRecord, type CloseDetails } from './records';
import { connectionOptions, type TemporalSettings } from './settings';
import { SITE_ID_ATTRIBUTE } from './site-attribute';
import { recordStartedRun, releaseStartKey, reserveStartKey, startedRunOfKey } from './start-keys-repo';

type ExecutionInfo = temporal.api.workflow.v1.IWorkflowExecutionInfo;

/** How long `cancel` waits for a worker to close the run. */
const CANCEL_WAIT_MS = 3_000;
/** How long an action waits for visibility to show it. */
const VISIBILITY_WAIT_MS = 5_000;

/** gRPC status codes the adapter tells apart. */
const GRPC = { NOT_FOUND: 5 } as const;

/**
 * The Temporal adapter of the engine port. Runs carry the typed `site_id` search attribute; the
 * logs are a visibility query on it, and every by-id call checks it, so a site never sees or
 * touches another site's run. Runs execute in a separate worker process
 * (`npm run worker:temporal`) on the same task queue.
 */
export class TemporalEngine implements WorkflowEngine {
  readonly kind = 'temporal' as const;
  private readonly connection: Connection;
  private readonly client: Client;

  constructor(
    private readonly settings: TemporalSettings,
    /** Deadline of each call to the cluster, retries included: an unreachable cluster is a prompt 500. */
    private readonly callTimeoutMs = 10_000,
  ) {
    // Lazy: the app starts (and answers clear errors) even while the cluster is unreachable.
    this.connection = Connection.lazy(connectionOptions(settings));
    this.client = new Client({ connection: this.connection, namespace: settings.namespace });
  }

  private call<T>(fn: () => Promise<T>): Promise<T> {
    return this.connection.withDeadline(now() + this.callTimeoutMs, fn);
  }

  /**
   * With an idempotency key, the first start reserves the key (app database) and a retry returns
   * that run (`created: false`); a retry that finds the first start unfinished joins it under the
   * reserved workflow id rather than starting another.
   */
  async start(options: StartOptions): Promise<{ workflowId: string; runId: string; created: boolean }> {
    const key = options.idempotencyKey;
    if (!key) {
      const started = await this.startRun(options, false);
      await this.untilVisible(started, false);
      return { ...started, created: true };
    }
    const reserved = await reserveStartKey(options.siteId, key, options.workflowId);
    if (!reserved.own && reserved.runId) return { workflowId: reserved.workflowId, runId: reserved.runId, created: false };
    let started: { workflowId: string; runId: string };
    try {
      started = await this.startRun({ ...options, workflowId: reserved.workflowId }, !reserved.own);
    } catch (error) {
      if (reserved.own) await releaseStartKey(options.siteId, key);
      throw error;
    }
    await recordStartedRun(options.siteId, key, started.runId);
    await this.untilVisible(started, false);
    return { ...started, created: reserved.own };
  }

  /**
   * The count is a query on the cluster's visibility store and the start a call to the cluster,
   * which no database transaction spans: the count, the start and the wait until the run is
   * visible (`start`) run under the site's lock — across processes on Postgres, which the
   * Temporal set-up shares — so parallel starts never pass the cap together.
   */
  startWithinCap(options: StartOptions, cap: number): Promise<{ workflowId: string; runId: string; created: boolean } | undefined> {
    return withLock(`workflow-running:${options.siteId}`, async () => {
      // A retry returns its run even when the site reached its cap since.
      const earlier = options.idempotencyKey ? await this.findByIdempotencyKey(options.siteId, options.idempotencyKey) : undefined;
      if (earlier) return { ...earlier, created: false };
      if ((await this.countRunning(options.siteId)) >= cap) return undefined;
      return this.start(options);
    });
  }

  findByIdempotencyKey(siteId: string, key: string): Promise<{ workflowId: string; runId: string } | undefined> {
    return startedRunOfKey(siteId, key);
  }

  /** `join`: a run already started under this id is the answer (running, or closed since). */
  private async startRun(options: StartOptions, join: boolean): Promise<{ workflowId: string; runId: string }> {
    try {
      const handle = await this.call(() =>
        this.client.workflow.start(options.type, {
          taskQueue: this.settings.taskQueue,
          workflowId: options.workflowId,
          args: [options.input],
          typedSearchAttributes: [{ key: SITE_ID_ATTRIBUTE, value: options.siteId }],
          // The input is kept in the memo too, so a page of the logs needs no history read for it.
          memo: { input: options.input ?? null },
          // A workflow id names one run, ever.
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          workflowIdConflictPolicy: join ? 'USE_EXISTING' : 'FAIL',
          ...(options.timeoutMs ? { workflowExecutionTimeout: options.timeoutMs } : {}),
        }),
      );
      return { workflowId: handle.workflowId, runId: handle.firstExecutionRunId };
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) {
        const existing = join ? await this.describe(options.siteId, options.workflowId) : undefined;
        if (existing?.execution?.runId) return { workflowId: options.workflowId, runId: existing.execution.runId };
        throw new ApiError('CONFLICT', `A run with workflowId ${options.workflowId} already exists`);
      }
      throw engineError('WORKFLOW_EXECUTION_ERROR', 'Could not start the workflow', error);
    }
  }

  async list(query: ListQuery): Promise<ListPage> {
    const visibility = visibilityQuery(query);
    const token = readPageToken(query.pageToken, query.siteId, visibility);
    try {
      const [page, total] = await Promise.all([this.listPage(visibility, query.limit, token), this.count(visibility)]);
      const records = await Promise.all(page.executions.map((info) => this.record(info)));
      // Only hand out a token when the next page really has a run (no empty page with hasMore).
      const more = page.nextPageToken && (await this.listPage(visibility, 1, page.nextPageToken)).executions.length > 0;
      return {
        records,
        totalFound: total,
        ...(more ? { nextPageToken: writePageToken(query.siteId, visibility, page.nextPageToken!) } : {}),
      };
    } catch (error) {
      throw engineError('WORKFLOW_QUERY_ERROR', 'Could not query workflow runs', error);
    }
  }

  async get(siteId: string, workflowId: string): Promise<WorkflowRecord | undefined> {
    const info = await this.describe(siteId, workflowId);
    if (!info) return undefined;
    try {
      return await this.record(info);
    } catch (error) {
      throw engineError('WORKFLOW_QUERY_ERROR', 'Could not read the workflow run', error);
    }
  }

  /**
   * Cancellation is a request the run handles at its next step; a live worker does that within
   * moments, so the caller waits briefly to see the run CANCELLED (it stays RUNNING, cancelling,
   * while no worker polls).
   */
  async cancel(siteId: string, workflowId: string): Promise<void> {
    const run = await this.onRunning(siteId, workflowId, (handle) => handle.cancel());
    if (!run) return;
    for (let waited = 0; waited < CANCEL_WAIT_MS; waited += 100) {
      const info = await this.describe(siteId, workflowId);
      if (!info || statusOf(info) !== 'RUNNING') return this.untilVisible(run, true);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async terminate(siteId: string, workflowId: string, reason: string): Promise<void> {
    const run = await this.onRunning(siteId, workflowId, (handle) => handle.terminate(reason));
    if (run) await this.untilVisible(run, true);
  }

  async signal(siteId: string, workflowId: string, name: string, payload: unknown): Promise<void> {
    await this.onRunning(siteId, workflowId, (handle) => handle.signal(name, payload));
  }

  async countRunning(siteId: string): Promise<number> {
    try {
      return await this.count(visibilityQuery({ siteId, limit: 1, status: 'RUNNING' }));
    } catch (error) {
      throw engineError('WORKFLOW_QUERY_ERROR', 'Could not count running workflows', error);
    }
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  private async listPage(query: string, pageSize: number, nextPageToken?: Uint8Array) {
    const response = await this.call(() =>
      this.client.workflowService.listWorkflowExecutions({
        namespace: this.settings.namespace,
        query,
        pageSize,
        nextPageToken: nextPageToken ?? null,
      }),
    );
    const next = response.nextPageToken?.length ? response.nextPageToken : undefined;
    return { executions: response.executions ?? [], nextPageToken: next };
  }

  private async count(query: string): Promise<number> {
    const response = await this.call(() => this.client.workflowService.countWorkflowExecutions({ namespace: this.settings.namespace, query }));
    return Number(response.count ?? 0);
  }

  private async record(info: ExecutionInfo): Promise<WorkflowRecord> {
    const details = statusOf(info) === 'RUNNING' ? {} : await this.closeDetails(info);
    return toRecord(info, details);
  }

  /** The result or failure lives in the close event only; one small history read per closed run. */
  private async closeDetails(info: ExecutionInfo): Promise<CloseDetails> {
    const response = await this.call(() =>
      this.client.workflowService.getWorkflowExecutionHistory({
        namespace: this.settings.namespace,
        execution: info.execution,
        historyEventFilterType: temporal.api.enums.v1.HistoryEventFilterType.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT,
      }),
    );
    return closeDetails(response.history?.events?.at(-1) ?? undefined);
  }

  /**
   * Visibility (the logs and the running count behind the per-site cap) trails the run's own
   * state by moments, more under load. A start, cancel or terminate returns once visibility shows
   * its effect, so the next request sees it — bounded: past VISIBILITY_WAIT_MS it returns anyway.
   */
  private async untilVisible(run: { workflowId: string; runId: string }, closed: boolean): Promise<void> {
    const query =
      `WorkflowId = ${quoted('workflowId', run.workflowId)} AND RunId = ${quoted('runId', run.runId)}` +
      (closed ? ' AND ExecutionStatus != "Running"' : '');
    try {
      for (let waited = 0; waited < VISIBILITY_WAIT_MS; waited += 50) {
        if ((await this.count(query)) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } catch (error) {
      // The action itself succeeded; only the read-back failed.
      log.warn('temporal: visibility read-back failed', errorFields(error));
    }
  }

  /** The latest run with that id, when it belongs to the site; another site's run is absent. */
  private async describe(siteId: string, workflowId: string): Promise<ExecutionInfo | undefined> {
    try {
      const response = await this.call(() =>
        this.client.workflowService.describeWorkflowExecution({
          namespace: this.settings.namespace,
          execution: { workflowId },
        }),
      );
      const info = response.workflowExecutionInfo ?? undefined;
      return info && siteIdOf(info) === siteId ? info : undefined;
    } catch (error) {
      if (grpcCode(error) === GRPC.NOT_FOUND) return undefined;
      throw engineError('WORKFLOW_QUERY_ERROR', 'Could not read the workflow run', error);
    }
  }

  /**
   * Acts on the site's run while it runs. As on the embedded engine, another site's run, an
   * unknown id or a run that already ended is left alone without an error: callers that answer
   * 404/409 read the run first (lib/workflows/service.ts).
   */
  private async onRunning(
    siteId: string,
    workflowId: string,
    act: (handle: ReturnType<Client['workflow']['getHandle']>) => Promise<unknown>,
  ): Promise<{ workflowId: string; runId: string } | undefined> {
    const info = await this.describe(siteId, workflowId);
    const runId = info?.execution?.runId;
    if (!info || !runId || statusOf(info) !== 'RUNNING') return undefined;
    try {
      await this.call(() => act(this.client.workflow.getHandle(workflowId, runId)));
      return { workflowId, runId };
    } catch (error) {
      // Closed between the check and the call.
      if (grpcCode(error) === GRPC.NOT_FOUND || error instanceof WorkflowNotFoundError) return undefined;
      throw engineError('WORKFLOW_EXECUTION_ERROR', 'The workflow engine refused the request', error);
    }
  }
}

/** Values put in a visibility query: ids and type names only, so quoting needs no escaping. */
const queryValue = z.string().regex(/^[\w.:-]{1,200}$/);

function quoted(field: string, value: string): string {
  if (!queryValue.safeParse(value).success) throw new ApiError('INVALID_REQUEST', `Invalid ${field} filter`);
  return `"${value}"`;
}

/** The site's runs matching the filters; runs without the site_id attribute never match. */
export function visibilityQuery(query: Omit<ListQuery, 'pageToken'>): string {
  const parts = [`site_id = ${quoted('site_id', query.siteId)}`];
  if (query.status) parts.push(`ExecutionStatus = "${QUERY_STATUS[query.status]}"`);
  if (query.type) parts.push(`WorkflowType = ${quoted('type', query.type)}`);
  if (query.from) parts.push(`StartTime >= "${query.from.toISOString()}"`);
  if (query.to) parts.push(`StartTime < "${query.to.toISOString()}"`);
  return parts.join(' AND ');
}

/**
 * The page token handed to clients wraps Temporal's own with the site and a digest of the query,
 * signed (HMAC with a key derived from the app secret) and base64url-encoded. Temporal answers a
 * corrupted token of its own with an internal error, so nothing unsigned reaches it: garbage, a
 * tampered token, or one from another site or filter set is INVALID_REQUEST.
 */
const tokenSchema = z.object({ s: z.string(), q: z.string(), t: z.string().min(1) }).strict();

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);
const tokenMac = (body: string) => createHmac('sha256', `workflow-page-token:${authSecret()}`).update(body).digest('base64url').slice(0, 22);

export function writePageToken(siteId: string, query: string, token: Uint8Array): string {
  const body = Buffer.from(JSON.stringify({ s: siteId, q: digest(query), t: Buffer.from(token).toString('base64url') })).toString('base64url');
  return `${body}.${tokenMac(body)}`;
}

export function readPageToken(pageToken: string | undefined, siteId: string, query: string): Uint8Array | undefined {
  if (pageToken === undefined) return undefined;
  const invalid = new ApiError('INVALID_REQUEST', 'pageToken is not valid');
  const match = /^([\w-]{1,4096})\.([\w-]{22})$/.exec(pageToken);
  if (!match) throw invalid;
  const [, body, mac] = match;
  const expected = Buffer.from(tokenMac(body));
  if (!timingSafeEqual(Buffer.from(mac), expected)) throw invalid;
  let parsed;
  try {
    parsed = tokenSchema.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
  } catch {
    throw invalid;
  }
  if (!parsed.success || parsed.data.s !== siteId || parsed.data.q !== digest(query)) throw invalid;
  return new Uint8Array(Buffer.from(parsed.data.t, 'base64url'));
}

function grpcCode(error: unknown): number | undefined {
  if (isGrpcServiceError(error)) return error.code;
  const cause = error instanceof Error ? error.cause : undefined;
  return isGrpcServiceError(cause) ? cause.code : undefined;
}

/**
 * An engine error as the API answers it. The engine's own message (e.g. an unregistered site_id
 * attribute, an unreachable cluster) goes to the operator's log, not to the caller.
 */
function engineError(code: ErrorCode, what: string, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  log.error(`temporal: ${what}`, errorFields(error));
  return new ApiError(code, `${what}: the workflow engine is unavailable or refused the request`);
}
