import { sql, type SQL } from 'drizzle-orm';
import { getDb, type Db } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { SESSION_MAX_MS } from '@/lib/db/visitor-session-lifetime';
import type { Days } from './calendar';
import { DIMENSION_SQL, inSample, matches, pgArray, SESSION_DIMS as DIMS, type Part, type ReadFilter, type SessionDim } from './repo';
import type { Sample } from './samples';

/**
 * Per-slot sums of the session facts by dimension value (analytics_dimension_slots): the sessions
 * that started in a 15-minute slot and the events received in it, per value of each session
 * dimension. An overview filtered on one dimension sums them over the values the filters keep
 * instead of reading every matching session; its distinct visitors alone are counted per session.
 * The job writes a batch's sums with its session facts (./session-facts-repo.ts); a deletion of
 * session facts marks the span of their slots dirty (a trigger), and the job computes it again.
 */

/** The slot events are kept by: a quarter of an hour (every UTC offset is a whole number of them). */
export const SLOT_MS = 15 * 60_000;

/** The dirty spans of a site's row of analytics_sessions_kept, earliest first, as JSON pairs [from, to] (null: none). */
export const DIRTY_SPANS = sql`(select json_agg(json_build_array(lower(r), upper(r)) order by lower(r)) from unnest(dirty) r)`;

/** The columns of the dimensions of a relation of session facts named `alias`. */
const dimsOf = (alias: string) => sql.raw(DIMS.map((d) => `${alias}.${d}`).join(', '));

/** Up to when the site's session facts are kept, and the spans [from, to) whose slot sums are being computed again. */
export interface KeptFacts {
  upto: number;
  dirty: [number, number][];
}

/**
 * The slot sums of two relations of session facts (each with the dimension columns): `starts`, the
 * sessions counted at the slot they started in (created_at, page_views, conversions, duration_ms),
 * and `events`, their page views and conversions per slot of receipt (slot, page_views, conversions).
 */
function slotSumsSql(starts: SQL, events: SQL): SQL {
  const dims = sql.raw(DIMS.join(', '));
  const values = sql.join(
    DIMS.map((d) => sql`(${d}::text, ${sql.raw(`x.${d}`)})`),
    sql`, `,
  );
  return sql`
    select d.dim, d.value, x.slot, sum(x.sessions)::int as sessions, sum(x.bounces)::int as bounces, sum(x.duration_ms)::bigint as duration_ms,
           sum(x.page_views)::int as page_views, sum(x.conversions)::int as conversions,
           sum(x.event_page_views)::int as event_page_views, sum(x.event_conversions)::int as event_conversions
    from (
      select ${dims}, created_at - created_at % ${SLOT_MS}::bigint as slot, 1 as sessions, (page_views <= 1)::int as bounces,
             duration_ms, page_views, conversions, 0 as event_page_views, 0 as event_conversions
      from ${starts} s
      union all
      select ${dims}, slot, 0, 0, 0, 0, 0, page_views, conversions from ${events} s where page_views > 0 or conversions > 0
    ) x cross join lateral (values ${values}) as d (dim, value)
    group by d.dim, d.value, x.slot`;
}

const SLOT_COLUMNS = sql.raw('dim, value, slot, sessions, bounces, duration_ms, page_views, conversions, event_page_views, event_conversions');

/**
 * Statement parts that add the slot sums of the sessions a statement keeps: `kept`, the rows it
 * inserts into analytics_sessions (returning `KEPT_RETURNING`), and `pages`, their page facts.
 */
export const KEPT_RETURNING = sql.raw(`session_id, created_at, page_views, conversions, duration_ms, ${DIMS.join(', ')}`);
export function addSlotSums(siteId: string, kept: SQL, pages: SQL): SQL {
  const events = sql`(select ${dimsOf('k')}, p.slot, p.page_views, p.conversions
    from ${pages} p join ${kept} k on k.session_id = p.session_id)`;
  return sql`insert into analytics_dimension_slots (site_id, ${SLOT_COLUMNS}) select ${siteId}, ${SLOT_COLUMNS} from (${slotSumsSql(kept, events)}) a`;
}

/** Spans of dirty slots closer than this are computed again together. */
const MERGE_GAP_MS = 86_400_000;

/**
 * Computes again the slot sums of the site's dirty spans from the session facts kept, and clears
 * them, in one transaction (the site's row locked: a deletion meanwhile marks its span after it).
 * Answers the spans computed.
 */
export async function recomputeDirtySlots(siteId: string): Promise<number> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await rows<{ spans: [number, number][] | null }>(
      sql`select ${DIRTY_SPANS} as spans
          from analytics_sessions_kept where site_id = ${siteId} for update`,
      tx,
    );
    if (!row?.spans?.length) return 0;
    const merged: [number, number][] = [];
    for (const [lo, hi] of row.spans.map(([a, b]) => [a - (a % SLOT_MS), Math.ceil(b / SLOT_MS) * SLOT_MS] as [number, number])) {
      const last = merged[merged.length - 1];
      if (last && lo <= last[1] + MERGE_GAP_MS) last[1] = Math.max(last[1], hi);
      else merged.push([lo, hi]);
    }
    for (const [lo, hi] of merged) await recomputeSpan(tx, siteId, lo, hi);
    await rows(sql`update analytics_sessions_kept set dirty = null where site_id = ${siteId}`, tx);
    return merged.length;
  });
}

/** Replaces the slot sums of the slots in [lo, hi) (slot-aligned) with those of the session facts kept. */
async function recomputeSpan(tx: Db, siteId: string, lo: number, hi: number): Promise<void> {
  await rows(sql`delete from analytics_dimension_slots where site_id = ${siteId} and slot >= ${lo}::bigint and slot < ${hi}::bigint`, tx);
  const starts = sql`(select * from analytics_sessions where site_id = ${siteId} and created_at >= ${lo}::bigint and created_at < ${hi}::bigint)`;
  const events = sql`(select ${dimsOf('f')}, p.slot, p.page_views, p.conversions
    from analytics_sessions f join analytics_session_pages p on p.session_id = f.session_id
    where f.site_id = ${siteId} and f.created_at >= ${lo - SESSION_MAX_MS}::bigint and f.created_at < ${hi}::bigint
      and p.slot >= ${lo}::bigint and p.slot < ${hi}::bigint)`;
  await rows(
    sql`insert into analytics_dimension_slots (site_id, ${SLOT_COLUMNS}) select ${siteId}, ${SLOT_COLUMNS} from (${slotSumsSql(starts, events)}) a`,
    tx,
  );
}

/** Forgets every slot sum of the site (its session facts are kept again from the start). */
export async function dropSlotSums(siteId: string, db?: Db): Promise<void> {
  await rows(sql`delete from analytics_dimension_slots where site_id = ${siteId}`, db);
}

/**
 * The one dimension a read can sum the slot sums of: an overview (`parts`: the totals alone) whose
 * filters all name the same session dimension, none of the slots of [lo, hi) dirty. Undefined otherwise.
 */
export function slotDimensionOf(parts: Part[], filters: ReadFilter[], kept: KeptFacts | undefined, lo: number, hi: number): SessionDim | undefined {
  if (!kept || !filters.length || parts.some((p) => p !== 'totals')) return undefined;
  const dim = filters[0].dimension;
  if (!(dim in DIMENSION_SQL) || filters.some((f) => f.dimension !== dim)) return undefined;
  if (kept.dirty.some(([from, to]) => from < hi && to > lo)) return undefined;
  return dim as SessionDim;
}

/**
 * Whether the slot sums of [lo, hi) still sum the facts kept up to `upto` in a statement's snapshot
 * (`ok`): the job may have kept more, or a deletion dirtied a span, since the read looked.
 */
export const slotSumsCurrentSql = (siteId: string, upto: number, lo: number, hi: number): SQL =>
  sql`select exists (select 1 from analytics_sessions_kept k where k.site_id = ${siteId} and k.upto = ${upto}::bigint
        and not coalesce(k.dirty && int8range(${lo}::bigint, ${hi}::bigint), false)) as ok`;

/** The values of `dim` the filters keep, over the column `value`. */
const keptValues = (value: SQL, filters: ReadFilter[]) =>
  sql.join(
    filters.map((f) => (f.exclude ? sql`not coalesce(${matches(value, f)}, false)` : matches(value, f))),
    sql` and `,
  );

/**
 * Fact rows (./repo.ts `factRows` columns) of the day totals of the kept sessions the filters on
 * `dim` keep, from the slot sums of the days of `days` (while `ok`): sessions, bounces and duration
 * by the day they started on, page views and conversions by the day received. Visitors are not summed (0).
 */
export function slotTotalsSql(siteId: string, dim: SessionDim, filters: ReadFilter[], days: Days, ok: SQL): SQL {
  const { starts } = days;
  return sql`
    select (${pgArray(days.dates)}::date[])[d], 'total', '', 0, sessions, bounces, duration_ms, page_views, conversions, 0, 0, 0
    from (
      select width_bucket(a.slot, ${pgArray(starts)}::bigint[]) as d, sum(a.sessions) as sessions, sum(a.bounces) as bounces,
             sum(a.duration_ms) as duration_ms, sum(a.event_page_views) as page_views, sum(a.event_conversions) as conversions
      from analytics_dimension_slots a
      where a.site_id = ${siteId} and a.dim = ${dim} and a.slot >= ${starts[0]}::bigint and a.slot < ${starts[starts.length - 1]}::bigint
        and ${keptValues(sql`a.value`, filters)} and ${ok}
      group by 1) a`;
}

/** The dimensions the session facts have an index of (with the visitor) for: 20261208070000_analytics_session_facts.sql. */
const INDEXED: SessionDim[] = ['country', 'utm_source', 'referrer'];

/**
 * The visitors (visitor_id, day number `d`) of the kept sessions started in [lo, to) that the
 * filters on `dim` keep, of the visitors of `sample`. On an indexed dimension a filter that keeps
 * many values (a negation, a pattern, none) reads the index ranges of the values the period's slot
 * sums hold that it keeps, and of none, instead of every session of the period.
 */
export function keptVisitorsSql(
  siteId: string,
  dim: SessionDim,
  filters: ReadFilter[],
  lo: number,
  to: number,
  dayNumber: (t: SQL) => SQL,
  ok: SQL,
  sample: Sample,
): SQL {
  const column = sql.raw(`s.${dim}`);
  const test = keptValues(column, filters);
  const of = (where: SQL) => sql`
    select s.visitor_id, ${dayNumber(sql`s.created_at`)} as d from analytics_sessions s
    where s.site_id = ${siteId} and ${where} and ${inSample(sql`s.sample`, sample)}
      and s.created_at >= ${lo}::bigint and s.created_at < ${to}::bigint and ${ok}`;
  if (!INDEXED.includes(dim) || filters.every((f) => !f.exclude && !f.pattern && f.value !== null)) return of(test);
  const values = sql`array(
    select distinct a.value from analytics_dimension_slots a
    where a.site_id = ${siteId} and a.dim = ${dim} and a.slot >= ${lo - (lo % SLOT_MS)}::bigint and a.slot < ${to}::bigint
      and a.value is not null and ${keptValues(sql`a.value`, filters)})`;
  return sql`${of(sql`${column} = any(${values}) and ${test}`)} union all ${of(sql`${column} is null and ${test}`)}`;
}

/**
 * The sessions kept for [lo, hi) that a read with these filters can expect to read, from the slot
 * sums: every session of the period, or those of the value a filter keeps alone (the fewest, when
 * several do). An estimate: 0 before the job's first pass.
 */
export async function expectedSessions(siteId: string, filters: ReadFilter[], lo: number, hi: number): Promise<number> {
  const single = filters.filter((f) => f.dimension in DIMENSION_SQL && !f.exclude && !f.pattern && f.value !== null);
  const groups = [sql`a.dim = 'device'`, ...single.map((f) => sql`(a.dim = ${f.dimension} and a.value = ${f.value})`)];
  const [row] = await rows<{ n: number }>(sql`
    select coalesce(min(n), 0)::float8 as n from (
      select sum(a.sessions) as n from analytics_dimension_slots a
      where a.site_id = ${siteId} and a.slot >= ${lo - (lo % SLOT_MS)}::bigint and a.slot < ${hi}::bigint and (${sql.join(groups, sql` or `)})
      group by a.dim) t`);
  return row?.n ?? 0;
}
