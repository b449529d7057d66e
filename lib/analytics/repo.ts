import { sql, type SQL } from 'drizzle-orm';
import { rows } from '@/lib/db/raw';
import type { Days } from './calendar';

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

export type SessionDim = 'entry_page' | 'referrer' | 'utm_source' | 'utm_medium' | 'utm_campaign' | 'country' | 'device';
/** What a facts query computes: the day totals (with revisits), pages, or one of the session dimensions. */
export type Part = 'totals' | 'page' | SessionDim;
export const ALL_PARTS: Part[] = ['totals', 'page', 'entry_page', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'country', 'device'];

/** Each session dimension as SQL over a row `s` of visitor_sessions. */
const DIMENSION_SQL: Record<SessionDim, SQL> = {
  entry_page: sql`analytics_url_path(s.url)`,
  // The referring host (the text itself when it is not a URL, e.g. ?ref=producthunt); the site's own host is no referrer.
  referrer: sql`nullif(nullif(coalesce(analytics_url_host(s.referrer), s.referrer), ''), analytics_url_host(s.url))`,
  utm_source: sql`s.utm_source`,
  utm_medium: sql`s.utm_medium`,
  utm_campaign: sql`s.utm_campaign`,
  country: sql`s.location ->> 'country'`,
  device: sql`s.device ->> 'type'`,
};

/** A Postgres array literal of dates or numbers (values that need no quoting). */
const pgArray = (values: (string | number)[]) => `{${values.join(',')}}`;

/**
 * Fact rows (day, dim, value, visitors, sessions, bounces, duration_ms, page_views, conversions)
 * for the days of `calendar` from index `first` on. The days before `first` (up to a year) only
 * name the day of a visitor's previous session (`revisit` rows: value = that day).
 */
export function factsQuery(siteId: string, calendar: Days, first: number, parts: Part[]): SQL {
  const lo = calendar.starts[first];
  const hi = calendar.starts[calendar.starts.length - 1];
  const dims = parts.filter((p): p is SessionDim => p in DIMENSION_SQL);
  const wantsSessions = parts.includes('totals') || dims.length > 0;
  const wantsEvents = parts.includes('totals') || parts.includes('page');
  const selects: SQL[] = [];
  if (parts.includes('totals')) {
    selects.push(sql`
      select day, 'total' as dim, '' as value,
             count(*) filter (where previous_session_at is null or previous_session_at < day_start) as visitors,
             count(*) as sessions, count(*) filter (where page_views <= 1) as bounces, sum(duration_ms) as duration_ms,
             0 as page_views, 0 as conversions
      from s group by day`);
    selects.push(sql`
      select day, 'revisit', to_char(prev_day, 'YYYY-MM-DD'), 0, count(*), 0, 0, 0, 0
      from s where prev_day is not null group by day, prev_day`);
    selects.push(sql`
      select day, 'total', '', 0, 0, 0, 0,
             count(*) filter (where event_type = 'pageview'), count(*) filter (where event_type = 'conversion')
      from e group by day`);
  }
  if (dims.length) {
    const values = sql.join(dims.map((d) => sql`(${d}, ${DIMENSION_SQL[d]})`), sql`, `);
    selects.push(sql`
      select s.day, d.dim, coalesce(d.value, ''), 0, count(*), count(*) filter (where s.page_views <= 1), sum(s.duration_ms),
             sum(s.page_views), sum(s.conversions)
      from s cross join lateral (values ${values}) as d (dim, value)
      group by s.day, d.dim, d.value`);
  }
  if (parts.includes('page')) {
    selects.push(sql`
      select day, 'page', coalesce(analytics_url_path(url), ''), 0, count(distinct session_id), 0, 0, count(*), 0
      from e where event_type = 'pageview' group by day, analytics_url_path(url)`);
  }
  const ctes: SQL[] = [sql`cal as (select ${pgArray(calendar.starts)}::bigint[] as starts, ${pgArray(calendar.dates)}::date[] as dates)`];
  if (wantsSessions) {
    ctes.push(sql`s as (
      select cal.dates[width_bucket(s.created_at, cal.starts)] as day,
             cal.starts[width_bucket(s.created_at, cal.starts)] as day_start,
             case when s.previous_session_at >= cal.starts[1] then cal.dates[width_bucket(s.previous_session_at, cal.starts)] end as prev_day,
             s.previous_session_at, s.page_views, s.conversions, s.url, s.referrer, s.utm_source, s.utm_medium, s.utm_campaign,
             s.location, s.device,
             -- First to last activity; a session closed by the end route lasted until then.
             (case when s.status = 'closed' then coalesce(s.ended_at, s.last_activity_at) else s.last_activity_at end) - s.created_at as duration_ms
      from visitor_sessions s, cal
      where s.site_id = ${siteId} and s.created_at >= ${lo}::bigint and s.created_at < ${hi}::bigint and not s.is_bot
    )`);
  }
  if (wantsEvents) {
    ctes.push(sql`e as (
      select cal.dates[width_bucket(e.received_at, cal.starts)] as day, e.event_type, e.session_id, e.url
      from session_events e join visitor_sessions b on b.id = e.session_id, cal
      where e.site_id = ${siteId} and e.received_at >= ${lo}::bigint and e.received_at < ${hi}::bigint
        and e.event_type in ('pageview', 'conversion') and not b.is_bot
    )`);
  }
  return sql`
    with ${sql.join(ctes, sql`, `)}
    select day, dim, value, sum(visitors)::int as visitors, sum(sessions)::int as sessions, sum(bounces)::int as bounces,
           coalesce(sum(duration_ms), 0)::float8 as duration_ms, sum(page_views)::int as page_views, sum(conversions)::int as conversions
    from (${sql.join(selects, sql` union all `)}) f (day, dim, value, visitors, sessions, bounces, duration_ms, page_views, conversions)
    group by day, dim, value`;
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
 * Computes and keeps the facts of the days of `calendar` from `first` on. Each day is claimed in
 * the same statement: of two reads rolling up the same day at once, one writes it and the other
 * waits for it and writes nothing.
 */
export async function rollUp(siteId: string, calendar: Days, first: number, now: number): Promise<void> {
  const dates = calendar.dates.slice(first);
  const tz = calendar.timeZone;
  await rows(sql`
    with claimed as (
      insert into analytics_days (site_id, tz, day, computed_at)
      select ${siteId}, ${tz}, d, ${now}::bigint from unnest(${pgArray(dates)}::date[]) as d
      on conflict do nothing
      returning day
    ),
    facts as (${factsQuery(siteId, calendar, first, ALL_PARTS)})
    insert into analytics_facts (site_id, tz, dim, day, value, visitors, sessions, bounces, duration_ms, page_views, conversions)
    select ${siteId}, ${tz}, dim, day, value, visitors, sessions, bounces, duration_ms::bigint, page_views, conversions
    from facts where day in (select day from claimed)`);
}

/** Where a read finds its facts: kept ones for `keptFrom`..`keptTo`, computed ones for the open days. */
export interface FactSource {
  siteId: string;
  tz: string;
  /** Kept days, both included (none when undefined). */
  kept?: { from: string; to: string };
  /** The calendar and first index of the days computed on read (none when undefined). */
  open?: { calendar: Days; first: number };
}

const FACT_COLUMNS = sql`day, dim, value, visitors, sessions, bounces, duration_ms::float8 as duration_ms, page_views, conversions`;

/** The fact rows of `dims` from both sources, as one relation `f`. */
function factsOf(source: FactSource, parts: Part[], dims: string[]): SQL {
  const branches: SQL[] = [];
  const dimList = sql.join(dims.map((d) => sql`${d}`), sql`, `);
  if (source.kept) {
    branches.push(sql`
      select ${FACT_COLUMNS} from analytics_facts
      where site_id = ${source.siteId} and tz = ${source.tz} and dim in (${dimList})
        and day >= ${source.kept.from}::date and day <= ${source.kept.to}::date`);
  }
  if (source.open) {
    branches.push(sql`select ${FACT_COLUMNS} from (${factsQuery(source.siteId, source.open.calendar, source.open.first, parts)}) o where dim in (${dimList})`);
  }
  if (!branches.length) branches.push(sql`select ${FACT_COLUMNS} from analytics_facts where false`);
  return sql`(${sql.join(branches, sql` union all `)})`;
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
export async function dayTotals(source: FactSource, from: string): Promise<{ days: DayTotals[]; revisits: number }> {
  const result = await rows<DayTotals & { dim: string }>(sql`
    select to_char(day, 'YYYY-MM-DD') as day, dim, sum(visitors)::int as visitors, sum(sessions)::int as sessions,
           sum(bounces)::int as bounces, sum(duration_ms)::float8 as duration_ms, sum(page_views)::int as page_views,
           sum(conversions)::int as conversions
    from ${factsOf(source, ['totals'], ['total'])} f
    group by day, dim
    union all
    select null, 'revisits', 0, coalesce(sum(sessions), 0)::int, 0, 0, 0, 0
    from ${factsOf(source, ['totals'], ['revisit'])} f
    where value >= ${from}`);
  const revisits = result.find((r) => r.dim === 'revisits')?.sessions ?? 0;
  return { days: result.filter((r) => r.dim === 'total'), revisits };
}

export interface BreakdownRow {
  value: string | null;
  sessions: number;
  bounces: number;
  duration_ms: number;
  page_views: number;
  conversions: number;
}

/** The top `limit` values of one dimension over the period: by page views for pages, by sessions otherwise. */
export async function topValues(source: FactSource, part: Exclude<Part, 'totals'>, limit: number): Promise<BreakdownRow[]> {
  const order = part === 'page' ? sql`page_views desc, sessions desc` : sql`sessions desc, page_views desc`;
  return rows<BreakdownRow>(sql`
    select nullif(value, '') as value, sum(sessions)::int as sessions, sum(bounces)::int as bounces,
           sum(duration_ms)::float8 as duration_ms, sum(page_views)::int as page_views, sum(conversions)::int as conversions
    from ${factsOf(source, [part], [part])} f
    group by value
    order by ${order}, value
    limit ${limit}`);
}

/** Leads created per day of the calendar (from index `first`). */
export async function newLeadsPerDay(siteId: string, calendar: Days, first: number): Promise<Map<string, number>> {
  const lo = calendar.starts[first];
  const hi = calendar.starts[calendar.starts.length - 1];
  const result = await rows<{ day: string; n: number }>(sql`
    with cal as (select ${pgArray(calendar.starts)}::bigint[] as starts, ${pgArray(calendar.dates)}::date[] as dates)
    select to_char(cal.dates[width_bucket((extract(epoch from l.created_at) * 1000)::bigint, cal.starts)], 'YYYY-MM-DD') as day, count(*)::int as n
    from leads l, cal
    where l.site_id = ${siteId} and l.created_at >= to_timestamp(${lo}::float8 / 1000) and l.created_at < to_timestamp(${hi}::float8 / 1000)
    group by 1`);
  return new Map(result.map((r) => [r.day, r.n]));
}

/**
 * Sessions that reached each step of a funnel, in order, within the period: a session counts for
 * step n when it has an event named step n at or after the time it reached step n-1.
 */
export async function funnelCounts(siteId: string, steps: string[], lo: number, hi: number): Promise<number[]> {
  const names = sql.join([...new Set(steps)].map((s) => sql`${s}`), sql`, `);
  const ctes: SQL[] = [
    sql`e as (
      select session_id, event_name, "timestamp" as t from session_events
      where site_id = ${siteId} and event_name in (${names}) and received_at >= ${lo}::bigint and received_at < ${hi}::bigint
    )`,
    sql`s1 as (
      select e.session_id, min(e.t) as t from e
      where e.event_name = ${steps[0]} and not exists (select 1 from visitor_sessions b where b.id = e.session_id and b.is_bot)
      group by e.session_id
    )`,
  ];
  for (let i = 1; i < steps.length; i++) {
    const prev = sql.raw(`s${i}`);
    ctes.push(sql`${sql.raw(`s${i + 1}`)} as (
      select e.session_id, min(e.t) as t from e join ${prev} p on p.session_id = e.session_id and e.t >= p.t
      where e.event_name = ${steps[i]}
      group by e.session_id
    )`);
  }
  const counts = steps.map((_, i) => sql`(select count(*)::int from ${sql.raw(`s${i + 1}`)}) as ${sql.raw(`n${i + 1}`)}`);
  const [row] = await rows<Record<string, number>>(sql`with ${sql.join(ctes, sql`, `)} select ${sql.join(counts, sql`, `)}`);
  return steps.map((_, i) => row[`n${i + 1}`]);
}

/** The site's own time zone (settings `business_hours.timezone`), undefined when it has none. */
export async function siteTimeZone(siteId: string): Promise<string | undefined> {
  const [row] = await rows<{ tz: string | null }>(sql`select settings -> 'business_hours' ->> 'timezone' as tz from sites where id = ${siteId}`);
  return row?.tz || undefined;
}
