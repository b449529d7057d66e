import { and, count, desc, eq, getTableColumns, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { ApiError } from '@/lib/core/errors';
import { sharedBatcher } from '@/lib/db/batch';
import { database, getDb, type Database, type Db } from '@/lib/db/client';
import { lockForTransaction } from '@/lib/db/lock';
import { rows } from '@/lib/db/raw';
import { workflowRuns, workflowSignals, workflowSteps } from '@/lib/db/schema';
import { JOB_SCHEMA } from '@/lib/jobs/define';
import type { ListPage, ListQuery, WorkflowFailure, WorkflowRecord, WorkflowStatus } from '@/lib/workflows/engine';
import { recordRunEnd } from '@/lib/workflows/run-events';

/** The embedded engine's tables: runs, their checkpointed steps, signals. The only code touching them. */
export type RunRow = typeof workflowRuns.$inferSelect;
export type StepRow = typeof workflowSteps.$inferSelect;
/** What an execution replays of a recorded step. */
export type StepState = Pick<StepRow, 'step' | 'kind' | 'name' | 'wakeAt' | 'completed' | 'result'>;

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

/** A run to record: what the engine's start was given, with its start time and deadline. */
export interface NewRun {
  siteId: string;
  workflowId: string;
  type: string;
  input: unknown;
  idempotencyKey?: string;
  startTime: Date;
  timeoutAt: Date | null;
}

export async function insertRun(
  values: NewRun,
  /** Queues the run's first job with the insert's transaction. */
  enqueueFirst: (tx: Db, runId: string) => Promise<unknown>,
): Promise<{ row: RunRow; created: boolean }> {
  const db = await getDb();
  const inserted = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(workflowRuns)
      .values({ ...values, input: values.input ?? {} })
      .onConflictDoNothing()
      .returning();
    if (row) await enqueueFirst(tx, row.runId);
    return row;
  });
  if (inserted) return { row: inserted, created: true };
  // The key was used before: that run is the answer.
  const row = values.idempotencyKey ? await runByIdempotencyKey(values.siteId, values.idempotencyKey) : undefined;
  if (!row) throw new Error(`workflow id ${values.workflowId} is already taken`);
  return { row, created: false };
}

/** What a start within the cap answers: its run, or `undefined` when the site's cap is reached. */
type StartedWithinCap = { workflowId: string; runId: string; created: boolean } | undefined;

interface CappedStart {
  values: NewRun;
  cap: number;
  /** The process database when the start was asked for (tests switch it between calls). */
  on: Promise<Database>;
  enqueueFirst: (tx: Db, runIds: string[]) => Promise<unknown>;
}

/**
 * Records runs and queues their first jobs only while each run's site has fewer than its `cap`
 * runs in progress — for a batch of concurrent starts at once (group commit, `lib/db/batch.ts`):
 * one transaction takes the cap locks of the batch's sites (`lockForTransaction`: on Postgres
 * advisory transaction locks, in one fixed order; on the embedded database the transaction has
 * the backend to itself), so starts of any process never pass a cap together; one statement
 * counts each site's running runs and inserts the starts it admits in arrival order, up to the
 * cap; one statement queues their first jobs. A start with an Idempotency-Key the site used
 * before (or an earlier start of the batch used) answers that run (`created: false`), even at the
 * cap, and takes no place; nor does a start whose workflow id is taken (it fails).
 */
async function insertCapped(on: Promise<Database>, batch: CappedStart[]): Promise<(StartedWithinCap | Error)[]> {
  const { db } = await on;
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, ...[...new Set(batch.map((s) => s.values.siteId))].map((site) => `workflow-running:${site}`));
    const input = JSON.stringify(
      batch.map(({ values: v, cap }, ord) => ({
        ord,
        site_id: v.siteId,
        workflow_id: v.workflowId,
        type: v.type,
        input: v.input ?? {},
        idempotency_key: v.idempotencyKey ?? null,
        start_time: v.startTime.toISOString(),
        timeout_at: v.timeoutAt?.toISOString() ?? null,
        cap,
      })),
    );
    const inserted = await rows<{ run_id: string; workflow_id: string }>(
      sql`
      with input as (
        select * from jsonb_to_recordset(${input}::jsonb) as t(
          ord int, site_id uuid, workflow_id text, type text, input jsonb, idempotency_key text,
          start_time timestamptz, timeout_at timestamptz, cap int)
      ),
      fresh as (
        select i.* from input i
        where not exists (select 1 from workflow_runs r where r.workflow_id = i.workflow_id)
          and i.ord = (select min(j.ord) from input j where j.workflow_id = i.workflow_id)
          and (i.idempotency_key is null
            or (not exists (select 1 from workflow_runs r where r.site_id = i.site_id and r.idempotency_key = i.idempotency_key)
                and i.ord = (select min(j.ord) from input j where j.site_id = i.site_id and j.idempotency_key = i.idempotency_key)))
      ),
      running as (
        select r.site_id, count(*) as n from workflow_runs r
        where r.status = 'RUNNING' and r.site_id in (select site_id from input)
        group by r.site_id
      ),
      admitted as (
        select f.* from (select fresh.*, row_number() over (partition by fresh.site_id order by fresh.ord) as place from fresh) f
        left join running on running.site_id = f.site_id
        where coalesce(running.n, 0) + f.place <= f.cap
      )
      insert into workflow_runs (site_id, workflow_id, type, input, idempotency_key, start_time, timeout_at)
      select site_id, workflow_id, type, input, idempotency_key, start_time, timeout_at from admitted order by ord
      on conflict do nothing
      returning run_id, workflow_id`,
      tx,
    );
    // Admitted starts have distinct workflow ids: each inserted run answers the first start with its id.
    const runOf = new Map(inserted.map((r) => [r.workflow_id, r.run_id]));
    const answeredBy = new Map<string, CappedStart>();
    for (const s of batch) if (runOf.has(s.values.workflowId) && !answeredBy.has(s.values.workflowId)) answeredBy.set(s.values.workflowId, s);
    if (inserted.length)
      await batch[0].enqueueFirst(
        tx,
        inserted.map((r) => r.run_id),
      );
    const rest = batch.filter((s) => answeredBy.get(s.values.workflowId) !== s);
    // Not inserted: the key was used before (that run is the answer), or the cap is reached.
    const keyed = rest.filter((s) => s.values.idempotencyKey !== undefined);
    const earlier = keyed.length
      ? await rows<{ site_id: string; idempotency_key: string; workflow_id: string; run_id: string }>(
          sql`
          select r.site_id, r.idempotency_key, r.workflow_id, r.run_id from workflow_runs r
          join jsonb_to_recordset(${JSON.stringify(keyed.map((s) => ({ site_id: s.values.siteId, key: s.values.idempotencyKey })))}::jsonb)
            as k(site_id uuid, key text) on r.site_id = k.site_id and r.idempotency_key = k.key`,
          tx,
        )
      : [];
    const earlierOf = new Map(earlier.map((r) => [`${r.site_id} ${r.idempotency_key}`, r]));
    const unanswered = rest.filter((s) => !earlierOf.has(`${s.values.siteId} ${s.values.idempotencyKey}`));
    // Not admitted and not answered by a key: its workflow id is taken (before, by the batch, or by a run committed meanwhile), else the cap is reached.
    const taken = new Set(
      unanswered.length
        ? (
            await rows<{ workflow_id: string }>(
              sql`select workflow_id from workflow_runs where workflow_id in (select jsonb_array_elements_text(${JSON.stringify(unanswered.map((s) => s.values.workflowId))}::jsonb))`,
              tx,
            )
          ).map((r) => r.workflow_id)
        : [],
    );
    return batch.map((start): StartedWithinCap | Error => {
      const { values } = start;
      if (answeredBy.get(values.workflowId) === start) return { workflowId: values.workflowId, runId: runOf.get(values.workflowId)!, created: true };
      const before = earlierOf.get(`${values.siteId} ${values.idempotencyKey}`);
      if (values.idempotencyKey !== undefined && before) return { workflowId: before.workflow_id, runId: before.run_id, created: false };
      if (taken.has(values.workflowId)) return new Error(`workflow id ${values.workflowId} is already taken`);
      return undefined;
    });
  });
}

/**
 * Concurrent starts share one transaction per database they were asked on. One batch at a time:
 * batches of one site wait on each other's cap lock anyway, so the next batch gathers every start
 * that arrives meanwhile.
 */
const cappedStarts = sharedBatcher(
  'workflow-starts',
  async (batch: CappedStart[]) => {
    const groups = new Map<Promise<Database>, number[]>();
    batch.forEach((s, i) => groups.set(s.on, [...(groups.get(s.on) ?? []), i]));
    const out: (StartedWithinCap | Error)[] = new Array(batch.length);
    await Promise.all(
      [...groups].map(async ([on, indexes]) => {
        const answers = await insertCapped(
          on,
          indexes.map((i) => batch[i]),
        );
        indexes.forEach((i, k) => (out[i] = answers[k]));
      }),
    );
    return out;
  },
  { concurrency: 1 },
);

/**
 * Records a run and queues its first job (`enqueueFirst`, with the same commit) only while the
 * site has fewer than `cap` runs in progress; concurrent starts go together (`insertCapped`).
 */
export async function insertRunWithinCap(
  values: NewRun,
  cap: number,
  /** Queues the first jobs of runs with the insert's transaction. */
  enqueueFirst: (tx: Db, runIds: string[]) => Promise<unknown>,
): Promise<StartedWithinCap> {
  const answer = await cappedStarts.submit({ values, cap, on: database(), enqueueFirst });
  if (answer instanceof Error) throw answer;
  return answer;
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

/**
 * Ends a running run (no-op when it already ended); answers whether this call ended it. The
 * `workflow.*` webhook event is written in the same transaction (lib/webhooks/events.ts).
 */
export async function closeRun(
  runId: string,
  status: Exclude<WorkflowStatus, 'RUNNING'>,
  at: Date,
  outcome: { result?: unknown; failure?: WorkflowFailure },
  /** With the same commit: the checkpoint of the run's last step, and the executing job's completion. */
  also: { checkpoint?: Checkpoint; within?: (tx: Db) => Promise<unknown> } = {},
): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    if (also.checkpoint) await writeCheckpoint(also.checkpoint, tx);
    const [row] = await tx
      .update(workflowRuns)
      .set({ status, closeTime: at, result: outcome.result ?? null, failure: outcome.failure ?? null, heldBy: null })
      .where(and(eq(workflowRuns.runId, runId), eq(workflowRuns.status, 'RUNNING')))
      .returning();
    if (row) await recordRunEnd(toRecord(row), row.siteId, tx);
    await also.within?.(tx);
    return Boolean(row);
  });
}

export async function closeRunOfSite(
  siteId: string,
  workflowId: string,
  status: 'CANCELLED' | 'TERMINATED',
  at: Date,
  failure: WorkflowFailure,
): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(workflowRuns)
      .set({ status, closeTime: at, failure, heldBy: null })
      .where(and(eq(workflowRuns.siteId, siteId), eq(workflowRuns.workflowId, workflowId), eq(workflowRuns.status, 'RUNNING')))
      .returning();
    if (row) await recordRunEnd(toRecord(row), row.siteId, tx);
    return Boolean(row);
  });
}

/**
 * Takes the run for the job `jobId` of `queue`: when nobody holds it, this job already does (its
 * retry after a crash), or its holder's job is no longer active in the queue (that worker died
 * and the queue expired its job). A live holder keeps its job active, so the run stays its own.
 */
export async function holdRun(runId: string, queue: string, jobId: string): Promise<{ run: RunRow; steps: StepState[] } | undefined> {
  const db = await getDb();
  // The run's recorded steps come back with the same statement (one round trip per execution).
  const [held] = await db
    .update(workflowRuns)
    .set({ heldBy: jobId })
    .where(
      and(
        eq(workflowRuns.runId, runId),
        eq(workflowRuns.status, 'RUNNING'),
        sql`(${workflowRuns.heldBy} is null or ${workflowRuns.heldBy} = ${jobId} or not exists (select 1 from ${sql.raw(JOB_SCHEMA)}.job j where j.name = ${queue} and j.id = ${workflowRuns.heldBy} and j.state = 'active'))`,
      ),
    )
    .returning({
      ...getTableColumns(workflowRuns),
      steps: sql<unknown>`(select coalesce(json_agg(json_build_object('step', s.step, 'kind', s.kind, 'name', s.name, 'wakeAt', s.wake_at, 'completed', s.completed, 'result', s.result) order by s.step), '[]'::json) from workflow_steps s where s.run_id = workflow_runs.run_id)`,
    });
  if (!held) return undefined;
  const { steps, ...run } = held;
  const list = (typeof steps === 'string' ? JSON.parse(steps) : steps) as (Omit<StepState, 'wakeAt'> & { wakeAt: string | null })[];
  return { run, steps: list.map((step) => ({ ...step, wakeAt: step.wakeAt === null ? null : new Date(step.wakeAt) })) };
}

/** What a step checks before it acts: the run is still RUNNING, within its deadline and held by its job. */
export interface RunState {
  status: string;
  timeoutAt: Date | null;
  heldBy: string | null;
}

/** The run's status and deadline, to check before a step acts. */
export async function runState(runId: string): Promise<RunState | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ status: workflowRuns.status, timeoutAt: workflowRuns.timeoutAt, heldBy: workflowRuns.heldBy })
    .from(workflowRuns)
    .where(eq(workflowRuns.runId, runId));
  return row;
}

/** Lets go of the run (it waits for a timer or a signal, or its job failed and will be retried). */
export async function releaseRun(runId: string, jobId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(workflowRuns)
    .set({ heldBy: null })
    .where(and(eq(workflowRuns.runId, runId), eq(workflowRuns.heldBy, jobId)));
}

/** Records a step as reached (timers and signal waits: with when the wait ends). */
export async function openStep(step: {
  runId: string;
  step: number;
  siteId: string;
  kind: StepRow['kind'];
  name: string;
  wakeAt: Date | null;
}): Promise<void> {
  const db = await getDb();
  await db
    .insert(workflowSteps)
    .values({ ...step, completed: false })
    .onConflictDoNothing();
}

/** A completed step to record: its result (wrapped, so `undefined` survives) and when it completed. */
export interface Checkpoint {
  runId: string;
  step: number;
  siteId: string;
  kind: StepRow['kind'];
  name: string;
  value: unknown;
  at: Date;
}

const checkpointStatement = (c: Checkpoint) => {
  const result = c.value === undefined ? {} : { value: c.value };
  return sql`insert into workflow_steps (run_id, step, site_id, kind, name, completed, result, completed_at)
    values (${c.runId}, ${c.step}, ${c.siteId}, ${c.kind}, ${c.name}, true, ${JSON.stringify(result)}::jsonb, ${c.at.toISOString()}::timestamptz)
    on conflict (run_id, step) do update set completed = true, result = excluded.result, completed_at = excluded.completed_at`;
};

async function writeCheckpoint(c: Checkpoint, db: Db): Promise<void> {
  await db.execute(checkpointStatement(c));
}

/** Checkpoints a completed step. */
export async function completeStep(c: Checkpoint): Promise<void> {
  await writeCheckpoint(c, await getDb());
}

/** Checkpoints a completed step and reads the run's state after it, in one statement (the check before the next step). */
export async function completeStepThenState(c: Checkpoint): Promise<RunState | undefined> {
  const [row] = await rows<{ status: string; timeout_at: string | Date | null; held_by: string | null }>(
    sql`with checkpoint as (${checkpointStatement(c)} returning 1)
      select status, timeout_at, held_by from workflow_runs where run_id = ${c.runId}`,
  );
  return row && { status: row.status, timeoutAt: row.timeout_at === null ? null : new Date(row.timeout_at), heldBy: row.held_by };
}

export async function insertSignal(runId: string, siteId: string, name: string, payload: unknown): Promise<void> {
  const db = await getDb();
  await db.insert(workflowSignals).values({ runId, siteId, name, payload: payload ?? null });
}

/**
 * Hands the oldest unconsumed signal of that name to the step; undefined when none arrived. A
 * signal this step already took (a crash between taking it and the checkpoint) is taken again.
 */
export async function consumeSignal(runId: string, name: string, step: number): Promise<{ payload: unknown } | undefined> {
  const db = await getDb();
  const [row] = await db
    .update(workflowSignals)
    .set({ consumedStep: step })
    .where(
      eq(
        workflowSignals.id,
        sql`(select id from workflow_signals where run_id = ${runId} and name = ${name} and (consumed_step is null or consumed_step = ${step}) order by consumed_step is null, id limit 1)`,
      ),
    )
    .returning({ payload: workflowSignals.payload });
  return row;
}
