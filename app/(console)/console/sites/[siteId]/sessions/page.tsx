import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { count, duration, pathOf } from '@/app/(console)/_lib/format';
import { offsetSchema, PAGE_SIZE, withQuery } from '@/app/(console)/_lib/list-query';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { CopyButton } from '@/components/copy-button';
import { Card } from '@/components/kit/card';
import { DataTable, Pager } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { FilterInput, FilterSelect } from '@/components/kit/page-filters';
import { Notice } from '@/components/kit/page-notice';
import { Time } from '@/components/time';
import { BotBadge, VisitorName } from '@/components/visitor-name';
import { visits } from '@/lib/analytics/service';
import { uuidSchema } from '@/lib/core/schemas';
import { leadNames } from '@/lib/leads/service';
import { visitorLabel } from '@/lib/visitors/label';
import type { SessionSummary } from '@/lib/visitors/schema';
import { siteSessions } from '@/lib/visitors/service';

export const metadata: Metadata = { title: 'Visitors · Site Growth Platform' };

const filterSchema = z.object({
  visitor: uuidSchema.optional().describe('Visitor id'),
  source: z.string().trim().max(200).optional(),
  identified: z.enum(['yes', 'no']).optional(),
});

/** `?bots=show`: bot sessions listed too (labelled); without it the list is people's visits, as the Overview counts them. */
type Search = { visitor?: string; source?: string; identified?: string; bots?: string; offset?: string; erased?: string };

const IDENTIFIED = [
  { value: 'yes', label: 'Leads only' },
  { value: 'no', label: 'Anonymous only' },
];

const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

const iso = (ms: number) => new Date(ms).toISOString();

/** The site's visits, newest first: who came, from where, what they saw and did. */
export default async function SessionsPage({ params, searchParams }: { params: Promise<{ siteId: string }>; searchParams: Promise<Search> }) {
  const { site } = await requireSiteAccess((await params).siteId);
  const q = await searchParams;
  const base = `/console/sites/${site.id}/sessions`;
  const parsed = filterSchema.safeParse({ visitor: q.visitor || undefined, source: q.source || undefined, identified: q.identified || undefined });
  const f = parsed.success ? parsed.data : {};
  const offset = offsetSchema.parse(q.offset);
  const showBots = q.bots === 'show';
  const [{ items, total }, all] = await Promise.all([
    siteSessions(site.id, {
      visitorId: f.visitor?.toLowerCase(),
      utmSource: f.source,
      identified: f.identified === undefined ? undefined : f.identified === 'yes',
      bot: showBots ? undefined : false,
      limit: PAGE_SIZE,
      offset,
    }),
    visits(site.id),
  ]);
  const names = await leadNames(
    site.id,
    items.map((s) => s.lead_id),
  );
  const filtered = Boolean(f.visitor || f.source || f.identified);
  const toggle = withQuery(base, q, { bots: showBots ? undefined : 'show', offset: undefined });
  return (
    <Card title="Visitors" id="sessions">
      {q.erased && <Notice>The person’s data was erased.</Notice>}
      <p className="visit-counts" data-testid="visit-counts">
        {plural(all.humans.sessions, 'visit', 'visits')} by {plural(all.humans.visitors, 'person', 'people')}
        {' · '}
        {plural(all.bots.sessions, 'bot visit', 'bot visits')} {showBots ? 'listed too' : 'not listed'}
        {(all.bots.sessions > 0 || showBots) && (
          <>
            {' · '}
            <Link href={toggle}>{showBots ? 'Hide bot traffic' : 'Show bot traffic'}</Link>
          </>
        )}
      </p>
      {f.visitor && <VisitorHeader visitorId={f.visitor.toLowerCase()} first={items.find((s) => s.visitor_id === f.visitor?.toLowerCase())} />}
      {/* Keyed by the query: a link to other filters (a visitor's label, the bot toggle) fills the form anew. */}
      <form key={withQuery('', q, { offset: undefined })} method="get" action={base} className="filters" aria-label="Filter sessions">
        <FilterInput label="Visitor ID" name="visitor" value={q.visitor} aria-invalid={parsed.success ? undefined : true} />
        <FilterInput label="UTM source" name="source" value={q.source} />
        <FilterSelect label="Identified" name="identified" value={q.identified} any="Anyone" options={IDENTIFIED} />
        <label className="check">
          <input type="checkbox" name="bots" value="show" defaultChecked={showBots} />
          Show bot traffic
        </label>
        <button type="submit" className="button small">
          Filter
        </button>
        {filtered && <Link href={withQuery(base, {}, { bots: showBots ? 'show' : undefined })}>Clear</Link>}
      </form>
      {!parsed.success && <Notice alert>The visitor ID must be a UUID; showing every session.</Notice>}
      <DataTable<SessionSummary>
        className="compact"
        caption={`Sessions of ${site.name}`}
        rows={items}
        rowKey={(s) => s.session_id}
        empty={
          <EmptyState
            title={
              filtered ? 'No session matches these filters.' : showBots || all.bots.sessions === 0 ? 'No visits yet.' : 'No visit by a person yet.'
            }
          >
            {!filtered && (
              <>
                Paste the <Link href={`/console/sites/${site.id}/snippet`}>tracking tag</Link> into your pages; each visit shows here.
              </>
            )}
          </EmptyState>
        }
        columns={[
          {
            header: 'Started',
            title: true,
            cell: (s) => (
              <Link href={`${base}/${s.session_id}`}>
                <Time iso={iso(s.started_at)} />
              </Link>
            ),
          },
          {
            header: 'Landing page',
            className: 'wide',
            cell: (s) => (
              <>
                <span className="wrap">{pathOf(s.url)}</span>
                {s.referrer && <span className="sub wrap">from {s.referrer}</span>}
              </>
            ),
          },
          { header: 'Source', cell: (s) => s.utm_source ?? <span className="empty">—</span> },
          { header: 'Pages', cell: (s) => count(s.page_views) },
          { header: 'Duration', cell: (s) => duration(s.duration ?? s.last_activity_at - s.started_at) },
          { header: 'Conversions', cell: (s) => count(s.conversions) },
          {
            header: 'Visitor',
            className: 'wide',
            cell: (s) => <VisitorName siteId={site.id} visit={s} leadName={s.lead_id ? names.get(s.lead_id) : undefined} />,
          },
          {
            header: 'Status',
            className: 'status',
            cell: (s) => (
              <>
                <span className={`badge ${s.status === 'active' ? 'active' : 'ended'}`}>{s.status}</span>
                {s.is_bot && <BotBadge />}
              </>
            ),
          },
        ]}
      />
      <Pager offset={offset} limit={PAGE_SIZE} total={total} href={(o) => withQuery(base, q, { offset: o || undefined })} />
    </Card>
  );
}

/** Above the visits of one visitor: their label and their full id, to copy. */
function VisitorHeader({ visitorId, first }: { visitorId: string; first?: SessionSummary }) {
  return (
    <p className="wrap" data-testid="visitor-header">
      <strong>{visitorLabel(first ?? { visitor_id: visitorId })}</strong> {first?.is_bot && <BotBadge />}
      <span className="sub">
        Visitor id <code className="mono">{visitorId}</code> <CopyButton text={visitorId} label="Copy id" small />
      </span>
    </p>
  );
}
