import type { Metadata } from 'next';
import Link from 'next/link';
import { offsetSchema, PAGE_SIZE, withQuery } from '@/app/(console)/_lib/list-query';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable, Pager } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { Time } from '@/components/time';
import { LEAD_STATUSES, listLeadsInputSchema, type Lead } from '@/lib/leads/schema';
import { listLeads } from '@/lib/leads/service';
import { can } from '@/lib/members/permissions';
import { listSegments } from '@/lib/segments/service';
import { listSequences } from '@/lib/sequences/service';
import { EnrollLeadsForm } from '../sequences/sequence-forms';

export const metadata: Metadata = { title: 'Leads · Site Growth Platform' };

type Search = { search?: string; status?: string; segment?: string; offset?: string; erased?: string };

/** The site's leads, searched and filtered with the same listLeads() as the leads/get tool. */
export default async function LeadsPage({ params, searchParams }: { params: Promise<{ siteId: string }>; searchParams: Promise<Search> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const q = await searchParams;
  const base = `/console/sites/${site.id}/leads`;
  const offset = offsetSchema.parse(q.offset);
  const parsed = listLeadsInputSchema.safeParse({
    site_id: site.id,
    search: q.search || undefined,
    status: q.status || undefined,
    segment_id: q.segment || undefined,
    limit: PAGE_SIZE,
    offset,
  });
  const [{ items, count }, segments, sequences] = await Promise.all([
    parsed.success ? listLeads(site.id, parsed.data) : { items: [] as Lead[], count: { total: 0, capped: false } },
    listSegments(site.id, { site_id: site.id, limit: 500, offset: 0 }),
    can(role, 'crm.write') ? listSequences(site.id) : [],
  ]);
  // Ticking leads enrolls them in a sequence: the boxes belong to the form under the list.
  const enrolls = sequences.length > 0 && items.length > 0;
  const segmentName = new Map(segments.items.map((s) => [s.segment_id, s.name]));
  const filtered = Boolean(q.search || q.status || q.segment);
  // The export takes the list's filters (GET /api/leads/export, the console's session cookie).
  const exportHref = withQuery(
    '/api/leads/export',
    {},
    { site_id: site.id, search: q.search || undefined, status: q.status || undefined, segment_id: q.segment || undefined },
  );
  return (
    <Card title="Leads" id="leads">
      {q.erased && (
        <p role="status" className="status">
          The person’s data was erased.
        </p>
      )}
      <p className="actions">
        <a className="button small" href={exportHref} download>
          Export CSV
        </a>{' '}
        <Link className="button small secondary" href={`${base}/import`}>
          Import CSV
        </Link>
      </p>
      <form method="get" action={base} className="filters" role="search" aria-label="Search leads">
        <label>
          Search
          <input type="text" name="search" defaultValue={q.search ?? ''} placeholder="Name, email or company" />
        </label>
        <label>
          Status
          <select name="status" defaultValue={q.status ?? ''}>
            <option value="">Any</option>
            {LEAD_STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Segment
          <select name="segment" defaultValue={q.segment ?? ''}>
            <option value="">Any</option>
            {segments.items.map((s) => (
              <option key={s.segment_id} value={s.segment_id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button small">
          Search
        </button>
        {filtered && <Link href={base}>Clear</Link>}
      </form>
      {!parsed.success && (
        <p className="form-error" role="alert">
          {parsed.error.issues[0].message}
        </p>
      )}
      <DataTable<Lead>
        caption={`Leads of ${site.name}`}
        rows={items}
        rowKey={(l) => l.id}
        empty={
          <EmptyState title={filtered ? 'No lead matches.' : 'No leads yet.'}>
            {!filtered && (
              <>
                A visitor becomes a lead when your page calls <code>sgp.identify(email, firstName, lastName)</code>.
              </>
            )}
          </EmptyState>
        }
        columns={[
          ...(enrolls
            ? [
                {
                  header: 'Select',
                  hideHeader: true,
                  className: 'select-cell',
                  cell: (l: Lead) => <input type="checkbox" name="lead_ids" value={l.id} form="enroll-leads" aria-label={`Select ${l.name}`} />,
                },
              ]
            : []),
          {
            header: 'Lead',
            title: true,
            cell: (l) => (
              <>
                <Link href={`${base}/${l.id}`}>
                  <strong className="wrap">{l.name}</strong>
                </Link>
                <span className="sub wrap">{l.email}</span>
              </>
            ),
          },
          { header: 'Company', cell: (l) => l.company ?? <span className="empty">—</span> },
          { header: 'Status', cell: (l) => <span className={`badge ${l.status}`}>{l.status}</span> },
          { header: 'Segment', cell: (l) => (l.segment_id ? (segmentName.get(l.segment_id) ?? '—') : <span className="empty">—</span>) },
          { header: 'Created', cell: (l) => <Time iso={l.created_at} /> },
        ]}
      />
      <Pager
        offset={offset}
        limit={PAGE_SIZE}
        total={count.total}
        capped={count.capped}
        href={(o) => withQuery(base, q, { offset: o || undefined })}
      />
      {enrolls && (
        <EnrollLeadsForm
          siteId={site.id}
          sequences={sequences.map((s) => ({ value: s.id, label: `${s.name}${s.status === 'paused' ? ' (paused)' : ''}` }))}
        />
      )}
    </Card>
  );
}
