import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { statementDb } from '@/lib/db/replica';
import { isLiveSql, SESSION_MAX_MS } from '@/lib/db/visitor-session-lifetime';
import type { Days } from './calendar';
import type { Filter } from './filters';
import type { Sample } from './samples';

/**
 * The analytics queries. Every figure is computed from the raw rows by one query (`factsQuery`),
 * per day of a calendar and per dimension value; days that can no longer change are computed once
 * and kept in `analytics_facts` (`rollUp`), the others are computed on each read, and a read sums
 * the two. Bot sessions and their events are left out everywhere.
 *
 * Attribution: session figures count the sessions that started on a day (entry page, source,
 * country, device, bounces, duration, and the session's page views and conversions in the
 * breakdowns); page views, conversions and pages of the day count the events received that day.
 * "Visitors" of a period are the sessions of the period whose visitor's previous session started
 * before the period (or that have none): one per visitor, without a distinct count over the period.
 */

export type SessionDim =
  | 'entry_page'
  | 'exit_page'
  | 'referrer'
  | 'utm_source'
  | 'utm_medium'
  | 'utm_campaign'
  | 'utm_term'
  | 'utm_content'
  | 'country'
  | 'device'
  | 'browser'
  | 'os';
/** What a facts query computes: the day totals (with revisits), pages, or one of the session dimensions. */
export type Part = 'totals' | 'page' | SessionDim;
export const ALL_PARTS: Part[] = [
  'totals',
  'page',
  'entry_page',
  'exit_page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country',
  'device',
  'browser',
  'os',
];

/** What a goal counts: events named `match`, conversions named `match`, or page views whose path matches `match` (`*`: any characters). */
export interface GoalMatch {
  type: 'event' | 'conversion' | 'page';
  match: string;
}

/** A filter of a read, its goal resolved (for `goal` filters). */
export interface ReadFilter extends Filter {
  goal?: GoalMatch;
}

/** A LIKE pattern of a path with `*` wildcards (LIKE's own characters taken literally). */
const likeOf = (value: string) => value.replace(/[\\%_]/g, '\\$&').replaceAll('*', '%');

/** `expr` matches the value (or pattern) of a filter, the exclusion not applied. */
export const matches = (expr: SQL, f: Filter): SQL =>
  f.value === null ? sql`coalesce(${expr}, '') = ''` : f.pattern ? sql`${expr} like ${likeOf(f.value)}` : sql`${expr} = ${f.value}`;

/** An event (alias `a`) counts for a goal. */
export function goalEventSql(a: string, goal: GoalMatch): SQL {
  const e = sql.raw(a);
  if (goal.type === 'page') {
    const path = sql`${e}.path`;
    const test = goal.match.includes('*') ? sql`${path} like ${likeOf(goal.match)}` : sql`${path} = ${goal.match}`;
    return sql`(${e}.event_type = 'pageview' and ${test})`;
  }
  if (goal.type === 'conversion') return sql`(${e}.event_type = 'conversion' and ${e}.event_name = ${goal.match})`;
  return sql`(${e}.event_name = ${goal.match})`;
}

/**
 * The visits a read keeps: a predicate over a row `s` of visitor_sessions (every filter), and one
 * over the path of a page view or engagement event (the page filters: of the sessions that viewed
 * a page, only that page's views count).
 */
export interface Where {
  sessions: SQL;
  pages?: (path: SQL) => SQL;
  /** The filters and scope the predicates were built from (for readers of the session facts). */
  filters: ReadFilter[];
  scope: ReadScope;
}

/**
 * Where the sessions a read looks at can be: the site, and the span of time their events are
 * received in (epoch ms) — a session's events come within its lifetime of its start.
 */
export interface ReadScope {
  siteId: string;
  lo: number;
  hi: number;
}

export function whereOf(filters: ReadFilter[], scope: ReadScope): Where | undefined {
  if (!filters.length) return undefined;
  // The events of the sessions: on the site's indexes (page views by path, named events), matched to the sessions in one pass.
  const eventsOf = (alias: string) => {
    const a = sql.raw(alias);
    return sql`${a}.session_id = s.id and ${a}.site_id = ${scope.siteId} and ${a}.received_at >= ${scope.lo - SESSION_MAX_MS}::bigint
      and ${a}.received_at < ${scope.hi + SESSION_MAX_MS}::bigint`;
  };
  const tests = filters.map((f) => {
    if (f.dimension === 'page') {
      const viewed = sql`exists (select 1 from session_events pe where ${eventsOf('pe')} and pe.event_type = 'pageview' and ${matches(sql`pe.path`, f)})`;
      return f.exclude ? sql`not ${viewed}` : viewed;
    }
    if (f.dimension === 'goal') {
      const reached = sql`exists (select 1 from session_events ge where ${eventsOf('ge')} and ${goalEventSql('ge', f.goal!)})`;
      return f.exclude ? sql`not ${reached}` : reached;
    }
    const m = matches(DIMENSION_SQL[f.dimension], f);
    return f.exclude ? sql`not coalesce(${m}, false)` : m;
  });
  const pageFilters = filters.filter((f) => f.dimension === 'page');
  return {
    filters,
    scope,
    sessions: sql`(${sql.join(tests, sql` and `)})`,
    pages: pageFilters.length
      ? (path) =>
          sql`(${sql.join(
            pageFilters.map((f) => (f.exclude ? sql`not coalesce(${matches(path, f)}, false)` : matches(path, f))),
            sql` and `,
          )})`
      : undefined,
  };
}

/**
 * The sessions a facts query covers by when they started (epoch ms): those started before `before`
 * (the kept part of an open day), or at or after `since` (the rest of it); all when undefined.
 */
export interface SessionBounds {
  before?: number;
  since?: number;
}

/**
 * Events (alias `e`) of people's sessions that a read keeps: the bots' anti-join, or the filters
 * and the bounds of start over their session.
 */
function keptEvents(siteId: string, where: Where | undefined, bounds: SessionBounds = {}): SQL {
  if (!where && bounds.before === undefined && bounds.since === undefined)
    return sql`not exists (select 1 from visitor_sessions b where b.site_id = ${siteId} and b.is_bot and b.id = e.session_id)`;
  const tests: SQL[] = [sql`s.id = e.session_id`, sql`s.site_id = ${siteId}`, sql`not s.is_bot`];
  if (bounds.before !== undefined) tests.push(sql`s.created_at < ${bounds.before}::bigint`);
  if (bounds.since !== undefined) tests.push(sql`s.created_at >= ${bounds.since}::bigint`);
  if (where) tests.push(where.sessions);
  return sql`exists (select 1 from visitor_sessions s where ${sql.join(tests, sql` and `)})`;
}

/** Each session dimension as SQL over a row `s` of visitor_sessions. */
export const DIMENSION_SQL: Record<SessionDim, SQL> = {
  // Both computed when the session is written (generated columns, see the migration).
  entry_page: sql`s.entry_path`,
  // The last page of the visit: where the end route says it left, else the last page view.
  exit_page: sql`analytics_url_path(coalesce(s.exit_url, s.current_url))`,
  referrer: sql`s.referrer_host`,
  utm_source: sql`s.utm_source`,
  utm_medium: sql`s.utm_medium`,
  utm_campaign: sql`s.utm_campaign`,
  utm_term: sql`s.utm_term`,
  utm_content: sql`s.utm_content`,
  country: sql`s.location ->> 'country'`,
  device: sql`s.device ->> 'type'`,
  browser: sql`s.browser ->> 'name'`,
  os: sql`s.device -> 'os' ->> 'name'`,
};

/** The session dimensions, in the order of DIMENSION_SQL (the columns of the session facts). */
export const SESSION_DIMS = Object.keys(DIMENSION_SQL) as SessionDim[];

/** A session's duration over a row `s` of visitor_sessions: first to last activity; a session closed by the end route lasted until then. */
export const durationSql = sql`(case when s.status = 'closed' then coalesce(s.ended_at, s.last_activity_at) else s.last_activity_at end) - s.created_at`;

/** A Postgres array literal of dates or numbers (values that need no quoting). */
export const pgArray = (values: (string | number)[]) => `{${values.join(',')}}`;

/** `column` (a visitor's sample, ./samples.ts) is one the read keeps. */
export const inSample = (column: SQL, sample: Sample): SQL =>
  sql`${column} = any(${pgArray(Array.from({ length: sample.kept }, (_, i) => i))}::smallint[])`;

/**
 * The days a facts query computes (`days`), and the year of days before them: a visitor's previous
 * session is named by its day (`revisit` rows: value = that day) when it falls in that year.
 */
export interface FactDays {
  days: Days;
  /** From a year before the first computed day up to the last one (./service.ts `yearBefore`). */
  previous: Days;
}

/**
 * A number property of an engagement event, clamped to `max` (the track route checks the types;
 * the clamp keeps one odd row from skewing a sum).
 */
export const engagementFigure = (key: string, max: number) =>
  sql.raw(
    `case when jsonb_typeof(e.properties -> '${key}') = 'number' then least(greatest((e.properties ->> '${key}')::numeric, 0), ${max})::bigint else 0 end`,
  );

/**
 * Fact rows (day, dim, value, visitors, sessions, bounces, duration_ms, page_views, conversions,
 * engaged_ms, scroll_depth, engagements) of `parts` for the days of `window`, of the sessions
 * within `bounds` and their events.
 */
export function factsQuery(siteId: string, window: FactDays, parts: Part[], where?: Where, bounds: SessionBounds = {}): SQL {
  const { days, previous } = window;
  const lo = days.starts[0];
  const hi = days.starts[days.starts.length - 1];
  // A session's events are received after it started: those of the sessions started since `since` too.
  const from = bounds.since === undefined ? lo : Math.max(lo, bounds.since);
  const sessionsTo = bounds.before === undefined ? hi : Math.min(hi, bounds.before);
  const dims = parts.filter((p): p is SessionDim => p in DIMENSION_SQL);
  const wantsSessions = parts.includes('totals') || dims.length > 0;
  const wantsEvents = parts.includes('totals') || parts.includes('page');
  const selects: SQL[] = [];
  if (parts.includes('totals')) {
    selects.push(sql`
      select day, 'total' as dim, '' as value,
             count(*) filter (where previous_session_at is null or previous_session_at < day_start) as visitors,
             count(*) as sessions, count(*) filter (where page_views <= 1) as bounces, sum(duration_ms) as duration_ms,
             0 as page_views, 0 as conversions, 0 as engaged_ms, 0 as scroll_depth, 0 as engagements
      from s group by day`);
    if (where) {
      // Filtered: the previous session may not match the filters; distinct visitors are counted, per day and over the period.
      selects[selects.length - 1] = sql`
        select day, 'total' as dim, '' as value, count(distinct visitor_id) as visitors,
               count(*) as sessions, count(*) filter (where page_views <= 1) as bounces, sum(duration_ms) as duration_ms,
               0 as page_views, 0 as conversions, 0 as engaged_ms, 0 as scroll_depth, 0 as engagements
        from s group by day`;
      selects.push(sql`select null::date, 'distinct', '', count(distinct visitor_id), 0, 0, 0, 0, 0, 0, 0, 0 from s`);
    } else {
      selects.push(sql`
      select s.day, 'revisit', to_char(p.dates[width_bucket(s.previous_session_at, p.starts)], 'YYYY-MM-DD'), 0, count(*), 0, 0, 0, 0, 0, 0, 0
      from s, prev p where s.previous_session_at >= p.starts[1] group by 1, 3`);
    }
    selects.push(sql`
      select day, 'total', '', 0, 0, 0, 0,
             count(*) filter (where event_type = 'pageview'), count(*) filter (where event_type = 'conversion'), 0, 0, 0
      from e group by day`);
  }
  if (dims.length) {
    const values = sql.join(
      dims.map((d) => sql`(${d}::text, ${sql.raw(`s.v_${d}`)})`),
      sql`, `,
    );
    selects.push(sql`
      select s.day, d.dim, coalesce(d.value, ''), 0, count(*), count(*) filter (where s.page_views <= 1), sum(s.duration_ms),
             sum(s.page_views), sum(s.conversions), 0, 0, 0
      from s cross join lateral (values ${values}) as d (dim, value)
      group by s.day, d.dim, d.value`);
  }
  if (parts.includes('page')) {
    // Page views and engagement per session first, then per page: two hash aggregates, no sort.
    selects.push(sql`
      select day, 'page', coalesce(path, ''), 0, count(*) filter (where n > 0), 0, 0, sum(n), 0, sum(engaged_ms), sum(scroll_depth), sum(m)
      from (select day, path, session_id, count(*) filter (where event_type = 'pageview') as n,
                   sum(engaged_ms) as engaged_ms, sum(scroll_depth) as scroll_depth, count(*) filter (where event_type = 'engagement') as m
            from e where event_type in ('pageview', 'engagement') group by day, path, session_id) v
      group by day, path`);
  }
  const ctes: SQL[] = [sql`cal as materialized (select ${pgArray(days.starts)}::bigint[] as starts, ${pgArray(days.dates)}::date[] as dates)`];
  if (parts.includes('totals') && !where) {
    ctes.push(sql`prev as materialized (select ${pgArray(previous.starts)}::bigint[] as starts, ${pgArray(previous.dates)}::date[] as dates)`);
  }
  // Only what the figures read (the dimensions' values computed here): a narrow row to keep in memory.
  const sessionColumns = sql.join(
    [
      sql`s.visitor_id, s.previous_session_at, s.page_views, s.conversions, s.created_at, ${durationSql} as duration_ms`,
      ...dims.map((d) => sql`${DIMENSION_SQL[d]} as ${sql.raw(`v_${d}`)}`),
    ],
    sql`, `,
  );
  if (where) {
    // Filtered: the matching sessions first (on the indexes of the selective columns), with those started up to a
    // session's lifetime before the period (their events may fall in it); the events are then theirs alone.
    ctes.push(sql`m as materialized (
      select s.id, ${sessionColumns}
      from visitor_sessions s
      where s.site_id = ${siteId} and s.created_at >= ${Math.max(lo - SESSION_MAX_MS, bounds.since ?? -Infinity)}::bigint
        and s.created_at < ${sessionsTo}::bigint
        and not s.is_bot and ${where.sessions}
    )`);
  }
  if (wantsSessions) {
    ctes.push(sql`s as (
      select cal.dates[width_bucket(s.created_at, cal.starts)] as day, cal.starts[width_bucket(s.created_at, cal.starts)] as day_start, s.*
      from ${where ? sql`m` : sql`(select ${sessionColumns} from visitor_sessions s where s.site_id = ${siteId} and not s.is_bot and s.created_at >= ${from}::bigint and s.created_at < ${sessionsTo}::bigint)`} s, cal
      where s.created_at >= ${from}::bigint and s.created_at < ${sessionsTo}::bigint
    )`);
  }
  if (wantsEvents) {
    // Bot sessions are few: their events are left out by an anti-join on the bots' partial index.
    // An engagement event names its page by its URL (the stored path is a page view's).
    const engagement = parts.includes('page');
    const pathSql = engagement ? sql`case when e.event_type = 'engagement' then analytics_url_path(e.url) else e.path end` : sql`e.path`;
    ctes.push(sql`e as (
      select cal.dates[width_bucket(e.received_at, cal.starts)] as day, e.event_type, e.session_id,
             ${pathSql} as path,
             ${engagement ? engagementFigure('engaged_ms', 86_400_000) : sql`0`} as engaged_ms,
             ${engagement ? engagementFigure('scroll_depth', 100) : sql`0`} as scroll_depth
      from ${where ? sql`m join session_events e on e.session_id = m.id` : sql`session_events e`}, cal
      where e.site_id = ${siteId} and e.received_at >= ${from}::bigint and e.received_at < ${hi}::bigint
        and e.event_type in (${engagement ? sql`'pageview', 'conversion', 'engagement'` : sql`'pageview', 'conversion'`})
        ${where ? sql`` : sql`and ${keptEvents(siteId, undefined, bounds)}`}
        ${where?.pages ? sql`and (e.event_type not in ('pageview', 'engagement') or ${where.pages(pathSql)})` : sql``}
    )`);
  }
  return factRows(ctes, selects);
}

/** The twelve columns of a fact row, in order. */
const FACT_FIELDS = ['visitors', 'sessions', 'bounces', 'duration_ms', 'page_views', 'conversions', 'engaged_ms', 'scroll_depth', 'engagements'];
const factRelation = sql.raw(`f (day, dim, value, ${FACT_FIELDS.join(', ')})`);

/** Fact rows summed per day, dimension and value from `selects` (each of the twelve columns, in order) over `ctes`. */
export function factRows(ctes: SQL[], selects: SQL[]): SQL {
  return sql`
    with ${sql.join(ctes, sql`, `)}
    select day, dim, value, sum(visitors)::int as visitors, sum(sessions)::int as sessions, sum(bounces)::int as bounces,
           coalesce(sum(duration_ms), 0)::float8 as duration_ms, sum(page_views)::int as page_views, sum(conversions)::int as conversions,
           coalesce(sum(engaged_ms), 0)::float8 as engaged_ms, coalesce(sum(scroll_depth), 0)::float8 as scroll_depth,
           sum(engagements)::int as engagements
    from (${sql.join(selects, sql` union all `)}) ${factRelation}
    group by day, dim, value`;
}

/** One select of the fact rows of `selects` with every figure multiplied by `by` (an integer). */
export function scaledRows(selects: SQL[], by: number): SQL {
  const figures = sql.raw(FACT_FIELDS.map((c) => `${c} * ${Math.trunc(by)}`).join(', '));
  return sql`select day, dim, value, ${figures} from (${sql.join(selects, sql` union all `)}) ${factRelation}`;
}

/** The days of `dates` (in `tz`) that are rolled up already. */
export async function rolledUpDays(siteId: string, tz: string, dates: string[]): Promise<Set<string>> {
  if (!dates.length) return new Set();
  const found = await rows<{ day: string }>(sql`
    select to_char(day, 'YYYY-MM-DD') as day from analytics_days
    where site_id = ${siteId} and tz = ${tz} and day = any(${pgArray(dates)}::date[])`);
  return new Set(found.map((r) => r.day));
}

/**
 * Computes and keeps the facts of the days of `window`. Each day is claimed in the same statement:
 * of two reads rolling up the same day at once, one writes it and the other waits for it and
 * writes nothing.
 */
export async function rollUp(siteId: string, window: FactDays, now: number, db?: Db): Promise<void> {
  const { dates } = window.days;
  const tz = window.days.timeZone;
  await rows(
    sql`
    with claimed as (
      insert into analytics_days (site_id, tz, day, computed_at)
      select ${siteId}, ${tz}, d, ${now}::bigint from unnest(${pgArray(dates)}::date[]) as d
      on conflict do nothing
      returning day
    ),
    facts as (${factsQuery(siteId, window, ALL_PARTS)})
    insert into analytics_facts (site_id, tz, dim, day, value, visitors, sessions, bounces, duration_ms, page_views, conversions,
                                 engaged_ms, scroll_depth, engagements)
    select ${siteId}, ${tz}, dim, day, value, visitors, sessions, bounces, duration_ms::bigint, page_views, conversions,
           engaged_ms::bigint, scroll_depth::bigint, engagements
    from facts where day in (select day from claimed)
    -- Rows of a dimension side by side: a read of a period scans them in order.
    order by dim, day, value`,
    db,
  );
}

/** Days computed on read: all their sessions, or those started since `since` (the rest is kept in analytics_open_facts). */
export interface OpenDays {
  window: FactDays;
  since?: number;
}

/** Where a read finds its facts: kept ones for the rolled-up days, computed ones for the open days. */
export interface FactSource {
  siteId: string;
  tz: string;
  /** Kept days: the rolled-up `days`, from `from` to `to` (none when undefined). */
  kept?: { from: string; to: string; days: string[] };
  /** Open days whose sessions up to a time are kept (analytics_open_facts); the rest is in `open`. */
  openKept?: string[];
  /** The runs of days computed on read (none when undefined or empty). */
  open?: OpenDays[];
  /** Filters: then every day is computed on read (`kept` is undefined). */
  where?: Where;
  /** The query of the days computed on read, when not `factsQuery` over the raw rows (filtered reads: the session facts). */
  facts?: (window: FactDays, parts: Part[]) => SQL;
}

const FACT_COLUMNS = sql`day, dim, value, visitors, sessions, bounces, duration_ms::float8 as duration_ms, page_views, conversions,
  engaged_ms::float8 as engaged_ms, scroll_depth::float8 as scroll_depth, engagements`;

/** The fact rows of `dims` from both sources, as one relation `f`. */
function factsOf(source: FactSource, parts: Part[], dims: string[]): SQL {
  const branches: SQL[] = [];
  const dimList = sql.join(
    dims.map((d) => sql`${d}`),
    sql`, `,
  );
  if (source.kept) {
    branches.push(sql`
      select ${FACT_COLUMNS} from analytics_facts
      where site_id = ${source.siteId} and tz = ${source.tz} and dim in (${dimList})
        and day >= ${source.kept.from}::date and day <= ${source.kept.to}::date and day = any(${pgArray(source.kept.days)}::date[])`);
  }
  if (source.openKept?.length) {
    branches.push(sql`
      select ${FACT_COLUMNS} from analytics_open_facts
      where site_id = ${source.siteId} and tz = ${source.tz} and dim in (${dimList}) and day = any(${pgArray(source.openKept)}::date[])`);
  }
  for (const open of source.open ?? []) {
    const facts = source.facts
      ? source.facts(open.window, parts)
      : factsQuery(source.siteId, open.window, parts, source.where, { since: open.since });
    branches.push(sql`select ${FACT_COLUMNS} from (${facts}) o where dim in (${dimList})`);
  }
  if (!branches.length) branches.push(sql`select ${FACT_COLUMNS} from analytics_facts where false`);
  return sql`(${sql.join(branches, sql` union all `)})`;
}

/**
 * The rows of a read of `source`: when it sums the session facts, with JIT compilation off — the
 * planner cannot tell how few of a period's sessions cross a day and overestimates the read,
 * and compiling it would take longer than running it — and the memory to count a period's
 * distinct visitors without spilling to disk.
 */
async function sourceRows<T>(source: FactSource, query: SQL): Promise<T[]> {
  if (!source.facts) return rows<T>(query);
  const db = await statementDb();
  return db.transaction(async (tx) => {
    await rows(sql`select set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`, tx);
    return rows<T>(query, tx);
  });
}

export interface DayTotals {
  day: string;
  visitors: number;
  sessions: number;
  bounces: number;
  duration_ms: number;
  page_views: number;
  conversions: number;
}

/**
 * Per-day totals of the period, and the sessions of the period whose visitor came back within it
 * (`revisits`: sessions minus revisits = distinct visitors of the whole period).
 */
export async function dayTotals(source: FactSource, from: string): Promise<{ days: DayTotals[]; revisits: number; distinct?: number }> {
  const result = await sourceRows<DayTotals & { dim: string }>(
    source,
    sql`
    with f as materialized ${factsOf(source, ['totals'], ['total', 'revisit', 'distinct'])}
    select to_char(day, 'YYYY-MM-DD') as day, dim, sum(visitors)::int as visitors, sum(sessions)::int as sessions,
           sum(bounces)::int as bounces, sum(duration_ms)::float8 as duration_ms, sum(page_views)::int as page_views,
           sum(conversions)::int as conversions
    from f where dim = 'total'
    group by day, dim
    union all
    select null, 'revisits', 0, coalesce(sum(sessions), 0)::int, 0, 0, 0, 0
    from f where dim = 'revisit' and value >= ${from}
    union all
    select null, 'distinct', coalesce(sum(visitors), 0)::int, 0, 0, 0, 0, 0
    from f where dim = 'distinct'`,
  );
  const revisits = result.find((r) => r.dim === 'revisits')?.sessions ?? 0;
  const distinct = source.where ? result.find((r) => r.dim === 'distinct')?.visitors : undefined;
  return { days: result.filter((r) => r.dim === 'total'), revisits, distinct };
}

export interface BreakdownRow {
  value: string | null;
  sessions: number;
  bounces: number;
  duration_ms: number;
  page_views: number;
  conversions: number;
  engaged_ms: number;
  scroll_depth: number;
  engagements: number;
}

/** The top `limit` values of one dimension over the period: by page views for pages, by sessions otherwise. */
export async function topValues(source: FactSource, part: Exclude<Part, 'totals'>, limit: number): Promise<BreakdownRow[]> {
  const order = part === 'page' ? sql`page_views desc, sessions desc` : sql`sessions desc, page_views desc`;
  return sourceRows<BreakdownRow>(
    source,
    sql`
    select nullif(value, '') as value, sum(sessions)::int as sessions, sum(bounces)::int as bounces,
           sum(duration_ms)::float8 as duration_ms, sum(page_views)::int as page_views, sum(conversions)::int as conversions,
           sum(engaged_ms)::float8 as engaged_ms, sum(scroll_depth)::float8 as scroll_depth, sum(engagements)::int as engagements
    from ${factsOf(source, [part], [part])} f
    group by value
    order by ${order}, value
    limit ${limit}`,
  );
}

/** The clicks a click breakdown counts: `outbound` (links to other hosts) or `download` (file links). */
export type ClickKind = 'outbound' | 'download';

export interface ClickRow extends Omit<BreakdownRow, 'engaged_ms' | 'scroll_depth' | 'engagements'> {
  clicks: number;
  visitors: number;
}

/**
 * The top `limit` links of one click kind between `lo` and `hi` (epoch ms of received events):
 * clicks, distinct visitors and sessions per link (`properties.href`), and the figures of the
 * sessions that clicked it. Read from the events themselves (their own partial index): they are
 * few, and distinct visitors are counted over the whole period.
 */
export async function topClicks(siteId: string, kind: ClickKind, lo: number, hi: number, limit: number, where?: Where): Promise<ClickRow[]> {
  return rows<ClickRow>(sql`
    with c as (
      select e.properties ->> 'href' as value, e.session_id, e.visitor_id
      from session_events e
      where e.site_id = ${siteId} and e.event_type = ${kind} and e.received_at >= ${lo}::bigint and e.received_at < ${hi}::bigint
        and ${keptEvents(siteId, where)}
    ),
    top as (
      select value, count(*)::int as clicks, count(distinct visitor_id)::int as visitors, count(distinct session_id)::int as sessions
      from c group by value
      order by visitors desc, clicks desc, value limit ${limit}
    ),
    clicked as (select distinct c.value, c.session_id from c join top on top.value is not distinct from c.value)
    select top.value, top.clicks, top.visitors, top.sessions,
           count(*) filter (where s.page_views <= 1)::int as bounces, coalesce(sum(${durationSql}), 0)::float8 as duration_ms,
           coalesce(sum(s.page_views), 0)::int as page_views, coalesce(sum(s.conversions), 0)::int as conversions
    from top
    join clicked on clicked.value is not distinct from top.value
    join visitor_sessions s on s.id = clicked.session_id
    group by top.value, top.clicks, top.visitors, top.sessions
    order by top.visitors desc, top.clicks desc, top.value`);
}

/** Leads created per day of the calendar: one count per day on the index of the site's leads by creation. */
export async function newLeadsPerDay(siteId: string, calendar: Days, where?: Where): Promise<Map<string, number>> {
  const { dates, starts } = calendar;
  const result = await rows<{ day: string; n: number }>(sql`
    select to_char(c.day, 'YYYY-MM-DD') as day,
           (select count(*)::int from leads l
            where l.site_id = ${siteId} and l.created_at >= to_timestamp(c.lo::float8 / 1000) and l.created_at < to_timestamp(c.hi::float8 / 1000)
              ${where ? sql`and exists (select 1 from visitor_sessions s where s.lead_id = l.id and not s.is_bot and ${where.sessions})` : sql``}) as n
    from unnest(${pgArray(dates)}::date[], ${pgArray(starts.slice(0, -1))}::bigint[], ${pgArray(starts.slice(1))}::bigint[]) as c (day, lo, hi)`);
  return new Map(result.filter((r) => r.n > 0).map((r) => [r.day, r.n]));
}

/**
 * Sessions that reached each step of a funnel, in order, within the period: a session counts for
 * step n when it has an event named step n at or after the time it reached step n-1. One pass:
 * each session's step events become a string of letters in time order (the steps' names get the
 * letters a, b, c… in step order), and reaching step n is matching `a.*b.*…` up to its letter.
 */
export function funnelQuery(siteId: string, steps: string[], lo: number, hi: number, where?: Where): SQL {
  const names = [...new Set(steps)];
  const letter = (name: string) => String.fromCharCode(97 + names.indexOf(name));
  const cases = sql.join(
    names.map((n) => sql`when ${n} then ${letter(n)}`),
    sql` `,
  );
  const counts = steps.map((_, i) => {
    const pattern = steps
      .slice(0, i + 1)
      .map(letter)
      .join('.*');
    return sql`count(*) filter (where seq ~ ${pattern})::int as ${sql.raw(`n${i + 1}`)}`;
  });
  return sql`
    with seqs as (
      select session_id, string_agg(case event_name ${cases} end, '' order by "timestamp", event_name) as seq
      from session_events
      where site_id = ${siteId} and event_name in (${sql.join(
        names.map((n) => sql`${n}`),
        sql`, `,
      )})
        and received_at >= ${lo}::bigint and received_at < ${hi}::bigint
      group by session_id
    )
    select ${sql.join(counts, sql`, `)} from seqs e
    where ${keptEvents(siteId, where)}`;
}

export async function funnelCounts(siteId: string, steps: string[], lo: number, hi: number, where?: Where): Promise<number[]> {
  const [row] = await rows<Record<string, number>>(funnelQuery(siteId, steps, lo, hi, where));
  return steps.map((_, i) => row[`n${i + 1}`]);
}

/** When the oldest session of the site started at or after `from` that still takes activity at `now` (undefined: none). */
export async function oldestLiveSessionStart(siteId: string, from: number, now: number): Promise<number | undefined> {
  const [row] = await rows<{ at: number | null }>(sql`
    select min(created_at)::float8 as at from visitor_sessions
    where site_id = ${siteId} and created_at >= ${from}::bigint and ${isLiveSql(now)} and not is_bot`);
  return row?.at ?? undefined;
}

/** The site's own time zone (settings `business_hours.timezone`), undefined when it has none. */
export async function siteTimeZone(siteId: string): Promise<string | undefined> {
  const [row] = await rows<{ tz: string | null }>(sql`select settings -> 'business_hours' ->> 'timezone' as tz from sites where id = ${siteId}`);
  return row?.tz || undefined;
}

/**
 * Sessions and distinct visitors of people and of bots among the sessions started in [lo, hi) (all
 * time when unbounded). `botsOnly`: the bots' alone (people's read 0), on the bots' partial index —
 * for a reader that has the people's figures from the facts already.
 */
export async function visitCounts(
  siteId: string,
  lo?: number,
  hi?: number,
  botsOnly = false,
  where?: Where,
): Promise<{ sessions: number; visitors: number; bot_sessions: number; bot_visitors: number }> {
  const [row] = await rows<{ sessions: number; visitors: number; bot_sessions: number; bot_visitors: number }>(sql`
    select count(*) filter (where not is_bot)::int as sessions, count(distinct visitor_id) filter (where not is_bot)::int as visitors,
           count(*) filter (where is_bot)::int as bot_sessions, count(distinct visitor_id) filter (where is_bot)::int as bot_visitors
    from visitor_sessions s
    where site_id = ${siteId} ${botsOnly ? sql`and is_bot` : sql``}
      ${lo === undefined ? sql`` : sql`and created_at >= ${lo}::bigint`}
      ${hi === undefined ? sql`` : sql`and created_at < ${hi}::bigint`}
      ${where ? sql`and ${where.sessions}` : sql``}`);
  return row;
}

/**
 * Whether the site has had a visit by a person (a bot's does not count) and by a bot, and a mark
 * that changes whenever a session starts or an open one takes activity: read on the indexes of
 * the site's sessions by start and of its open ones, cheap enough to ask every few seconds.
 */
export async function visitsState(siteId: string): Promise<{ human: boolean; bot: boolean; mark: string }> {
  const [row] = await rows<{ human: boolean; bot: boolean; latest: number | null; active: number | null }>(sql`
    select exists (select 1 from visitor_sessions where site_id = ${siteId} and not is_bot) as human,
           exists (select 1 from visitor_sessions where site_id = ${siteId} and is_bot) as bot,
           (select max(created_at)::float8 from visitor_sessions where site_id = ${siteId}) as latest,
           (select max(last_activity_at)::float8 from visitor_sessions where site_id = ${siteId} and status = 'active') as active`);
  return { human: row.human, bot: row.bot, mark: `${row.human ? 1 : 0}:${row.latest ?? 0}:${row.active ?? 0}` };
}

/** A conversion (alias `e`) that carries a revenue: `properties.revenue {amount: number, currency: 3 letters}`. */
const hasRevenue = (e: string) =>
  sql.raw(
    `${e}.event_type = 'conversion' and jsonb_typeof(${e}.properties -> 'revenue' -> 'amount') = 'number' ` +
      `and (${e}.properties -> 'revenue' ->> 'currency') ~ '^[A-Za-z]{3}$'`,
  );
const revenueCurrency = sql.raw(`upper(e.properties -> 'revenue' ->> 'currency')`);
const revenueAmount = sql.raw(`(e.properties -> 'revenue' ->> 'amount')::numeric`);

export interface RevenueRow {
  key: string | null;
  currency: string;
  amount: number;
}

/**
 * Revenue of the conversions received between `lo` and `hi` (epoch ms), per currency, grouped by
 * day of `calendar` (`by: 'day'`), by a session dimension of the converting session, or not at all
 * (`total`, key null). Read from the conversion events themselves (their own partial index).
 */
export async function revenueOf(
  siteId: string,
  by: { day: Days } | { dim: SessionDim } | 'total',
  lo: number,
  hi: number,
  where?: Where,
): Promise<RevenueRow[]> {
  const key =
    by === 'total'
      ? sql`null::text`
      : 'day' in by
        ? sql`to_char(cal.dates[width_bucket(e.received_at, cal.starts)], 'YYYY-MM-DD')`
        : sql`nullif(${DIMENSION_SQL[by.dim]}, '')`;
  const cal =
    by !== 'total' && 'day' in by
      ? sql`, (select ${pgArray(by.day.starts)}::bigint[] as starts, ${pgArray(by.day.dates)}::date[] as dates) cal`
      : sql``;
  const session = by !== 'total' && 'dim' in by ? sql` join visitor_sessions s on s.id = e.session_id` : sql``;
  return rows<RevenueRow>(sql`
    select ${key} as key, ${revenueCurrency} as currency, sum(${revenueAmount})::float8 as amount
    from session_events e${session}${cal}
    where e.site_id = ${siteId} and e.event_type = 'conversion' and e.received_at >= ${lo}::bigint and e.received_at < ${hi}::bigint
      and ${hasRevenue('e')} and ${keptEvents(siteId, where)}
    group by 1, 2
    order by 1, amount desc, currency`);
}

export interface GoalRow {
  id: string;
  visitors: number;
  sessions: number;
  conversions: number;
}

/**
 * For each goal: the distinct visitors and sessions that reached it between `lo` and `hi` (events
 * received), and its events (conversions of the goal).
 */
export async function goalCounts(siteId: string, goals: (GoalMatch & { id: string })[], lo: number, hi: number, where?: Where): Promise<GoalRow[]> {
  if (!goals.length) return [];
  const branches = goals.map(
    (g) => sql`
      select ${g.id}::uuid as id, count(distinct e.visitor_id)::int as visitors, count(distinct e.session_id)::int as sessions, count(*)::int as conversions
      from session_events e
      where e.site_id = ${siteId} and e.received_at >= ${lo}::bigint and e.received_at < ${hi}::bigint and ${goalEventSql('e', g)}
        and ${keptEvents(siteId, where)}`,
  );
  return rows<GoalRow>(sql.join(branches, sql` union all `));
}

/** Revenue per currency of the conversions that count for a goal, between `lo` and `hi`. */
export async function goalRevenue(siteId: string, goal: GoalMatch, lo: number, hi: number, where?: Where): Promise<RevenueRow[]> {
  return rows<RevenueRow>(sql`
    select null::text as key, ${revenueCurrency} as currency, sum(${revenueAmount})::float8 as amount
    from session_events e
    where e.site_id = ${siteId} and e.received_at >= ${lo}::bigint and e.received_at < ${hi}::bigint and ${goalEventSql('e', goal)}
      and ${hasRevenue('e')} and ${keptEvents(siteId, where)}
    group by 2
    order by amount desc, currency`);
}

/** Sessions of people started between `lo` and `hi` that the filters keep (the base of a goal's conversion rate). */
export async function sessionCount(siteId: string, lo: number, hi: number, where?: Where): Promise<number> {
  const [row] = await rows<{ n: number }>(sql`
    select count(*)::int as n from visitor_sessions s
    where s.site_id = ${siteId} and s.created_at >= ${lo}::bigint and s.created_at < ${hi}::bigint and not s.is_bot
      ${where ? sql`and ${where.sessions}` : sql``}`);
  return row.n;
}

export interface RealtimeRows {
  visitors: number;
  pages: { value: string | null; visitors: number }[];
  sources: { value: string | null; visitors: number }[];
  countries: { value: string | null; visitors: number }[];
  minutes: { minute: number; page_views: number }[];
}

/**
 * Who is on the site: people's open sessions with activity since `activeSince` (on the index of
 * open sessions; none of them started more than a day before `now`), their distinct visitors,
 * current pages, sources and countries; and page views per minute since `minutesFrom`.
 */
export async function realtimeRows(siteId: string, now: number, activeSince: number, minutesFrom: number, where?: Where): Promise<RealtimeRows> {
  const top = (expr: string) =>
    sql.raw(`(select coalesce(json_agg(t order by t.visitors desc, t.value), '[]'::json) from (
      select nullif(${expr}, '') as value, count(distinct visitor_id)::int as visitors from a group by 1 order by 2 desc, 1 limit 10) t)`);
  const [row] = await rows<Omit<RealtimeRows, 'minutes'>>(sql`
    with a as materialized (
      select s.visitor_id, s.current_url, s.referrer_host, s.location from visitor_sessions s
      where s.site_id = ${siteId} and s.status = 'active' and s.created_at >= ${now - 86_400_000}::bigint
        and s.last_activity_at >= ${activeSince}::bigint and not s.is_bot ${where ? sql`and ${where.sessions}` : sql``}
    )
    select (select count(distinct visitor_id)::int from a) as visitors,
           ${top('analytics_url_path(current_url)')} as pages,
           ${top('referrer_host')} as sources,
           ${top("location ->> 'country'")} as countries`);
  const minutes = await rows<{ minute: number; page_views: number }>(sql`
    select (e.received_at - (e.received_at % 60000))::float8 as minute, count(*)::int as page_views
    from session_events e
    where e.site_id = ${siteId} and e.received_at >= ${minutesFrom}::bigint and e.received_at <= ${now}::bigint and e.event_type = 'pageview'
      and ${keptEvents(siteId, where)}
    group by 1`);
  return { ...row, minutes };
}
