import type { Metadata } from 'next';
import Link from 'next/link';
import { siteTimeZone } from '@/app/(console)/_lib/dates';
import { count, duration, percent, shortDay } from '@/app/(console)/_lib/format';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { publicOrigin, trackingSnippet } from '@/app/(console)/_lib/snippet';
import { CopyButton } from '@/components/copy-button';
import { Card } from '@/components/kit/card';
import { Chart } from '@/components/kit/chart';
import { EmptyState } from '@/components/kit/empty-state';
import { annotations } from '@/lib/analytics/annotations';
import { addDays, dateIn } from '@/lib/analytics/calendar';
import type { BreakdownDimension, BreakdownItem } from '@/lib/analytics/schema';
import { breakdown, overview, visitsStateOf } from '@/lib/analytics/service';
import { ApiError } from '@/lib/core/errors';
import { LiveVisits } from './live-visits';

export const metadata: Metadata = { title: 'Overview · Site Growth Platform' };

const PRESETS = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '12 months' },
];

type Tab = { dimension: BreakdownDimension; label: string; none: string };

/** The Overview's lists: a card each, a tab per breakdown; the tab shown is a query parameter (`pages=exit_pages`), so links keep it. */
const TOP_LISTS: { param: string; title: string; tabs: Tab[] }[] = [
  {
    param: 'pages',
    title: 'Pages',
    tabs: [
      { dimension: 'pages', label: 'Top pages', none: '(unknown page)' },
      { dimension: 'entry_pages', label: 'Entry pages', none: '(unknown page)' },
      { dimension: 'exit_pages', label: 'Exit pages', none: '(unknown page)' },
    ],
  },
  {
    param: 'sources',
    title: 'Sources',
    tabs: [
      { dimension: 'referrers', label: 'Referrers', none: 'Direct / none' },
      { dimension: 'utm_sources', label: 'UTM sources', none: 'No campaign' },
      { dimension: 'utm_mediums', label: 'Mediums', none: 'No medium' },
      { dimension: 'utm_campaigns', label: 'Campaigns', none: 'No campaign' },
    ],
  },
  {
    param: 'devices',
    title: 'Countries & devices',
    tabs: [
      { dimension: 'countries', label: 'Countries', none: 'Unknown' },
      { dimension: 'devices', label: 'Devices', none: 'Unknown' },
      { dimension: 'browsers', label: 'Browsers', none: 'Unknown' },
      { dimension: 'operating_systems', label: 'Systems', none: 'Unknown' },
    ],
  },
  {
    param: 'clicks',
    title: 'Clicks',
    tabs: [
      { dimension: 'outbound_links', label: 'Outbound links', none: '(no link)' },
      { dimension: 'downloads', label: 'Downloads', none: '(no link)' },
    ],
  },
];

type Search = { range?: string; from?: string; to?: string } & Partial<Record<string, string>>;

/** The tab of each list the query names (the first tab when it names none or an unknown one). */
const chosenTabs = (q: Search) => TOP_LISTS.map((list) => list.tabs.find((t) => t.dimension === q[list.param]) ?? list.tabs[0]);

/**
 * The period the page shows, in days of the site's time zone: a preset (`range=7`), or the days of the
 * custom form (in either order: a start after the end is read the other way round, and said), else the last 30 days.
 */
function periodOf(q: Search, timeZone: string): { from?: string; to?: string; preset?: number; swapped?: boolean } {
  if (q.from && q.to && q.from > q.to) return { from: q.to, to: q.from, swapped: true };
  if (q.from || q.to) return { from: q.from || undefined, to: q.to || undefined };
  const days = PRESETS.find((p) => String(p.days) === q.range)?.days ?? 30;
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
  let data;
  try {
    // Days start and end in the site's time zone (UTC when it has none), as the API's `timezone=site`.
    const range = { from: period.from, to: period.to, timezone: 'site' as const };
    data = await Promise.all([overview(site.id, range), ...tabs.map((tab) => breakdown(site.id, tab.dimension, { ...range, limit: 8 }))]);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return (
      <>
        <RangePicker base={base} period={period} />
        <p className="form-error" role="alert">
          {inWords(error)} Choose other dates, or one of the periods above.
        </p>
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
  const figures: [string, string][] = [
    ['Visitors', count(t.visitors)],
    ['Sessions', count(t.sessions)],
    ['Page views', count(t.page_views)],
    ['Bounce rate', percent(t.bounce_rate)],
    ['Avg. duration', duration(t.avg_duration_ms)],
    ['Conversions', count(t.conversions)],
    ['New leads', count(t.new_leads)],
  ];
  return (
    <>
      <RangePicker base={base} period={{ ...period, from: ov.range.from, to: ov.range.to }} />
      {period.swapped && (
        <p className="hint" role="status">
          The start date was after the end date: showing {ov.range.from} to {ov.range.to}.
        </p>
      )}
      <dl className="figures" aria-label={`Figures from ${ov.range.from} to ${ov.range.to}`}>
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
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
      <LiveVisits siteId={site.id} mark={visits.mark} waiting={false} />
      <Card title="Traffic" id="traffic">
        <Chart
          title={`Visitors and page views per day, ${ov.range.from} to ${ov.range.to} (${ov.range.timezone})`}
          labels={ov.series.map((d) => shortDay(d.date))}
          series={[
            { name: 'Visitors', values: ov.series.map((d) => d.visitors) },
            { name: 'Page views', values: ov.series.map((d) => d.page_views) },
          ]}
          notes={notes}
        />
      </Card>
      <div className="top-lists">
        {TOP_LISTS.map((list, i) => (
          <Card key={list.param} title={list.title} id={`list-${list.param}`}>
            <nav className="tabs" aria-label={`${list.title} lists`}>
              {list.tabs.map((tab) => (
                <Link
                  key={tab.dimension}
                  href={`${base}?${new URLSearchParams({ ...definedParams(q), [list.param]: tab.dimension })}`}
                  aria-current={tab === tabs[i] ? 'true' : undefined}
                  scroll={false}
                >
                  {tab.label}
                </Link>
              ))}
            </nav>
            <TopList items={tops[i].items} tab={tabs[i]} />
          </Card>
        ))}
      </div>
    </>
  );
}

/** The page's query without empty values: what a tab's link keeps. */
const definedParams = (q: Search) =>
  Object.fromEntries(Object.entries(q).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));

function RangePicker({ base, period }: { base: string; period: { from?: string; to?: string; preset?: number } }) {
  return (
    <div className="range">
      <nav aria-label="Period" className="range">
        {PRESETS.map((p) => (
          <Link key={p.days} href={`${base}?range=${p.days}`} aria-current={period.preset === p.days ? 'true' : undefined}>
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

function TopList({ items, tab }: { items: BreakdownItem[]; tab: Tab }) {
  if (items.length === 0) return <p className="empty">Nothing in this period.</p>;
  const metric = metricOf(tab.dimension);
  const value = (i: BreakdownItem) => i[metric.key] ?? 0;
  const top = Math.max(1, ...items.map(value));
  return (
    <ol className="top-list" aria-label={tab.label}>
      {items.map((item) => (
        <li key={item.value ?? ''}>
          <span className="share" style={{ width: `${(value(item) / top) * 100}%` }} aria-hidden="true" />
          <span className="label">
            {item.value ?? tab.none}
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

/** A row's second figure: a page's engagement, a link's clicks. */
function Detail({ item }: { item: BreakdownItem }) {
  const parts = [
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
