import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { count, duration, percent, shortDay } from '@/app/(console)/_lib/format';
import { AuthShell } from '@/components/auth-shell';
import { Card } from '@/components/kit/card';
import { Chart } from '@/components/kit/chart';
import { annotations } from '@/lib/analytics/annotations';
import { addDays } from '@/lib/analytics/calendar';
import type { BreakdownDimension, BreakdownItem } from '@/lib/analytics/schema';
import { breakdown, overview } from '@/lib/analytics/service';
import { openShare, provesPassword, shareCookieName } from '@/lib/analytics/shares';
import { UnlockForm } from './unlock-form';

/** Never in a search engine: a header says so too (proxy.ts), for crawlers that read no HTML. */
export const metadata: Metadata = { title: 'Shared dashboard · Site Growth Platform', robots: { index: false, follow: false } };
export const dynamic = 'force-dynamic';

const PRESETS = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
];

const LISTS: { dimension: BreakdownDimension; title: string; none: string; metric: 'page_views' | 'sessions' }[] = [
  { dimension: 'pages', title: 'Top pages', none: '(unknown page)', metric: 'page_views' },
  { dimension: 'referrers', title: 'Referrers', none: 'Direct / none', metric: 'sessions' },
  { dimension: 'countries', title: 'Countries', none: 'Unknown', metric: 'sessions' },
  { dimension: 'devices', title: 'Devices', none: 'Unknown', metric: 'sessions' },
];

/**
 * A site's Overview for anyone holding a shared link: figures, the chart with its annotations and
 * the top lists over the last 7, 30 or 90 days, read only — nothing links into the console, no
 * visitor or lead is shown. A revoked or unknown link is 404; one with a password asks for it first.
 */
export default async function SharedDashboardPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ range?: string }>;
}) {
  const { token } = await params;
  const share = await openShare(token);
  if (!share) notFound();
  if (!provesPassword(share, (await cookies()).get(shareCookieName(share.id))?.value)) {
    return (
      <AuthShell title={`${share.siteName}: shared dashboard`} footer="Ask the person who shared this link for its password.">
        <UnlockForm token={token} />
      </AuthShell>
    );
  }
  const { range } = await searchParams;
  const days = PRESETS.find((p) => String(p.days) === range)?.days ?? 30;
  const base = `/share/${token}`;
  const first = await overview(share.siteId, { timezone: 'site' });
  const to = first.range.to;
  const from = addDays(to, -(days - 1));
  const period = { from, to, timezone: 'site' as const };
  const [ov, notes, ...lists] = await Promise.all([
    overview(share.siteId, period),
    annotations(share.siteId, { from, to }),
    ...LISTS.map((l) => breakdown(share.siteId, l.dimension, { ...period, limit: 8 })),
  ]);
  const t = ov.totals;
  const figures: [string, string][] = [
    ['Visitors', count(t.visitors)],
    ['Sessions', count(t.sessions)],
    ['Page views', count(t.page_views)],
    ['Bounce rate', percent(t.bounce_rate)],
    ['Avg. duration', duration(t.avg_duration_ms)],
    ['Conversions', count(t.conversions)],
  ];
  const index = new Map(ov.series.map((d, i) => [d.date, i]));
  return (
    <main id="main" className="page share-page">
      <header className="share-head">
        <h1>{share.siteName}</h1>
        <p className="hint">
          Read-only dashboard{share.label ? ` · ${share.label}` : ''} · {ov.range.from} to {ov.range.to} ({ov.range.timezone})
        </p>
      </header>
      <nav aria-label="Period" className="range">
        {PRESETS.map((p) => (
          <Link key={p.days} href={`${base}?range=${p.days}`} aria-current={p.days === days ? 'true' : undefined}>
            {p.label}
          </Link>
        ))}
      </nav>
      <dl className="figures" aria-label={`Figures from ${ov.range.from} to ${ov.range.to}`}>
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <Card title="Traffic" id="traffic">
        <Chart
          title={`Visitors and page views per day, ${ov.range.from} to ${ov.range.to} (${ov.range.timezone})`}
          labels={ov.series.map((d) => shortDay(d.date))}
          series={[
            { name: 'Visitors', values: ov.series.map((d) => d.visitors) },
            { name: 'Page views', values: ov.series.map((d) => d.page_views) },
          ]}
          notes={notes.map((n) => ({ index: index.get(n.date) ?? -1, text: n.text }))}
        />
      </Card>
      <div className="top-lists">
        {LISTS.map((list, i) => (
          <Card key={list.dimension} title={list.title} id={`list-${list.dimension}`}>
            <TopList items={lists[i].items} metric={list.metric} none={list.none} label={list.title} />
          </Card>
        ))}
      </div>
    </main>
  );
}

function TopList({ items, metric, none, label }: { items: BreakdownItem[]; metric: 'page_views' | 'sessions'; none: string; label: string }) {
  if (items.length === 0) return <p className="empty">Nothing in this period.</p>;
  const top = Math.max(1, ...items.map((i) => i[metric]));
  return (
    <ol className="top-list" aria-label={label}>
      {items.map((item) => (
        <li key={item.value ?? ''}>
          <span className="share" style={{ width: `${(item[metric] / top) * 100}%` }} aria-hidden="true" />
          <span className="label">{item.value ?? none}</span>
          <span className="count" title={metric === 'page_views' ? 'Page views' : 'Sessions'}>
            {count(item[metric])}
          </span>
        </li>
      ))}
    </ol>
  );
}
