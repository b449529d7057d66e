import { now } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { parseInput } from '@/lib/core/validate';
import { readingFromReplica } from '@/lib/db/replica';
import { SESSION_MAX_MS } from '@/lib/db/visitor-session-lifetime';
import { addDays, canonicalTimeZone, dateIn, daysBetween, daysOf, type Days } from './calendar';
import { expectedSessions, type KeptFacts } from './dimension-slots-repo';
import { filterTexts, parseFilters } from './filters';
import { findGoalByName, listGoals } from './goals';
import {
  dayTotals,
  funnelCounts,
  goalCounts,
  goalRevenue,
  realtimeRows,
  revenueOf,
  sessionCount,
  whereOf,
  type ReadFilter,
  type RevenueRow,
  type SessionDim,
  type Where,
  newLeadsPerDay,
  rolledUpDays,
  siteTimeZone,
  topClicks,
  topValues,
  visitCounts,
  visitsState,
  type ClickKind,
  type FactSource,
  type Part,
} from './repo';
import { openDaysKept } from './rollup-repo';
import { factDays, finishedDays, runsOf } from './rollups';
import { EVERY_VISITOR, sampledShare, sampleFor, type Sample } from './samples';
import {
  breakdownQuerySchema,
  DEFAULT_RANGE_DAYS,
  funnelInputSchema,
  MAX_RANGE_DAYS,
  overviewQuerySchema,
  realtimeQuerySchema,
  type Breakdown,
  type BreakdownDimension,
  type BreakdownQuery,
  type Figures,
  type Funnel,
  type FunnelInput,
  type Overview,
  type OverviewQuery,
  type Realtime,
  type RealtimeQuery,
  type Revenue,
  type VisitCounts,
} from './schema';
import { filteredFactsQuery, sessionsKept, startsOnSlots } from './session-facts-repo';

/**
 * Analytics of a site over a period of days — the reads the console and the API share. Each takes
 * the site id and the period as plain values (`from`/`to` as YYYY-MM-DD, both optional, and the
 * time zone `utc` or `site`), checks them with the schemas of ./schema.ts (400 INVALID_REQUEST
 * naming the field), and answers in the shapes of ./schema.ts:
 *
 *   overview(siteId, { from, to, timezone })               → totals and one entry per day
 *   breakdown(siteId, 'referrers', { from, to, limit })    → top values of a dimension
 *   funnel(siteId, { steps: ['add_to_cart', 'purchase'] }) → sessions reaching each step
 *
 * Days that can no longer change are rolled up by a background job (./rollups.ts); a read sums the
 * kept days and computes the others from the raw rows. A read with filters (`filter`, ./filters.ts)
 * sums the session facts the job keeps (./session-facts-repo.ts), and the raw rows of the sessions since.
 */

interface Period {
  from: string;
  to: string;
  timeZone: string;
  days: Days;
}

const issue = (field: string, message: string) =>
  new ApiError('INVALID_REQUEST', `Invalid query: query.${field}: ${message}`, { issues: [{ path: `query.${field}`, message }] });

/** The period a query names, in the time zone it asks for; defaults are the last 30 days up to today. */
async function periodOf(siteId: string, query: { from?: string; to?: string; timezone: 'utc' | 'site' }, at: number): Promise<Period> {
  let timeZone = 'UTC';
  if (query.timezone === 'site') {
    const configured = await siteTimeZone(siteId);
    const zone = configured === undefined ? 'UTC' : canonicalTimeZone(configured);
    if (!zone) throw issue('timezone', `the site's time zone "${configured}" (settings business_hours.timezone) is not an IANA time zone`);
    timeZone = zone;
  }
  const to = query.to ?? (query.from ? minDate(addDays(query.from, MAX_RANGE_DAYS - 1), dateIn(at, timeZone)) : dateIn(at, timeZone));
  const from = query.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  if (from > to) throw issue('from', `must be on or before to (${to})`);
  if (daysBetween(from, to) > MAX_RANGE_DAYS)
    throw issue(
      'to',
      `the period may cover at most ${MAX_RANGE_DAYS} days; from ${from} it ends at ${addDays(from, MAX_RANGE_DAYS - 1)} at the latest`,
    );
  return { from, to, timeZone, days: daysOf(from, to, timeZone) };
}

const minDate = (a: string, b: string) => (a < b ? a : b);

/**
 * Where the facts of a period come from: the days rolled up already (in the background, ./rollups.ts)
 * from the rollups, every other day computed from the raw rows.
 */
async function sourceOf(siteId: string, period: Period, at: number): Promise<FactSource> {
  const { dates, timeZone } = period.days;
  const [finished, done, partly] = await Promise.all([
    finishedDays(siteId, period.days, at),
    rolledUpDays(siteId, timeZone, dates),
    openDaysKept(siteId, timeZone, dates.slice(-2)),
  ]);
  const kept = dates.filter((d, i) => i < finished && done.has(d));
  const isKept = new Set(kept);
  const openKept = dates.filter((d) => !isKept.has(d) && partly.has(d));
  return {
    siteId,
    tz: timeZone,
    kept: kept.length ? { from: kept[0], to: kept[kept.length - 1], days: kept } : undefined,
    openKept,
    open: [
      ...runsOf(dates, (d) => !isKept.has(d) && !partly.has(d)).map((run) => ({ window: factDays(run.from, run.to, timeZone) })),
      ...openKept.map((d) => ({ window: factDays(d, d, timeZone), since: partly.get(d) })),
    ],
  };
}

const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);
const mean = (sum: number, count: number) => (count > 0 ? Math.round(sum / count) : null);

function figures(
  t: { visitors: number; sessions: number; bounces: number; duration_ms: number; page_views: number; conversions: number },
  newLeads: number,
  revenue: Revenue = [],
): Figures {
  return {
    visitors: t.visitors,
    sessions: t.sessions,
    page_views: t.page_views,
    bounce_rate: ratio(t.bounces, t.sessions),
    avg_duration_ms: mean(t.duration_ms, t.sessions),
    conversions: t.conversions,
    new_leads: newLeads,
    revenue,
  };
}

/** Revenue rows grouped by their key, amounts rounded to cents (sums of floats drift). */
function revenueByKey(found: RevenueRow[]): Map<string | null, Revenue> {
  const out = new Map<string | null, Revenue>();
  for (const r of found) {
    const list = out.get(r.key) ?? [];
    list.push({ currency: r.currency, amount: Math.round(r.amount * 100) / 100 });
    out.set(r.key, list);
  }
  for (const list of out.values()) list.sort((a, b) => b.amount - a.amount || a.currency.localeCompare(b.currency));
  return out;
}

/**
 * The filters of a query, goals resolved: an unknown dimension, a malformed filter or a goal the
 * site does not have is 400 INVALID_REQUEST naming `query.filter`.
 */
async function readFiltersOf(siteId: string, given: string | string[] | undefined): Promise<ReadFilter[]> {
  const filters = parseFilters(given);
  return Promise.all(
    filters.map(async (f): Promise<ReadFilter> => {
      if (f.dimension !== 'goal') return f;
      const goal = await findGoalByName(siteId, f.value!);
      if (!goal) throw issue('filter', `the site has no goal named "${f.value}"`);
      return { ...f, goal: { type: goal.type, match: goal.match } };
    }),
  );
}

/**
 * A source that computes every day of the period on read (filtered reads, dimensions without
 * rollups): filtered, from the session facts `kept` (and the raw rows since) when the
 * calendar's days start on their slots; from the raw rows otherwise.
 */
function rawSource(siteId: string, period: Period, where: Where | undefined, read: FactsRead): FactSource {
  const window = factDays(period.from, period.to, period.timeZone);
  return {
    siteId,
    tz: period.timeZone,
    open: [{ window }],
    where,
    facts: where && startsOnSlots(window) ? (w, parts) => filteredFactsQuery(siteId, w, parts, where, read.kept, read.sample) : undefined,
  };
}

/** What a filtered read of the session facts needs: up to when they are kept (and their slot sums' dirty spans), and its sample. */
interface FactsRead {
  kept?: KeptFacts;
  sample: Sample;
}
const UNFILTERED: FactsRead = { sample: EVERY_VISITOR };

/**
 * The session facts kept and the sample (./samples.ts) of a filtered read of `period` (and of its
 * comparison: the same sample), of the totals or of `part`. Reads of the raw rows alone are never sampled.
 */
async function factsReadOf(siteId: string, where: Where | undefined, period: Period, part?: Part): Promise<FactsRead> {
  if (!where) return UNFILTERED;
  const { starts } = period.days;
  const onSlots = startsOnSlots(factDays(period.from, period.to, period.timeZone));
  const [kept, expected] = await Promise.all([
    sessionsKept(siteId),
    onSlots ? expectedSessions(siteId, where.filters, starts[0], starts[starts.length - 1]) : 0,
  ]);
  const pages = part === 'page' || where.filters.some((f) => f.dimension === 'page');
  return { kept, sample: sampleFor(expected, config().ANALYTICS_SAMPLE_SESSIONS, pages) };
}

/** The span of the periods (earliest first) a filtered read looks at: its sessions' events are received within it. */
const scopeOf = (siteId: string, periods: Period[]) => ({
  siteId,
  lo: periods[0].days.starts[0],
  hi: periods[periods.length - 1].days.starts[periods[periods.length - 1].days.starts.length - 1],
});

const rangeOf = (p: Period) => ({ from: p.from, to: p.to, timezone: p.timeZone });

/** The figures of one period: totals, one entry per day, bots; filtered when `where` is given. */
async function periodFigures(siteId: string, period: Period, where: Where | undefined, read: FactsRead, at: number) {
  const { starts } = period.days;
  const lo = starts[0];
  const hi = starts[starts.length - 1];
  const [{ days, revisits, distinct }, leads, counted, dayRevenue, totalRevenue] = await Promise.all([
    (where ? Promise.resolve(rawSource(siteId, period, where, read)) : sourceOf(siteId, period, at)).then((source) => dayTotals(source, period.from)),
    // Filtered: the leads with a visit the filters keep.
    newLeadsPerDay(siteId, period.days, where),
    // People come from the facts (rolled up); the bots, few, from their own index.
    visitCounts(siteId, lo, hi, true, where),
    revenueOf(siteId, { day: period.days }, lo, hi, where).then(revenueByKey),
    revenueOf(siteId, 'total', lo, hi, where).then(revenueByKey),
  ]);
  const byDay = new Map(days.map((d) => [d.day, d]));
  const zero = { visitors: 0, sessions: 0, bounces: 0, duration_ms: 0, page_views: 0, conversions: 0 };
  const sum = { ...zero };
  const series = period.days.dates.map((date) => {
    const d = byDay.get(date) ?? zero;
    for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += d[k];
    return { date, ...figures(d, leads.get(date) ?? 0, dayRevenue.get(date) ?? []) };
  });
  const totalLeads = [...leads.values()].reduce((a, b) => a + b, 0);
  return {
    totals: figures({ ...sum, visitors: distinct ?? sum.sessions - revisits }, totalLeads, totalRevenue.get(null) ?? []),
    bots: { visitors: counted.bot_visitors, sessions: counted.bot_sessions },
    series,
  };
}

/** The period a comparison reads: the same length just before, or the same dates a year before. */
function comparisonPeriod(period: Period, compare: 'previous' | 'year'): Period {
  const n = period.days.dates.length;
  let from: string;
  let to: string;
  if (compare === 'previous') {
    to = addDays(period.from, -1);
    from = addDays(to, -(n - 1));
  } else {
    from = yearBefore(period.from);
    to = yearBefore(period.to);
  }
  return { from, to, timeZone: period.timeZone, days: daysOf(from, to, period.timeZone) };
}

/** The same date a year before; 29 February becomes 28 February. */
function yearBefore(date: string): string {
  const y = String(Number(date.slice(0, 4)) - 1).padStart(4, '0');
  const md = date.slice(5);
  const leap = (n: number) => (n % 4 === 0 && n % 100 !== 0) || n % 400 === 0;
  return `${y}-${md === '02-29' && !leap(Number(y)) ? '02-28' : md}`;
}

const relative = (now: number | null, before: number | null) =>
  now === null || before === null || before === 0 ? null : Math.round(((now - before) / before) * 10_000) / 10_000;
const points = (now: number | null, before: number | null) => (now === null || before === null ? null : Math.round((now - before) * 10_000) / 10_000);

function changeOf(now: Figures, before: Figures) {
  return {
    visitors: relative(now.visitors, before.visitors),
    sessions: relative(now.sessions, before.sessions),
    page_views: relative(now.page_views, before.page_views),
    bounce_rate: points(now.bounce_rate, before.bounce_rate),
    avg_duration_ms: relative(now.avg_duration_ms, before.avg_duration_ms),
    conversions: relative(now.conversions, before.conversions),
    new_leads: relative(now.new_leads, before.new_leads),
  };
}

/**
 * Totals of the period and one entry per day: visitors, sessions, page views, bounce rate, mean
 * duration, conversions, new leads, revenue per currency; filtered by `filter`, and compared with
 * the period before or the year before (`compare`).
 */
async function overviewOf(siteId: string, query: OverviewQuery = {}): Promise<Overview> {
  const at = now();
  const q = parseInput(overviewQuerySchema, query, 'query');
  const period = await periodOf(siteId, q, at);
  const filters = await readFiltersOf(siteId, q.filter);
  const before = q.compare ? comparisonPeriod(period, q.compare) : undefined;
  const where = whereOf(filters, scopeOf(siteId, before ? [before, period] : [period]));
  const read = await factsReadOf(siteId, where, period);
  const [current, previous] = await Promise.all([
    periodFigures(siteId, period, where, read, at),
    before ? periodFigures(siteId, before, where, read, at) : undefined,
  ]);
  return {
    site_id: siteId,
    range: rangeOf(period),
    ...current,
    filters: filterTexts(filters),
    sampled: sampledShare(read.sample),
    ...(before && previous
      ? {
          comparison: {
            range: rangeOf(before),
            totals: previous.totals,
            series: previous.series.map(({ date, ...f }) => ({ date, ...f })),
            change: changeOf(current.totals, previous.totals),
          },
        }
      : {}),
  };
}

/**
 * What a visit is, for every count of visits outside the day-by-day facts (the Sessions list, GET
 * /sites/{id}/stats, dailyStandUp): a session, of a person unless its User-Agent was a bot's
 * (`is_bot`, set when it started); visitors are the distinct visitors of those sessions. People and
 * bots are counted apart over the sessions started in [from, to) (epoch ms; all time when unbounded),
 * exactly as the Overview counts them.
 */
export async function visits(siteId: string, window: { from?: number; to?: number } = {}): Promise<{ humans: VisitCounts; bots: VisitCounts }> {
  const c = await visitCounts(siteId, window.from, window.to);
  return { humans: { visitors: c.visitors, sessions: c.sessions }, bots: { visitors: c.bot_visitors, sessions: c.bot_sessions } };
}

/**
 * Whether a person has visited the site yet (the Overview goes live then, not on a bot's visit),
 * whether a bot has, and a mark that changes with every new visit or activity (the Overview
 * renders again when it does).
 */
export const visitsStateOf = (siteId: string) => visitsState(siteId);

/** Where each dimension's figures come from: a part of the facts, or the click events of one kind. */
const SOURCE_OF: Record<BreakdownDimension, { part: Exclude<Part, 'totals'> } | { clicks: ClickKind } | { goals: true }> = {
  pages: { part: 'page' },
  entry_pages: { part: 'entry_page' },
  exit_pages: { part: 'exit_page' },
  referrers: { part: 'referrer' },
  utm_sources: { part: 'utm_source' },
  utm_mediums: { part: 'utm_medium' },
  utm_campaigns: { part: 'utm_campaign' },
  countries: { part: 'country' },
  devices: { part: 'device' },
  browsers: { part: 'browser' },
  operating_systems: { part: 'os' },
  outbound_links: { clicks: 'outbound' },
  downloads: { clicks: 'download' },
  utm_terms: { part: 'utm_term' },
  utm_contents: { part: 'utm_content' },
  goals: { goals: true },
};

/** Session dimensions that have no rollups: always computed from the raw rows. */
const UNROLLED = new Set<Part>(['utm_term', 'utm_content']);

const sessionFigures = (r: { sessions: number; bounces: number; duration_ms: number; conversions: number }) => ({
  bounce_rate: ratio(r.bounces, r.sessions),
  avg_duration_ms: mean(r.duration_ms, r.sessions),
  conversions: r.conversions,
});

/**
 * The top values of one dimension over the period: pages by page views (with their engagement),
 * links by visitors and clicks, the others by sessions — each with the bounce rate, duration and
 * conversions of its sessions.
 */
async function breakdownOf(siteId: string, dimension: BreakdownDimension, query: BreakdownQuery = {}): Promise<Breakdown> {
  const at = now();
  const q = parseInput(breakdownQuerySchema, query, 'query');
  const source = Object.hasOwn(SOURCE_OF, dimension) ? SOURCE_OF[dimension] : undefined;
  if (!source)
    throw new ApiError('INVALID_REQUEST', `Invalid path: path.dimension: must be one of ${Object.keys(SOURCE_OF).join(', ')}`, {
      issues: [{ path: 'path.dimension', message: `must be one of ${Object.keys(SOURCE_OF).join(', ')}` }],
    });
  const period = await periodOf(siteId, q, at);
  const filters = await readFiltersOf(siteId, q.filter);
  const where = whereOf(filters, scopeOf(siteId, [period]));
  const read = await factsReadOf(siteId, where, period, 'part' in source ? source.part : undefined);
  const { starts } = period.days;
  const lo = starts[0];
  const hi = starts[starts.length - 1];
  const factsFor = (part: Part) =>
    where || UNROLLED.has(part) ? Promise.resolve(rawSource(siteId, period, where, read)) : sourceOf(siteId, period, at);
  const none = { visitors: null, clicks: null, avg_engaged_ms: null, avg_scroll_depth: null };
  let items: Breakdown['items'];
  if ('goals' in source) {
    items = await goalItems(siteId, lo, hi, where, q.limit);
  } else if ('clicks' in source) {
    const found = await topClicks(siteId, source.clicks, lo, hi, q.limit, where);
    items = found.map((r) => ({
      ...none,
      value: r.value,
      sessions: r.sessions,
      page_views: r.page_views,
      ...sessionFigures(r),
      visitors: r.visitors,
      clicks: r.clicks,
    }));
  } else if (source.part === 'page') {
    const found = await topValues(await factsFor('page'), 'page', q.limit);
    items = found.map((r) => ({
      ...none,
      value: r.value,
      sessions: r.sessions,
      page_views: r.page_views,
      bounce_rate: null,
      avg_duration_ms: null,
      conversions: null,
      avg_engaged_ms: mean(r.engaged_ms, r.engagements),
      avg_scroll_depth: mean(r.scroll_depth, r.engagements),
    }));
  } else {
    const part = source.part;
    const [found, revenue] = await Promise.all([
      factsFor(part).then((facts) => topValues(facts, part, q.limit)),
      revenueOf(siteId, { dim: part as SessionDim }, lo, hi, where).then(revenueByKey),
    ]);
    items = found.map((r) => ({
      ...none,
      value: r.value,
      sessions: r.sessions,
      page_views: r.page_views,
      ...sessionFigures(r),
      revenue: revenue.get(r.value) ?? [],
    }));
  }
  // Goals and links are counted from their events, never sampled.
  const sampled = 'part' in source ? sampledShare(read.sample) : undefined;
  return { site_id: siteId, range: rangeOf(period), dimension, items, filters: filterTexts(filters), sampled };
}

/** The site's goals over the period: sessions and visitors that reached each, its events, conversion rate and revenue. */
async function goalItems(siteId: string, lo: number, hi: number, where: Where | undefined, limit: number): Promise<Breakdown['items']> {
  const { goals } = await listGoals(siteId);
  const [counts, total, revenues] = await Promise.all([
    goalCounts(siteId, goals, lo, hi, where),
    sessionCount(siteId, lo, hi, where),
    Promise.all(goals.map((g) => goalRevenue(siteId, g, lo, hi, where).then((r) => revenueByKey(r).get(null) ?? []))),
  ]);
  const byId = new Map(counts.map((c) => [c.id, c]));
  return goals
    .map((g, i) => {
      const c = byId.get(g.id) ?? { visitors: 0, sessions: 0, conversions: 0 };
      return {
        value: g.name,
        sessions: c.sessions,
        page_views: 0,
        bounce_rate: null,
        avg_duration_ms: null,
        conversions: c.conversions,
        visitors: c.visitors,
        clicks: null,
        avg_engaged_ms: null,
        avg_scroll_depth: null,
        conversion_rate: total > 0 ? Math.min(1, ratio(c.sessions, total) ?? 0) : null,
        revenue: revenues[i],
      };
    })
    .sort((a, b) => b.sessions - a.sessions || b.conversions - a.conversions || a.value.localeCompare(b.value))
    .slice(0, limit);
}

/** Sessions of the period that went through the named events in order, step by step. */
async function funnelOf(siteId: string, query: FunnelInput): Promise<Funnel> {
  const at = now();
  const q = parseInput(funnelInputSchema, query, 'query');
  const period = await periodOf(siteId, q, at);
  const filters = await readFiltersOf(siteId, q.filter);
  const { starts } = period.days;
  const counts = await funnelCounts(siteId, q.steps, starts[0], starts[starts.length - 1], whereOf(filters, scopeOf(siteId, [period])));
  return {
    site_id: siteId,
    range: rangeOf(period),
    steps: q.steps.map((name, i) => ({
      name,
      sessions: counts[i],
      conversion_rate: ratio(counts[i], counts[0]),
      drop_off: i === 0 ? 0 : counts[i - 1] - counts[i],
    })),
    filters: filterTexts(filters),
  };
}

/**
 * The period reads — overview, breakdowns, funnels, and what is built on them (CSV, the zip export,
 * shared dashboards, email reports) — answer from the read replica when one is configured
 * (DATABASE_READ_URL, lib/db/replica.ts); realtime, goals and annotations stay on the primary.
 */
export const overview = readingFromReplica(overviewOf);
export const breakdown = readingFromReplica(breakdownOf);
export const funnel = readingFromReplica(funnelOf);

/** Visitors count as active while they had activity within this window. */
export const REALTIME_ACTIVE_MS = 5 * 60_000;
/** Page views per minute are given for this many minutes. */
export const REALTIME_MINUTES = 30;

/**
 * Who is on the site now: distinct visitors (people) with activity in the last 5 minutes, their
 * current pages, sources and countries, and page views per minute over the last 30 minutes (the
 * current minute last) — filtered like every read.
 */
export async function realtime(siteId: string, query: RealtimeQuery = {}): Promise<Realtime> {
  const at = now();
  const q = parseInput(realtimeQuerySchema, query, 'query');
  const filters = await readFiltersOf(siteId, q.filter);
  const currentMinute = at - (at % 60_000);
  const first = currentMinute - (REALTIME_MINUTES - 1) * 60_000;
  const found = await realtimeRows(siteId, at, at - REALTIME_ACTIVE_MS, first, whereOf(filters, { siteId, lo: at - SESSION_MAX_MS, hi: at }));
  const perMinute = new Map(found.minutes.map((m) => [m.minute, m.page_views]));
  return {
    site_id: siteId,
    at,
    visitors: found.visitors,
    pages: found.pages,
    sources: found.sources,
    countries: found.countries,
    page_views_per_minute: Array.from({ length: REALTIME_MINUTES }, (_, i) => {
      const minute = first + i * 60_000;
      return { minute, page_views: perMinute.get(minute) ?? 0 };
    }),
    filters: filterTexts(filters),
  };
}
