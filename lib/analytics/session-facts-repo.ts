import { sql, type SQL } from 'drizzle-orm';
import { getDb, type Db } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { SESSION_MAX_MS } from '@/lib/db/visitor-session-lifetime';
import {
  addSlotSums,
  DIRTY_SPANS,
  dropSlotSums,
  KEPT_RETURNING,
  keptVisitorsSql,
  SLOT_MS,
  slotDimensionOf,
  slotSumsCurrentSql,
  slotTotalsSql,
  type KeptFacts,
} from './dimension-slots-repo';
import {
  DIMENSION_SQL,
  durationSql,
  engagementFigure,
  factRows,
  goalEventSql,
  inSample,
  matches,
  pgArray,
  scaledRows,
  SESSION_DIMS as DIMS,
  type FactDays,
  type Part,
  type ReadFilter,
  type SessionDim,
  type Where,
} from './repo';
import { SAMPLES, scaleOf, type Sample } from './samples';

/**
 * Session facts: one compact row per finished session of a person (its dimensions and figures) and
 * one per page and 15-minute slot of its events, kept by the analytics-rollup job (./rollups.ts) for
 * the sessions that started before the site's `upto` (analytics_sessions_kept). A filtered read sums
 * them, and computes the sessions started since from the raw rows with the same queries
 * (`sessionFactsSql`, `pageFactsSql`): the answers are those of ./repo.ts `factsQuery` over the raw
 * rows. Days are told apart by slot, so a read uses them when its calendar's days start on a slot
 * (`startsOnSlots`; every time zone's do today).
 */

/** Whether every day of `window` (and the year before, never read here) starts on a slot. */
export const startsOnSlots = (window: FactDays) => window.days.starts.every((t) => t % SLOT_MS === 0);

/** The columns of a session fact, in the table's order (those a read and the job share). */
const SESSION_COLUMNS = sql.raw(
  `session_id, visitor_id, created_at, ${DIMS.join(', ')}, page_views, conversions, duration_ms, event_page_views, event_conversions, first_slot, last_slot`,
);
const PAGE_COLUMNS = sql.raw('session_id, started_at, slot, path, sample, page_views, conversions, engaged_ms, scroll_depth, engagements');

/**
 * Page facts from the raw rows of the people's sessions started in [from, to): their page views,
 * conversions and engagement per page (an engagement event names its page by its URL) and slot,
 * with their visitor's sample.
 */
function pageFactsSql(siteId: string, from: number, to: number, only?: SQL): SQL {
  const counted = sql`e.event_type in ('pageview', 'engagement')`;
  return sql`
    select e.session_id, s.created_at as started_at, e.received_at - e.received_at % ${SLOT_MS}::bigint as slot,
           case when e.event_type = 'engagement' then analytics_url_path(e.url) else e.path end as path,
           analytics_sample(s.visitor_id) as sample,
           (count(*) filter (where e.event_type = 'pageview'))::int as page_views,
           (count(*) filter (where e.event_type = 'conversion'))::int as conversions,
           coalesce(sum(${engagementFigure('engaged_ms', 86_400_000)}) filter (where ${counted}), 0)::bigint as engaged_ms,
           coalesce(sum(${engagementFigure('scroll_depth', 100)}) filter (where ${counted}), 0)::bigint as scroll_depth,
           (count(*) filter (where e.event_type = 'engagement'))::int as engagements
    from visitor_sessions s
    join session_events e on e.session_id = s.id
    where s.site_id = ${siteId} and s.created_at >= ${from}::bigint and s.created_at < ${to}::bigint and not s.is_bot
      ${only ? sql`and ${only}` : sql``}
      and e.site_id = ${siteId} and e.received_at >= ${from - SESSION_MAX_MS}::bigint and e.received_at < ${to + SESSION_MAX_MS}::bigint
      and e.event_type in ('pageview', 'conversion', 'engagement')
    group by 1, 2, 3, 4, 5`;
}

/** Session facts from the raw rows of the people's sessions started in [from, to), their events counted from `pages` (their page facts). */
function sessionFactsSql(siteId: string, from: number, to: number, pages: SQL, only?: SQL): SQL {
  return sql`
    select s.id as session_id, s.visitor_id, s.created_at,
           ${sql.join(
             DIMS.map((d) => sql`${DIMENSION_SQL[d]} as ${sql.raw(d)}`),
             sql`, `,
           )},
           s.page_views, s.conversions, ${durationSql} as duration_ms,
           coalesce(p.page_views, 0)::int as event_page_views, coalesce(p.conversions, 0)::int as event_conversions, p.first_slot, p.last_slot
    from visitor_sessions s
    left join (
      select p.session_id, sum(p.page_views) as page_views, sum(p.conversions) as conversions,
             min(p.slot) as first_slot, max(p.slot) as last_slot
      from ${pages} p group by p.session_id
    ) p on p.session_id = s.id
    where s.site_id = ${siteId} and s.created_at >= ${from}::bigint and s.created_at < ${to}::bigint and not s.is_bot
      ${only ? sql`and ${only}` : sql``}`;
}

/** Up to when the site's sessions have their facts kept (epoch ms), and the dirty spans of their slot sums (undefined: none yet). */
export async function sessionsKept(siteId: string, db?: Db): Promise<KeptFacts | undefined> {
  const [row] = await rows<{ upto: number; dirty: [number, number][] | null }>(
    sql`select upto::float8 as upto, ${DIRTY_SPANS} as dirty
        from analytics_sessions_kept where site_id = ${siteId}`,
    db,
  );
  return row ? { upto: row.upto, dirty: row.dirty ?? [] } : undefined;
}

/** Sessions whose facts one statement keeps at most (a busy site's history goes in several). */
const KEEP_SPAN_MS = 7 * 86_400_000;

/**
 * Writes the facts of the people's sessions started in [from, to) (those of `only` among them),
 * pages, sessions and their slot sums in one statement (the foreign keys are checked at its end).
 */
async function writeFacts(tx: Db, siteId: string, from: number, to: number, now: number, only?: SQL): Promise<number> {
  const [{ n }] = await rows<{ n: number }>(
    sql`with p as materialized (${pageFactsSql(siteId, from, to, only)}),
    pages as (
      insert into analytics_session_pages (site_id, ${PAGE_COLUMNS}) select ${siteId}, ${PAGE_COLUMNS} from p order by started_at, session_id),
    kept as (
      insert into analytics_sessions (site_id, computed_at, ${SESSION_COLUMNS})
      select ${siteId}, ${now}::bigint, ${SESSION_COLUMNS} from (${sessionFactsSql(siteId, from, to, sql`p`, only)}) f
      -- By sample, then in order of start: a read of a period (of a share of the visitors) finds its sessions side by side.
      order by analytics_sample(visitor_id), created_at
      returning ${KEPT_RETURNING}),
    slots as (${addSlotSums(siteId, sql`kept`, sql`p`)})
    select count(*)::int as n from kept`,
    tx,
  );
  return n;
}

/**
 * Keeps the facts of the site's sessions started from where they are kept up to `upto` (from its
 * first session on the first run), a week of sessions per transaction, each moving the mark: a run
 * cut short leaves the rest to the next. Answers the sessions kept.
 */
export async function keepSessionFacts(siteId: string, first: number, upto: number, now: number, signal?: AbortSignal): Promise<number> {
  const mark = await sessionsKept(siteId);
  let from = mark?.upto ?? first;
  let kept = 0;
  const db = await getDb();
  while (from < upto) {
    if (signal?.aborted) break;
    const to = Math.min(upto, from + KEEP_SPAN_MS);
    const fresh = from === first && !mark;
    kept += await db.transaction(async (tx) => {
      // Kept from the start: no slot sum of facts kept before may stay.
      if (fresh) await dropSlotSums(siteId, tx);
      const n = await writeFacts(tx, siteId, from, to, now);
      await rows(
        sql`insert into analytics_sessions_kept (site_id, upto, computed_at) values (${siteId}, ${to}::bigint, ${now}::bigint)
            on conflict (site_id) do update set upto = excluded.upto, computed_at = excluded.computed_at`,
        tx,
      );
      return n;
    });
    from = to;
  }
  return kept;
}

/**
 * Computes again the kept facts of the sessions started in [from, to) that were written to after
 * (their close, activity), replacing them in one transaction. Answers how many.
 */
export async function refreshChangedSessionFacts(siteId: string, from: number, to: number, now: number): Promise<number> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const changed = await rows<{ id: string }>(
      sql`select f.session_id as id from analytics_sessions f join visitor_sessions s on s.id = f.session_id
          where f.site_id = ${siteId} and f.created_at >= ${from}::bigint and f.created_at < ${to}::bigint
            and s.site_id = ${siteId} and s.updated_at > f.computed_at`,
      tx,
    );
    if (!changed.length) return 0;
    const ids = sql`${`{${changed.map((r) => r.id).join(',')}}`}::uuid[]`;
    await rows(sql`delete from analytics_sessions where site_id = ${siteId} and session_id = any(${ids})`, tx);
    return writeFacts(tx, siteId, from, to, now, sql`s.id = any(${ids})`);
  });
}

/**
 * A filter over a session fact `s`: the same visits as ./repo.ts `whereOf` keeps from the raw rows.
 * A page filter reads the sessions that viewed the page from `viewers` (their ids).
 */
function factFilterSql(f: ReadFilter, where: Where, viewers: SQL): SQL {
  if (f.dimension === 'page') {
    const viewed = sql`s.session_id in (select session_id from ${viewers})`;
    return f.exclude ? sql`not ${viewed}` : viewed;
  }
  if (f.dimension === 'goal') {
    const { siteId, lo, hi } = where.scope;
    const reached = sql`exists (select 1 from session_events ge where ge.session_id = s.session_id and ge.site_id = ${siteId}
      and ge.received_at >= ${lo - SESSION_MAX_MS}::bigint and ge.received_at < ${hi + SESSION_MAX_MS}::bigint and ${goalEventSql('ge', f.goal!)})`;
    return f.exclude ? sql`not ${reached}` : reached;
  }
  const m = matches(sql`s.${sql.raw(f.dimension)}`, f);
  return f.exclude ? sql`not coalesce(${m}, false)` : m;
}

/**
 * The fact rows of `parts` for the days of `window` (./repo.ts `factsQuery`'s shape and answers)
 * of the sessions `where` keeps, from the session facts kept (`kept`) and the raw rows since. An
 * overview filtered on one dimension sums the kept sessions' slot sums (./dimension-slots-repo.ts)
 * and reads their visitors alone; the sessions since are read as every other filtered read does.
 * Of the visitors of `sample` only (./samples.ts), their figures scaled; the slot sums are not.
 */
export function filteredFactsQuery(siteId: string, window: FactDays, parts: Part[], where: Where, kept: KeptFacts | undefined, sample: Sample): SQL {
  const { days } = window;
  const lo = days.starts[0];
  const hi = days.starts[days.starts.length - 1];
  // The sessions whose events can fall in the period: those started up to a session's lifetime before it.
  const earliest = lo - SESSION_MAX_MS;
  const keptTo = Math.max(earliest, Math.min(kept?.upto ?? earliest, hi));
  const slotDim = slotDimensionOf(parts, where.filters, kept, lo, hi);
  const dims = parts.filter((p): p is SessionDim => p in DIMENSION_SQL);
  const pageFilters = where.filters.filter((f) => f.dimension === 'page');
  const onPage = (path: SQL) =>
    pageFilters.length
      ? sql.join(
          pageFilters.map((f) => (f.exclude ? sql`not coalesce(${matches(path, f)}, false)` : matches(path, f))),
          sql` and `,
        )
      : sql`true`;
  const bucket = (t: SQL) => sql`width_bucket(${t}, cal.starts)`;
  // A session whose events of the period fall on one day counts them from its own row; with a page filter that
  // keeps a page, the page views are those of the page's slots (on its index); else every slot of every session is read.
  const byPage = pageFilters.some((f) => !f.exclude);
  const everySlot = parts.includes('page') || (pageFilters.length > 0 && !byPage);
  const single = sql`m.first_slot >= ${lo}::bigint and m.last_slot < ${hi}::bigint and ${bucket(sql`m.first_slot`)} = ${bucket(sql`m.last_slot`)}`;
  // Summing the slot sums, the kept sessions are not read one by one (their visitors apart) — when the statement
  // finds the facts kept to the same mark, none of the period's slots dirty (`ok`); else they are, as without.
  const ok = slotDim ? sql`(select ok from guard)` : undefined;
  const unlessSlots = ok ? sql`and not ${ok}` : sql``;
  const sampled = sample.kept < SAMPLES;
  const viewersOf = (i: number) => sql.raw(`pv${i}`);
  const ctes: SQL[] = [
    sql`cal as materialized (select ${pgArray(days.starts)}::bigint[] as starts, ${pgArray(days.dates)}::date[] as dates)`,
    ...(slotDim ? [sql`guard as materialized (${slotSumsCurrentSql(siteId, kept!.upto, lo, hi)})`] : []),
    // The sessions started since the facts were kept: computed from the raw rows, as the job keeps them.
    sql`tp as materialized (${pageFactsSql(siteId, keptTo, hi)})`,
    sql`sp as not materialized (
      select ${PAGE_COLUMNS} from analytics_session_pages
      where site_id = ${siteId} and ${inSample(sql`sample`, sample)} and started_at >= ${earliest}::bigint and started_at < ${keptTo}::bigint
        ${unlessSlots}
      union all
      select ${PAGE_COLUMNS} from tp)`,
    sql`ss as (
      select ${SESSION_COLUMNS} from analytics_sessions
      where site_id = ${siteId} and ${inSample(sql`sample`, sample)} and created_at >= ${earliest}::bigint and created_at < ${keptTo}::bigint
        ${unlessSlots}
      union all
      select ${SESSION_COLUMNS} from (${sessionFactsSql(siteId, keptTo, hi, sql`tp`, sampled ? inSample(sql`analytics_sample(s.visitor_id)`, sample) : undefined)}) t)`,
    // The sessions that viewed the page of each page filter, apart (the planner cannot tell how many).
    ...where.filters.flatMap((f, i) =>
      f.dimension === 'page'
        ? [sql`${viewersOf(i)} as materialized (select distinct session_id from sp where sp.page_views > 0 and ${matches(sql`sp.path`, f)})`]
        : [],
    ),
    // The matching sessions, narrow (what the figures read), with the day they started on in the period (else null).
    sql`m as materialized (
      select s.session_id, s.visitor_id, s.created_at, s.page_views, s.conversions, s.duration_ms, s.event_page_views, s.event_conversions,
             s.first_slot, s.last_slot, ${sql.join(
               dims.map((d) => sql.raw(`s.${d}`)),
               sql`, `,
             )}${dims.length ? sql`, ` : sql``}
             case when s.created_at >= ${lo}::bigint and s.created_at < ${hi}::bigint
               then (${pgArray(days.dates)}::date[])[width_bucket(s.created_at, ${pgArray(days.starts)}::bigint[])] end as day
      -- The calendar inline, not joined: a join with it misleads the planner's estimate of the page filters' semi-joins.
      from ss s
      where ${sql.join(
        where.filters.map((f, i) => factFilterSql(f, where, viewersOf(i))),
        sql` and `,
      )})`,
    // The slots of the matching sessions' events in the period (page views of the filtered pages only): of every
    // session for pages and page filters that keep none, else of those not counted from their own row. The kept
    // ones by session on their index (`offset 0` keeps the join by session), those since from the raw rows.
    sql`e as (
      select cal.dates[${bucket(sql`p.slot`)}] as day, p.session_id, p.path, p.page_views, p.conversions,
             p.engaged_ms, p.scroll_depth, p.engagements, ${onPage(sql`p.path`)} as on_page
      from (select m.session_id, m.created_at from m, cal where m.first_slot < ${hi}::bigint and m.last_slot >= ${lo}::bigint
            ${everySlot ? sql`` : sql`and not (${single})`}) mx
      cross join lateral (
        (select ${PAGE_COLUMNS} from analytics_session_pages k
         where mx.created_at < ${keptTo}::bigint and k.session_id = mx.session_id and k.slot >= ${lo}::bigint and k.slot < ${hi}::bigint
         offset 0)
        union all
        (select ${PAGE_COLUMNS} from tp where mx.created_at >= ${keptTo}::bigint and tp.session_id = mx.session_id
           and tp.slot >= ${lo}::bigint and tp.slot < ${hi}::bigint)
      ) p, cal)`,
  ];
  // What the sample's sessions give (scaled when sampled), and the slot sums of every session (never scaled).
  const selects: SQL[] = [];
  const exact: SQL[] = [];
  if (parts.includes('totals')) {
    // Distinct visitors per day, and of the whole period, by hash aggregates over (day number, visitor) (no sort).
    const dayNumber = (t: SQL) => sql`width_bucket(${t}, ${pgArray(days.starts)}::bigint[])`;
    const keptVisitors =
      slotDim && ok ? sql`${keptVisitorsSql(siteId, slotDim, where.filters, lo, keptTo, dayNumber, ok, sample)} union all ` : sql``;
    ctes.push(sql`vd as materialized (
      select d, visitor_id from (${keptVisitors}select visitor_id, ${dayNumber(sql`created_at`)} from m where day is not null) v (visitor_id, d)
      group by d, visitor_id)`);
    selects.push(sql`
      select (${pgArray(days.dates)}::date[])[d], 'total' as dim, '' as value, count(*) as visitors, 0 as sessions, 0 as bounces,
             0 as duration_ms, 0 as page_views, 0 as conversions, 0 as engaged_ms, 0 as scroll_depth, 0 as engagements
      from vd group by d`);
    selects.push(sql`select null::date, 'distinct', '', count(*), 0, 0, 0, 0, 0, 0, 0, 0 from (select visitor_id from vd group by visitor_id) v`);
    selects.push(sql`
      select day, 'total', '', 0, count(*), count(*) filter (where page_views <= 1), sum(duration_ms), 0, 0, 0, 0, 0
      from m where day is not null group by day`);
    if (slotDim && ok) exact.push(slotTotalsSql(siteId, slotDim, where.filters, days, ok));
    if (!everySlot)
      selects.push(sql`
        select cal.dates[${bucket(sql`m.first_slot`)}], 'total', '', 0, 0, 0, 0, ${byPage ? sql`0` : sql`sum(m.event_page_views)`},
               sum(m.event_conversions), 0, 0, 0
        from m, cal where ${single}
        group by 1`);
    selects.push(sql`
      select day, 'total', '', 0, 0, 0, 0, ${byPage ? sql`0` : sql`sum(page_views) filter (where on_page)`}, sum(conversions), 0, 0, 0
      from e group by day`);
    if (byPage && !everySlot)
      selects.push(sql`
        select cal.dates[${bucket(sql`sp.slot`)}], 'total', '', 0, 0, 0, 0, sum(sp.page_views), 0, 0, 0, 0
        from m join sp on sp.session_id = m.session_id, cal
        where sp.page_views > 0 and ${onPage(sql`sp.path`)} and sp.slot >= ${lo}::bigint and sp.slot < ${hi}::bigint
        group by 1`);
  }
  if (dims.length) {
    const values = sql.join(
      dims.map((d) => sql`(${d}::text, ${sql.raw(`s.${d}`)})`),
      sql`, `,
    );
    selects.push(sql`
      select s.day, d.dim, coalesce(d.value, ''), 0, count(*), count(*) filter (where s.page_views <= 1), sum(s.duration_ms),
             sum(s.page_views), sum(s.conversions), 0, 0, 0
      from m s cross join lateral (values ${values}) as d (dim, value)
      where s.day is not null
      group by s.day, d.dim, d.value`);
  }
  if (parts.includes('page')) {
    selects.push(sql`
      select day, 'page', coalesce(path, ''), 0, count(*) filter (where n > 0), 0, 0, sum(n), 0, sum(engaged_ms), sum(scroll_depth), sum(k)
      from (select day, path, session_id, sum(page_views) as n, sum(engaged_ms) as engaged_ms, sum(scroll_depth) as scroll_depth,
                   sum(engagements) as k
            from e where (page_views > 0 or engagements > 0) and on_page group by day, path, session_id) v
      group by day, path`);
  }
  return factRows(ctes, [...exact, ...(sampled ? [scaledRows(selects, scaleOf(sample))] : selects)]);
}
