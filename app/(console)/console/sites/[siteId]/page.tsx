import type { Metadata } from 'next';
import Link from 'next/link';
import { count, duration, percent, shortDay } from '@/app/(console)/_lib/format';
import { requireOwnedSite } from '@/app/(console)/_lib/session';
import { publicOrigin, trackingSnippet } from '@/app/(console)/_lib/snippet';
import { CopyButton } from '@/components/copy-button';
import { Card } from '@/components/kit/card';
import { Chart } from '@/components/kit/chart';
import { EmptyState } from '@/components/kit/empty-state';
import { addDays, dateIn } from '@/lib/analytics/calendar';
import type { BreakdownDimension, BreakdownItem } from '@/lib/analytics/schema';
import { breakdown, overview } from '@/lib/analytics/service';
import { ApiError } from '@/lib/core/errors';
import { tagReportedIn } from '@/lib/visitors/service';
import { WaitForFirstEvent } from './wait-for-first-event';

export const metadata: Metadata = { title: 'Overview · Site Growth Platform' };

const PRESETS = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '12 months' },
];

const TOP_LISTS: { dimension: BreakdownDimension; title: string; none: string }[] = [
  { dimension: 'pages', title: 'Top pages', none: '(unknown page)' },
  { dimension: 'referrers', title: 'Referrers', none: 'Direct / none' },
  { dimension: 'utm_sources', title: 'UTM sources', none: 'No campaign' },
];

type Search = { range?: string; from?: string; to?: string };

/** The period the page shows: a preset (`range=7`), or the days of the custom form, else the last 30 days. */
function periodOf(q: Search): { from?: string; to?: string; preset?: number } {
  if (q.from || q.to) return { from: q.from || undefined, to: q.to || undefined };
  const days = PRESETS.find((p) => String(p.days) === q.range)?.days ?? 30;
  return { from: addDays(dateIn(Date.now(), 'UTC'), -(days - 1)), preset: days };
}

/** The site's home: its traffic and business over a period, read by the same service as GET /sites/{id}/analytics/*. */
export default async function OverviewPage({ params, searchParams }: { params: Promise<{ siteId: string }>; searchParams: Promise<Search> }) {
  const { site } = await requireOwnedSite((await params).siteId);
  const q = await searchParams;
  if (!(await tagReportedIn(site.id))) return <FirstEvent siteId={site.id} />;
  const period = periodOf(q);
  const base = `/console/sites/${site.id}`;
  let data;
  try {
    const range = { from: period.from, to: period.to };
    data = await Promise.all([overview(site.id, range), ...TOP_LISTS.map((l) => breakdown(site.id, l.dimension, { ...range, limit: 8 }))]);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return (
      <>
        <RangePicker base={base} period={period} />
        <p className="form-error" role="alert">
          {error.message}
        </p>
      </>
    );
  }
  const [ov, ...tops] = data;
  const t = ov.totals;
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
      <dl className="figures" aria-label={`Figures from ${ov.range.from} to ${ov.range.to}`}>
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <Card
        title="Traffic"
        id="traffic"
        actions={
          <span className="as-code">
            as code: <code>GET /sites/{'{site_id}'}/analytics/overview</code>
          </span>
        }
      >
        <Chart
          title={`Visitors and page views per day, ${ov.range.from} to ${ov.range.to} (${ov.range.timezone})`}
          labels={ov.series.map((d) => shortDay(d.date))}
          series={[
            { name: 'Visitors', values: ov.series.map((d) => d.visitors) },
            { name: 'Page views', values: ov.series.map((d) => d.page_views) },
          ]}
        />
      </Card>
      <div className="grid-3">
        {TOP_LISTS.map((list, i) => (
          <Card key={list.dimension} title={list.title} id={list.dimension}>
            <TopList items={tops[i].items} none={list.none} metric={list.dimension === 'pages' ? 'page_views' : 'sessions'} />
          </Card>
        ))}
      </div>
    </>
  );
}

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
      <form method="get" action={base} className="inline-form" aria-label="Custom period">
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

function TopList({ items, none, metric }: { items: BreakdownItem[]; none: string; metric: 'sessions' | 'page_views' }) {
  if (items.length === 0) return <p className="empty">Nothing in this period.</p>;
  const top = Math.max(1, ...items.map((i) => i[metric]));
  return (
    <ol className="top-list">
      {items.map((item) => (
        <li key={item.value ?? ''}>
          <span className="share" style={{ width: `${(item[metric] / top) * 100}%` }} aria-hidden="true" />
          <span className="label">{item.value ?? none}</span>
          <span className="count" title={metric === 'sessions' ? 'Sessions' : 'Page views'}>
            {count(item[metric])}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Before the first visit: the tag to paste, the API to call from the page, and a page that turns live by itself. */
async function FirstEvent({ siteId }: { siteId: string }) {
  const snippet = trackingSnippet(await publicOrigin(), siteId);
  const api = `sgp.track('signup_clicked', { plan: 'pro' });          // a custom event
sgp.track({ event_type: 'conversion', event_name: 'purchase',
            properties: { value: 49, currency: 'EUR' } });   // a conversion
sgp.identify('ada@example.com', 'Ada', 'Lovelace');         // the visitor becomes a lead`;
  return (
    <Card title="Waiting for the first event" id="first-event">
      <EmptyState title="No visit recorded yet">
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
      <WaitForFirstEvent siteId={siteId} />
      <p className="hint">
        Browsers need the site&apos;s domain or an <Link href={`/console/sites/${siteId}/origins`}>allowed origin</Link>. More in{' '}
        <Link href={`/console/sites/${siteId}/snippet`}>Tracking snippet</Link>.
      </p>
    </Card>
  );
}
