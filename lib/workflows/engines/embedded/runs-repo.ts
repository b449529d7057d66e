import { and, count, desc, eq, gte, lt, or, type SQL } from 'drizzle-orm';
import { ApiError } from '@/lib/core/errors';
import { getDb } from '@/lib/db/client';
import { workflowRuns } from '@/lib/db/schema';
import type { ListPage, ListQuery, WorkflowFailure, WorkflowRecord, WorkflowStatus } from '@/lib/workflows/engine';

/**
 * The embedded engine's runs as the client reads them: by id, by key, counted, page by page.
 * The engine's tables (runs, steps, signals) are touched only by the `*-repo.ts` files here.
 */
export type RunRow = typeof workflowRuns.$inferSelect;

export function toRecord(row: RunRow): WorkflowRecord {
  return {
    workflowId: row.workflowId,
    runId: row.runId,
    type: row.type,
    status: row.status as WorkflowStatus,
    startTime: row.startTime.toISOString(),
    ...(row.closeTime ? { closeTime: row.closeTime.toISOString(), executionTime: row.closeTime.getTime() - row.startTime.getTime() } : {}),
    input: row.input,
    ...(row.result !== null && row.result !== undefined ? { result: row.result } : {}),
    ...(row.failure ? { failure: row.failure as WorkflowFailure } : {}),
  };
}

export async function runByIdempotencyKey(siteId: string, key: string): Promise<RunRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(workflowRuns)
    .where(and(eq(workflowRuns.siteId, siteId), eq(workflowRuns.idempotencyKey, key)));
  return row;
}

export async function runOfSite(siteId: string, workflowId: string): Promise<RunRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(workflowRuns)
    .where(and(eq(workflowRuns.siteId, siteId), eq(workflowRuns.workflowId, workflowId)));
  return row;
}

export async function runById(runId: string): Promise<RunRow | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(workflowRuns).where(eq(workflowRuns.runId, runId));
  return row;
}

export async function countRunning(siteId: string): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: count() })
    .from(workflowRuns)
    .where(and(eq(workflowRuns.siteId, siteId), eq(workflowRuns.status, 'RUNNING')));
  return Number(row.n);
}

// Page tokens: the (start_time, workflow_id) of the last record shown, base64url JSON.
const TOKEN_VERSION = 1;
export function encodeToken(row: Pick<RunRow, 'startTime' | 'workflowId'>): string {
  return Buffer.from(JSON.stringify([TOKEN_VERSION, row.startTime.toISOString(), row.workflowId])).toString('base64url');
}

function decodeToken(token: string): { startTime: Date; workflowId: string } {
  const bad = () => new ApiError('INVALID_REQUEST', 'pageToken is not a token from a previous page');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== TOKEN_VERSION) throw bad();
  const [, time, workflowId] = parsed;
  const startTime = typeof time === 'string' ? new Date(time) : new Date(NaN);
  if (Number.isNaN(startTime.getTime()) || typeof workflowId !== 'string' || workflowId.length > 300) throw bad();
  return { startTime, workflowId };
}

/**
 * One page of a site's runs, newest first: a keyset walk of (site_id, start_time desc,
 * workflow_id desc) — the index of the logs — fetching one row more than asked to learn whether
 * another page exists (so `hasMore` never announces an empty page).
 */
export async function listRuns(q: ListQuery): Promise<ListPage> {
  const db = await getDb();
  const filters: (SQL | undefined)[] = [eq(workflowRuns.siteId, q.siteId)];
  if (q.status) filters.push(eq(workflowRuns.status, q.status));
  if (q.type) filters.push(eq(workflowRuns.type, q.type));
  if (q.from) filters.push(gte(workflowRuns.startTime, q.from));
  if (q.to) filters.push(lt(workflowRuns.startTime, q.to));
  const where = and(...filters);
  const after = q.pageToken ? decodeToken(q.pageToken) : undefined;
  const pageWhere = after
    ? and(
        where,
        or(
          lt(workflowRuns.startTime, after.startTime),
          and(eq(workflowRuns.startTime, after.startTime), lt(workflowRuns.workflowId, after.workflowId)),
        ),
      )
    : where;
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(workflowRuns)
      .where(pageWhere)
      .orderBy(desc(workflowRuns.startTime), desc(workflowRuns.workflowId))
      .limit(q.limit + 1),
    db.select({ n: count() }).from(workflowRuns).where(where),
  ]);
  const page = rows.slice(0, q.limit);
  return {
    records: page.map(toRecord),
    ...(rows.length > q.limit ? { nextPageToken: encodeToken(page[page.length - 1]) } : {}),
    totalFound: Number(total[0].n),
  };
}
