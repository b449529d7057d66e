import type { Metadata } from 'next';
import Link from 'next/link';
import { count, duration, percent, shortDay } from '@/app/(console)/_lib/format';
import { publicOrigin } from '@/app/(console)/_lib/request-origin';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { CopyButton } from '@/components/copy-button';
import { siteTimeZone } from '@/components/dates';
import { Card } from '@/components/kit/card';
import { Chart } from '@/components/kit/chart';
import { EmptyState } from '@/components/kit/empty-state';
import { Notice } from '@/components/kit/page-notice';
import { trackingSnippet } from '@/components/tracking-snippet';
import { annotations } from '@/lib/analytics/annotations';
import { addDays, dateIn } from '@/lib/analytics/calendar';
import type { BreakdownDimension, BreakdownItem, FilterDimension, Figures, Overview, Revenue } from '@/lib/analytics/schema';
import { breakdown, overview, realtime, visitsStateOf } from '@/lib/analytics/service';
import { ApiError } from '@/lib/core/errors';
import { LiveVisits } from './live-visits';

export const metadata: Metadata = { title: 'Overview · Site Growth Platform' };

const PRESETS = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '12 months' },
];

type Tab = { dimension: BreakdownDimension; label: string; none: string; filter?: FilterDimension };

/** The Overview's lists, by query parameter: a card each, in this order. */
const LIST_TITLES = { pages: 'Pages', sources: 'Sources', devices: 'Countries & devices', goals: 'Goals', clicks: 'Clicks' };

/**
 * The lists' tabs, a breakdown each: the list, the breakdown, the tab's label, what a row without a
 * value reads and the filter a click on a row sets. A list shows its first tab unless its query
 * parameter names another (`pages=exit_pages`), so links keep it.
 */
const TABS: [list: keyof typeof LIST_TITLES, dimension: BreakdownDimension, label: string, none: string, filter?: FilterDimension][] = [
  ['pages', 'pages', 'Top pages', '(unknown page)', 'page'],
  ['pages', 'entry_pages', 'Entry pages', '(unknown page)', 'entry_page'],
  ['pages', 'exit_pages', 'Exit pages', '(unknown page)', 'exit_page'],
  ['sources', 'referrers', 'Referrers', 'Direct / none', 'referrer'],
  ['sources', 'utm_sources', 'UTM sources', 'No campaign', 'utm_source'],
  ['sources', 'utm_mediums', 'Mediums', 'No medium', 'utm_medium'],
  ['sources', 'utm_campaigns', 'Campaigns', 'No campaign', 'utm_campaign'],
  ['devices', 'countries', 'Countries', 'Unknown', 'country'],
  ['devices', 'devices', 'Devices', 'Unknown', 'device'],
  ['devices', 'browsers', 'Browsers', 'Unknown', 'browser'],
  ['devices', 'operating_systems', 'Systems', 'Unknown', 'os'],
  ['goals', 'goals', 'Goals', '(no goal)', 'goal'],
  ['clicks', 'outbound_links', 'Outbound links', '(no link)'],
  ['clicks', 'downloads', 'Downloads', '(no link)'],
];

const TOP_LISTS: { param: string; title: string; tabs: Tab[] }[] = Object.entries(LIST_TITLES).map(([param, title]) => ({
  param,
  title,
  tabs: TABS.filter(([list]) => list === param).map(([, dimension, label, none, filter]) => ({ dimension, label, none, filter })),
}));

type Search = Partial<Record<string, string | string[]>>;

/** One value of a query parameter (the first when it repeats). */
const one = (q: Search, name: string): string | undefined => {
  const v = q[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The filters the page shows: `f=<dimension>:<value>`, repeatable, as the API's `filter`. */
const filtersOf = (q: Search): string[] => {
  const v = q.f;
  return (Array.isArray(v) ? v : v ? [v] : []).filter((f) => f !== '');
};

/**
 * A link to the Overview with the page's query changed: `set` replaces single values (undefined
 * removes them), `filters` replaces the list of filters. Everything else (period, tabs, compare) is kept.
 */
function hrefOf(base: string, q: Search, set: Record<string, string | undefined> = {}, filters = filtersOf(q)): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(q)) {
    if (name === 'f' || name in set) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first) params.set(name, first);
  }
  for (const [name, value] of Object.entries(set)) if (value) params.set(name, value);
  for (const f of filters) params.append('f', f);
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}

/** The tab of each list the query names (the first tab when it names none or an unknown one). */
const chosenTabs = (q: Search) => TOP_LISTS.map((list) => list.tabs.find((t) => t.dimension === one(q, list.param)) ?? list.tabs[0]);

/** What each filter dimension is called on a chip. */
const FILTER_LABELS: Record<FilterDimension, string> = {
  page: 'Page',
  entry_page: 'Entry page',
  exit_page: 'Exit page',
  referrer: 'Referrer',
  utm_source: 'UTM source',
  utm_medium: 'Medium',
  utm_campaign: 'Campaign',
  utm_term: 'Term',
  utm_content: 'Content',
  country: 'Country',
  device: 'Device',
  browser: 'Browser',
  os: 'System',
  goal: 'Goal',
};
const NONE = '(none)';

/** A chip's text: "Country is DE", "Referrer is not Direct / none". */
function chipText(filter: string): string {
  const m = /^([a-z_]+)(!?):(.*)$/s.exec(filter);
  if (!m) return filter;
  const label = FILTER_LABELS[m[1] as FilterDimension] ?? m[1];
  return `${label} ${m[2] ? 'is not' : 'is'} ${m[3] === NONE ? 'none' : m[3]}`;
}

const COMPARE_OPTIONS = [
  { value: undefined, label: 'No comparison' },
  { value: 'previous', label: 'Previous period' },
  { value: 'year', label: 'Year before' },
] as const;

/**
 * The period the page shows, in days of the site's time zone: a preset (`range=7`), or the days of the
 * custom form (in either order: a start after the end is read the other way round, and said), else the last 30 days.
 */
function periodOf(q: Search, timeZone: string): { from?: string; to?: string; preset?: number; swapped?: boolean } {
  const from = one(q, 'from');
  const to = one(q, 'to');
  if (from && to && from > to) return { from: to, to: from, swapped: true };
  if (from || to) return { from: from || undefined, to: to || undefined };
  const days = PRESETS.find((p) => String(p.days) === one(q, 'range'))?.days ?? 30;
  return { from: addDays(dateIn(Date.now(), timeZone), -(days - 1)), preset: days };
}

/** The site's home: its traffic and business over a period, read by the same service as GET /sites/{id}/analytics/*. */
export default async function OverviewPage({ params, searchParams }: { params: Promise<{ siteId: string }>; searchParams: Promise<Search> }) {
  const { site } = await requireSiteAccess((await params).siteId);
  const q = await searchParams;
  // Read before the figures: a visit arriving meanwhile changes the mark, and the page renders again.
  const visits = await visitsStateOf(site.id);
  if (!visits.human) return <FirstEvent siteId={site.id} mark={visits.mark} botsCame={visits.bot} />;
  const period = periodOf(q, siteTimeZone(site.settings) ?? 'UTC');
  const base = `/console/sites/${site.id}`;
  const tabs = chosenTabs(q);
  const filters = filtersOf(q);
  const compare = COMPARE_OPTIONS.find((c) => c.value !== undefined && c.value === one(q, 'compare'))?.value;
  let data;
  let now;
  try {
    // Days start and end in the site's time zone (UTC when it has none), as the API's `timezone=site`.
    const range = { from: period.from, to: period.to, timezone: 'site' as const, filter: filters };
    [data, now] = await Promise.all([
      Promise.all([overview(site.id, { ...range, compare }), ...tabs.map((tab) => breakdown(site.id, tab.dimension, { ...range, limit: 8 }))]),
      realtime(site.id, { filter: filters }),
    ]);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return (
      <>
        <RangePicker base={base} q={q} period={period} />
        <FilterChips base={base} q={q} filters={filters} />
        <Notice alert>
          {inWords(error)}{' '}
          {filters.length > 0 ? 'Remove the filter above, or choose other dates.' : 'Choose other dates, or one of the periods above.'}
        </Notice>
      </>
    );
  }
  const [ov, ...tops] = data;
  const t = ov.totals;
  const dayIndex = new Map(ov.series.map((d, i) => [d.date, i]));
  const notes = (await annotations(site.id, { from: ov.range.from, to: ov.range.to })).map((n) => ({
    index: dayIndex.get(n.date) ?? -1,
    text: n.text,
  }));
  const before = ov.comparison?.totals;
  const figures: { label: string; value: string; change?: string }[] = [
    { label: 'Visitors', value: count(t.visitors), change: changeText(ov, 'visitors') },
    { label: 'Sessions', value: count(t.sessions), change: changeText(ov, 'sessions') },
    { label: 'Page views', value: count(t.page_views), change: changeText(ov, 'page_views') },
    { label: 'Bounce rate', value: percent(t.bounce_rate), change: changeText(ov, 'bounce_rate') },
    { label: 'Avg. duration', value: duration(t.avg_duration_ms), change: changeText(ov, 'avg_duration_ms') },
    { label: 'Conversions', value: count(t.conversions), change: changeText(ov, 'conversions') },
    { label: 'New leads', value: count(t.new_leads), change: changeText(ov, 'new_leads') },
    ...(t.revenue.length > 0 || (before?.revenue.length ?? 0) > 0
      ? [{ label: 'Revenue', value: money(t.revenue), change: before ? `was ${money(before.revenue)}` : undefined }]
      : []),
  ];
  const compareLabel = ov.comparison ? `${ov.comparison.range.from} to ${ov.comparison.range.to}` : undefined;
  // The comparison's days side by side with the period's (a year before can be a day shorter).
  const previous = ov.comparison ? ov.series.map((_, i) => ov.comparison!.series[i]?.visitors ?? 0) : undefined;
  return (
    <>
      <RangePicker base={base} q={q} period={{ ...period, from: ov.range.from, to: ov.range.to }} />
      {period.swapped && (
        <p className="hint" role="status">
          The start date was after the end date: showing {ov.range.from} to {ov.range.to}.
        </p>
      )}
      <div className="overview-bar">
        <FilterChips base={base} q={q} filters={filters} />
        <nav className="compare" aria-label="Compare with">
          {COMPARE_OPTIONS.map((c) => (
            <Link key={c.label} href={hrefOf(base, q, { compare: c.value })} aria-current={compare === c.value ? 'true' : undefined} scroll={false}>
              {c.label}
            </Link>
          ))}
        </nav>
      </div>
      <dl className="figures" aria-label={`Figures from ${ov.range.from} to ${ov.range.to}`}>
        {figures.map((f) => (
          <div key={f.label}>
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
            {f.change && (
              <dd
                className={`change ${f.change.startsWith('+') ? 'up' : f.change.startsWith('−') ? 'down' : ''}`}
                title={compareLabel && `Against ${compareLabel}`}
              >
                {f.change}
              </dd>
            )}
          </div>
        ))}
      </dl>
      <p className="hint bots-note" data-testid="bots-note">
        {ov.bots.sessions === 0 ? (
          'Counting people only: no bot visited in this period.'
        ) : (
          <>
            Counting people only: {count(ov.bots.sessions)} bot {ov.bots.sessions === 1 ? 'visit' : 'visits'}{' '}
            {ov.bots.visitors > 1 && <>(from {count(ov.bots.visitors)} bots) </>}left out of these figures —{' '}
            <Link href={`${base}/sessions?bots=show`}>see them in Sessions</Link>.
          </>
        )}
      </p>
      {ov.sampled && (
        <p className="hint" data-testid="sampled-note">
          Estimated from the visits of 1 visitor in {Math.round(1 / ov.sampled.fraction)}: this period holds too many visits to filter every one
          quickly. Remove the filters or choose fewer days for exact figures.
        </p>
      )}
      <LiveVisits siteId={site.id} mark={visits.mark} waiting={false} visitorsNow={now.visitors} filters={filters} />
      <Card title="Traffic" id="traffic">
        <Chart
          title={`Visitors${previous ? '' : ' and page views'} per day, ${ov.range.from} to ${ov.range.to} (${ov.range.timezone})${compareLabel ? `, against ${compareLabel}` : ''}`}
          labels={ov.series.map((d) => shortDay(d.date))}
          series={
            previous
              ? [
                  { name: 'Visitors', values: ov.series.map((d) => d.visitors) },
                  { name: compare === 'year' ? 'Visitors, year before' : 'Visitors, previous period', values: previous },
                ]
              : [
                  { name: 'Visitors', values: ov.series.map((d) => d.visitors) },
                  { name: 'Page views', values: ov.series.map((d) => d.page_views) },
                ]
          }
          notes={notes}
        />
        <CsvLink href={exportHref(base, 'series', ov.range, filters)} what="the series, one row per day" />
      </Card>
      <div className="top-lists">
        {TOP_LISTS.map((list, i) => (
          <Card key={list.param} title={list.title} id={`list-${list.param}`}>
            {list.tabs.length > 1 && (
              <nav className="tabs" aria-label={`${list.title} lists`}>
                {list.tabs.map((tab) => (
                  <Link
                    key={tab.dimension}
                    href={hrefOf(base, q, { [list.param]: tab.dimension })}
                    aria-current={tab === tabs[i] ? 'true' : undefined}
                    scroll={false}
                  >
                    {tab.label}
                  </Link>
                ))}
              </nav>
            )}
            <TopList
              items={tops[i].items}
              tab={tabs[i]}
              filterHref={(f) => (filters.includes(f) ? undefined : hrefOf(base, q, {}, [...filters, f]))}
            />
            {tabs[i].dimension === 'goals' && (
              <p className="hint">
                <Link href={`${base}/goals`}>{tops[i].items.length === 0 ? 'Add a goal' : 'Manage goals'}</Link>: a purchase, a sign-up, a thank-you
                page.
              </p>
            )}
            <CsvLink href={exportHref(base, tabs[i].dimension, ov.range, filters)} what={tabs[i].label.toLowerCase()} />
          </Card>
        ))}
      </div>
    </>
  );
}

/** A figure's change against the comparison period: "+25%", "−3 pts" for a rate; "—" when it had none. */
function changeText(ov: Overview, key: Exclude<keyof Figures, 'revenue'>): string | undefined {
  const c = ov.comparison?.change;
  if (!c) return undefined;
  const v = c[key];
  if (v === null) return 'no figure before';
  const sign = v > 0 ? '+' : v < 0 ? '−' : '±';
  if (key === 'bounce_rate') return `${sign}${Math.abs(Math.round(v * 100))} pts`;
  return `${sign}${Math.abs(Math.round(v * 100))}%`;
}

/** Revenue per currency, each in its own money ("€59.75 · $20.00"); none: "—". */
function money(revenue: Revenue): string {
  if (revenue.length === 0) return '—';
  return revenue
    .map((r) => {
      try {
        return new Intl.NumberFormat('en', { style: 'currency', currency: r.currency }).format(r.amount);
      } catch {
        return `${r.amount.toLocaleString('en')} ${r.currency}`;
      }
    })
    .join(' · ');
}

/** The console's CSV download of one table over the period and filters shown. */
function exportHref(base: string, table: string, range: { from: string; to: string }, filters: string[]): string {
  const params = new URLSearchParams({ from: range.from, to: range.to });
  for (const f of filters) params.append('f', f);
  return `${base}/export/${table}?${params}`;
}

function CsvLink({ href, what }: { href: string; what: string }) {
  return (
    <p className="csv-link">
      <a href={href} download aria-label={`Download ${what} as CSV`}>
        Download CSV
      </a>
    </p>
  );
}

/** The filters as removable chips; each link removes its own, "Clear" all of them. */
function FilterChips({ base, q, filters }: { base: string; q: Search; filters: string[] }) {
  if (filters.length === 0) return <p className="hint filters-hint">Click a row of any list to see only those visits.</p>;
  return (
    <ul className="chips" aria-label="Filters">
      {filters.map((f) => (
        <li key={f} className="chip">
          <span>{chipText(f)}</span>
          <Link
            href={hrefOf(
              base,
              q,
              {},
              filters.filter((x) => x !== f),
            )}
            aria-label={`Remove filter: ${chipText(f)}`}
            scroll={false}
          >
            ×
          </Link>
        </li>
      ))}
      {filters.length > 1 && (
        <li>
          <Link href={hrefOf(base, q, {}, [])} scroll={false}>
            Clear all
          </Link>
        </li>
      )}
    </ul>
  );
}

function RangePicker({ base, q, period }: { base: string; q: Search; period: { from?: string; to?: string; preset?: number } }) {
  const compare = one(q, 'compare');
  return (
    <div className="range">
      <nav aria-label="Period" className="range">
        {PRESETS.map((p) => (
          <Link
            key={p.days}
            href={hrefOf(base, q, { range: String(p.days), from: undefined, to: undefined })}
            aria-current={period.preset === p.days ? 'true' : undefined}
          >
            {p.label}
          </Link>
        ))}
      </nav>
      {/* Keyed by the period: a preset link shows its own dates in the fields. */}
      <form key={`${period.from}/${period.to}`} method="get" action={base} className="inline-form" aria-label="Custom period">
        <label className="visually-hidden" htmlFor="range-from">
          From
        </label>
        <input id="range-from" type="date" name="from" defaultValue={period.from} />
        <label className="visually-hidden" htmlFor="range-to">
          To
        </label>
        <input id="range-to" type="date" name="to" defaultValue={period.to} />
        {filtersOf(q).map((f) => (
          <input key={f} type="hidden" name="f" value={f} />
        ))}
        {compare && <input type="hidden" name="compare" value={compare} />}
        <button type="submit" className="button small">
          Show
        </button>
      </form>
    </div>
  );
}

/** What a list ranks by: page views for pages, visitors for links, sessions otherwise. */
const metricOf = (dimension: BreakdownDimension) =>
  dimension === 'pages'
    ? ({ key: 'page_views', label: 'Page views' } as const)
    : dimension === 'outbound_links' || dimension === 'downloads'
      ? ({ key: 'visitors', label: 'Visitors' } as const)
      : ({ key: 'sessions', label: 'Sessions' } as const);

function TopList({ items, tab, filterHref }: { items: BreakdownItem[]; tab: Tab; filterHref: (filter: string) => string | undefined }) {
  if (items.length === 0) return <p className="empty">{tab.dimension === 'goals' ? 'No goals yet.' : 'Nothing in this period.'}</p>;
  const metric = metricOf(tab.dimension);
  const value = (i: BreakdownItem) => i[metric.key] ?? 0;
  const top = Math.max(1, ...items.map(value));
  return (
    <ol className="top-list" aria-label={tab.label}>
      {items.map((item) => (
        <li key={item.value ?? ''}>
          <span className="share" style={{ width: `${(value(item) / top) * 100}%` }} aria-hidden="true" />
          <span className="label">
            <RowLabel item={item} tab={tab} filterHref={filterHref} />
            <Detail item={item} />
          </span>
          <span className="count" title={metric.label}>
            {count(value(item))}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** A row's name; where the list has a filter, a link that filters the whole dashboard by it. */
function RowLabel({ item, tab, filterHref }: { item: BreakdownItem; tab: Tab; filterHref: (filter: string) => string | undefined }) {
  const text = item.value ?? tab.none;
  const href = tab.filter && filterHref(`${tab.filter}:${item.value ?? NONE}`);
  if (!href) return <>{text}</>;
  return (
    <Link
      href={href}
      className="row-filter"
      title={`Show only visits where ${chipText(`${tab.filter}:${item.value ?? NONE}`).toLowerCase()}`}
      scroll={false}
    >
      {text}
    </Link>
  );
}

/** A row's second figure: a page's engagement, a link's clicks; a goal's conversion rate and revenue. */
function Detail({ item }: { item: BreakdownItem }) {
  const parts = [
    item.conversion_rate !== undefined && item.conversion_rate !== null && `${percent(item.conversion_rate)} conversion rate`,
    item.revenue !== undefined && item.revenue.length > 0 && money(item.revenue),
    item.avg_engaged_ms !== null && `${duration(item.avg_engaged_ms)} engaged`,
    item.avg_scroll_depth !== null && `${item.avg_scroll_depth}% scrolled`,
    item.clicks !== null && `${count(item.clicks)} ${item.clicks === 1 ? 'click' : 'clicks'}`,
  ].filter(Boolean);
  return parts.length > 0 ? <span className="sub detail">{parts.join(' · ')}</span> : null;
}

/** What each field of the period is called in a sentence. */
const FIELD_NAMES: Record<string, string> = { from: 'The start date', to: 'The end date', timezone: "The site's time zone" };

/** A refused period in words: the service's reason for the field, as a sentence without the query's path. */
function inWords(error: ApiError): string {
  const issue = (error.details?.issues as { path?: unknown; message?: unknown }[] | undefined)?.[0];
  if (typeof issue?.message !== 'string') return error.message;
  const field = String(issue.path).split('.').pop() ?? '';
  const reason = issue.message.replace('before to (', 'before the end date (').replace(/ \(settings business_hours\.timezone\)/, '');
  // The length rule already names the period ("the period may cover at most 366 days; …").
  const sentence = reason.startsWith('the period')
    ? reason
    : `${FIELD_NAMES[field] ?? 'The period'}: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

/**
 * Before the first person's visit: the tag to paste, the API to call from the page, and a page
 * that turns live by itself. Bots' visits do not end the wait (they are counted apart).
 */
async function FirstEvent({ siteId, mark, botsCame }: { siteId: string; mark: string; botsCame: boolean }) {
  const snippet = trackingSnippet(await publicOrigin(), siteId);
  const api = `sgp.track('signup_clicked', { plan: 'pro' });          // a custom event
sgp.track({ event_type: 'conversion', event_name: 'purchase',
            properties: { value: 49, currency: 'EUR' } });   // a conversion
sgp.identify('ada@example.com', 'Ada', 'Lovelace');         // the visitor becomes a lead`;
  return (
    <Card title="Waiting for the first event" id="first-event">
      <EmptyState title={botsCame ? 'No visit by a person yet' : 'No visit recorded yet'}>
        Paste the tag into every page of your site, just before <code>&lt;/body&gt;</code>, then open one of them.
      </EmptyState>
      <pre className="code" data-testid="overview-snippet">
        <code>{snippet}</code>
      </pre>
      <CopyButton text={snippet} label="Copy tag" />
      <h3>From your pages</h3>
      <pre className="code">
        <code>{api}</code>
      </pre>
      <CopyButton text={api} label="Copy example" />
      <LiveVisits siteId={siteId} mark={mark} waiting />
      {botsCame && (
        <p className="hint" data-testid="bots-waiting">
          Only bots have visited so far (crawlers, headless browsers or scripts): they are not counted here.{' '}
          <Link href={`/console/sites/${siteId}/sessions?bots=show`}>See them in Sessions</Link>.
        </p>
      )}
      <p className="hint">
        Browsers need the site&apos;s domain or an <Link href={`/console/sites/${siteId}/origins`}>allowed origin</Link>. More in{' '}
        <Link href={`/console/sites/${siteId}/snippet`}>Tracking snippet</Link>.
      </p>
    </Card>
  );
}
