import { now } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import { parseInput } from '@/lib/core/validate';
import { addDays, canonicalTimeZone, dateIn, daysBetween, daysOf, type Days } from './calendar';
import {
  dayTotals,
  funnelCounts,
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
import { factDays, finishedDays, runsOf } from './rollups';
import {
  breakdownQuerySchema,
  DEFAULT_RANGE_DAYS,
  funnelInputSchema,
  MAX_RANGE_DAYS,
  rangeQuerySchema,
  type Breakdown,
  type BreakdownDimension,
  type BreakdownQuery,
  type Figures,
  type Funnel,
  type FunnelInput,
  type Overview,
  type RangeQuery,
  type VisitCounts,
} from './schema';

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
 * kept days and computes the others from the raw rows.
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
  const [finished, done] = await Promise.all([finishedDays(siteId, period.days, at), rolledUpDays(siteId, timeZone, dates)]);
  const kept = dates.filter((d, i) => i < finished && done.has(d));
  const isKept = new Set(kept);
  return {
    siteId,
    tz: timeZone,
    kept: kept.length ? { from: kept[0], to: kept[kept.length - 1], days: kept } : undefined,
    open: runsOf(dates, (d) => !isKept.has(d)).map((run) => factDays(run.from, run.to, timeZone)),
  };
}

const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);
const mean = (sum: number, count: number) => (count > 0 ? Math.round(sum / count) : null);

function figures(
  t: { visitors: number; sessions: number; bounces: number; duration_ms: number; page_views: number; conversions: number },
  newLeads: number,
): Figures {
  return {
    visitors: t.visitors,
    sessions: t.sessions,
    page_views: t.page_views,
    bounce_rate: ratio(t.bounces, t.sessions),
    avg_duration_ms: mean(t.duration_ms, t.sessions),
    conversions: t.conversions,
    new_leads: newLeads,
  };
}

const rangeOf = (p: Period) => ({ from: p.from, to: p.to, timezone: p.timeZone });

/** Totals of the period and one entry per day: visitors, sessions, page views, bounce rate, mean duration, conversions, new leads. */
export async function overview(siteId: string, query: RangeQuery = {}): Promise<Overview> {
  const at = now();
  const period = await periodOf(siteId, parseInput(rangeQuerySchema, query, 'query'), at);
  const { starts } = period.days;
  const [{ days, revisits }, leads, counted] = await Promise.all([
    sourceOf(siteId, period, at).then((source) => dayTotals(source, period.from)),
    newLeadsPerDay(siteId, period.days),
    // People come from the facts (rolled up); the bots, few, from their own index.
    visitCounts(siteId, starts[0], starts[starts.length - 1], true),
  ]);
  const byDay = new Map(days.map((d) => [d.day, d]));
  const zero = { visitors: 0, sessions: 0, bounces: 0, duration_ms: 0, page_views: 0, conversions: 0 };
  const sum = { ...zero };
  const series = period.days.dates.map((date) => {
    const d = byDay.get(date) ?? zero;
    for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += d[k];
    return { date, ...figures(d, leads.get(date) ?? 0) };
  });
  const totalLeads = [...leads.values()].reduce((a, b) => a + b, 0);
  return {
    site_id: siteId,
    range: rangeOf(period),
    totals: figures({ ...sum, visitors: sum.sessions - revisits }, totalLeads),
    bots: { visitors: counted.bot_visitors, sessions: counted.bot_sessions },
    series,
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
const SOURCE_OF: Record<BreakdownDimension, { part: Exclude<Part, 'totals'> } | { clicks: ClickKind }> = {
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
};

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
export async function breakdown(siteId: string, dimension: BreakdownDimension, query: BreakdownQuery = {}): Promise<Breakdown> {
  const at = now();
  const q = parseInput(breakdownQuerySchema, query, 'query');
  const source = SOURCE_OF[dimension];
  if (!source)
    throw new ApiError('INVALID_REQUEST', `Invalid path: path.dimension: must be one of ${Object.keys(SOURCE_OF).join(', ')}`, {
      issues: [{ path: 'path.dimension', message: `must be one of ${Object.keys(SOURCE_OF).join(', ')}` }],
    });
  const period = await periodOf(siteId, q, at);
  const none = { visitors: null, clicks: null, avg_engaged_ms: null, avg_scroll_depth: null };
  let items: Breakdown['items'];
  if ('clicks' in source) {
    const { starts } = period.days;
    const found = await topClicks(siteId, source.clicks, starts[0], starts[starts.length - 1], q.limit);
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
    const found = await topValues(await sourceOf(siteId, period, at), 'page', q.limit);
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
    const found = await topValues(await sourceOf(siteId, period, at), source.part, q.limit);
    items = found.map((r) => ({ ...none, value: r.value, sessions: r.sessions, page_views: r.page_views, ...sessionFigures(r) }));
  }
  return { site_id: siteId, range: rangeOf(period), dimension, items };
}

/** Sessions of the period that went through the named events in order, step by step. */
export async function funnel(siteId: string, query: FunnelInput): Promise<Funnel> {
  const at = now();
  const q = parseInput(funnelInputSchema, query, 'query');
  const period = await periodOf(siteId, q, at);
  const { starts } = period.days;
  const counts = await funnelCounts(siteId, q.steps, starts[0], starts[starts.length - 1]);
  return {
    site_id: siteId,
    range: rangeOf(period),
    steps: q.steps.map((name, i) => ({
      name,
      sessions: counts[i],
      conversion_rate: ratio(counts[i], counts[0]),
      drop_off: i === 0 ? 0 : counts[i - 1] - counts[i],
    })),
  };
}
