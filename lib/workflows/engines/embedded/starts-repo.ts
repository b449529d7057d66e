import { sql } from 'drizzle-orm';
import { sharedBatcher } from '@/lib/db/batch';
import { database, getDb, type Database, type Db } from '@/lib/db/client';
import { lockForTransaction } from '@/lib/db/lock';
import { rows } from '@/lib/db/raw';
import { workflowRuns } from '@/lib/db/schema';
import { runByIdempotencyKey, type RunRow } from './runs-repo';

/** Starts of the embedded engine: a run recorded with its first job queued, alone or within the site's cap. */
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
