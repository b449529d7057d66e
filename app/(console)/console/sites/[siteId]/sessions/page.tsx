import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { count, duration, pathOf } from '@/app/(console)/_lib/format';
import { offsetSchema, PAGE_SIZE, withQuery } from '@/app/(console)/_lib/list-query';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable, Pager } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { Time } from '@/components/time';
import { uuidSchema } from '@/lib/core/schemas';
import type { SessionSummary } from '@/lib/visitors/schema';
import { siteSessions } from '@/lib/visitors/service';

export const metadata: Metadata = { title: 'Visitors & sessions · Site Growth Platform' };

const filterSchema = z.object({
  visitor: uuidSchema.optional().describe('Visitor id'),
  source: z.string().trim().max(200).optional(),
  identified: z.enum(['yes', 'no']).optional(),
});

type Search = { visitor?: string; source?: string; identified?: string; offset?: string };

const iso = (ms: number) => new Date(ms).toISOString();

/** The site's visits, newest first: who came, from where, what they saw and did. */
export default async function SessionsPage({ params, searchParams }: { params: Promise<{ siteId: string }>; searchParams: Promise<Search> }) {
  const { site } = await requireSiteAccess((await params).siteId);
  const q = await searchParams;
  const base = `/console/sites/${site.id}/sessions`;
  const parsed = filterSchema.safeParse({ visitor: q.visitor || undefined, source: q.source || undefined, identified: q.identified || undefined });
  const f = parsed.success ? parsed.data : {};
  const offset = offsetSchema.parse(q.offset);
  const { items, total } = await siteSessions(site.id, {
    visitorId: f.visitor?.toLowerCase(),
    utmSource: f.source,
    identified: f.identified === undefined ? undefined : f.identified === 'yes',
    limit: PAGE_SIZE,
    offset,
  });
  const filtered = Boolean(f.visitor || f.source || f.identified);
  return (
    <Card title="Visitors & sessions" id="sessions">
      <form method="get" action={base} className="filters" aria-label="Filter sessions">
        <label>
          Visitor ID
          <input type="text" name="visitor" defaultValue={q.visitor ?? ''} aria-invalid={parsed.success ? undefined : true} />
        </label>
        <label>
          UTM source
          <input type="text" name="source" defaultValue={q.source ?? ''} />
        </label>
        <label>
          Identified
          <select name="identified" defaultValue={q.identified ?? ''}>
            <option value="">Anyone</option>
            <option value="yes">Leads only</option>
            <option value="no">Anonymous only</option>
          </select>
        </label>
        <button type="submit" className="button small">
          Filter
        </button>
        {filtered && <Link href={base}>Clear</Link>}
      </form>
      {!parsed.success && (
        <p className="form-error" role="alert">
          The visitor ID must be a UUID; showing every session.
        </p>
      )}
      <DataTable<SessionSummary>
        caption={`Sessions of ${site.name}`}
        rows={items}
        rowKey={(s) => s.session_id}
        empty={
          <EmptyState title={filtered ? 'No session matches these filters.' : 'No visits yet.'}>
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
            cell: (s) =>
              s.lead_id ? (
                <Link href={`/console/sites/${site.id}/leads/${s.lead_id}`}>Lead</Link>
              ) : (
                <Link href={withQuery(base, {}, { visitor: s.visitor_id })} className="mono" title={s.visitor_id}>
                  {s.visitor_id.slice(0, 8)}
                </Link>
              ),
          },
          { header: 'Status', cell: (s) => <span className={`badge ${s.status === 'active' ? 'active' : 'ended'}`}>{s.status}</span> },
        ]}
      />
      <Pager offset={offset} limit={PAGE_SIZE} total={total} href={(o) => withQuery(base, q, { offset: o || undefined })} />
    </Card>
  );
}
