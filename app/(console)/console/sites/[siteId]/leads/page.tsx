import type { Metadata } from 'next';
import Link from 'next/link';
import { offsetSchema, PAGE_SIZE, withQuery } from '@/app/(console)/_lib/list-query';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable, Pager } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { FilterInput, FilterSelect } from '@/components/kit/page-filters';
import { Notice } from '@/components/kit/page-notice';
import { Time } from '@/components/time';
import { ApiError } from '@/lib/core/errors';
import { propertyFiltersOf } from '@/lib/leads/export-schema';
import type { LeadProperty } from '@/lib/leads/property-schema';
import { LEAD_STATUSES, listLeadsInputSchema, type Lead, type ListLeadsInput } from '@/lib/leads/schema';
import { listLeads, listProperties } from '@/lib/leads/service';
import { can } from '@/lib/members/permissions';
import { listSegments } from '@/lib/segments/service';
import { listSequences } from '@/lib/sequences/service';
import { EnrollLeadsForm } from '../sequences/sequence-forms';

export const metadata: Metadata = { title: 'Leads · Site Growth Platform' };

/** The list's query: its filters (`property.<key>` for custom properties, as the export's), the page, a notice. */
type Search = { search?: string; status?: string; segment?: string; offset?: string; erased?: string } & Record<string, string | undefined>;

/** A custom property's filter control, named `property.<key>` as the export's query parameter. */
function PropertyFilter({ property, value }: { property: LeadProperty; value?: string }) {
  const name = `property.${property.key}`;
  if (property.type === 'choice') return <FilterSelect label={property.label} name={name} value={value} options={property.options} />;
  const input = { number: { type: 'number', step: 'any' }, date: { type: 'date' }, text: { type: 'text' } }[property.type];
  return (
    <FilterInput label={property.label} name={name} {...input} value={value} placeholder={property.type === 'text' ? 'Exact value' : undefined} />
  );
}

/** A page of leads, or the refusal of a filter (a value of the wrong type) to show above the list. */
async function leadsPage(
  siteId: string,
  input: ListLeadsInput,
): Promise<{ items: Lead[]; count: { total: number; capped: boolean }; refused?: string }> {
  try {
    return await listLeads(siteId, input);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'INVALID_REQUEST') throw error;
    return { items: [], count: { total: 0, capped: false }, refused: error.message };
  }
}

/** The site's leads, searched and filtered with the same listLeads() as the leads/get tool. */
export default async function LeadsPage({ params, searchParams }: { params: Promise<{ siteId: string }>; searchParams: Promise<Search> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const q = await searchParams;
  const base = `/console/sites/${site.id}/leads`;
  const offset = offsetSchema.parse(q.offset);
  const propertyFilters = propertyFiltersOf(q);
  const parsed = listLeadsInputSchema.safeParse({
    site_id: site.id,
    search: q.search || undefined,
    status: q.status || undefined,
    segment_id: q.segment || undefined,
    properties: propertyFilters,
    limit: PAGE_SIZE,
    offset,
  });
  const [{ items, count, refused }, segments, sequences, properties] = await Promise.all([
    parsed.success
      ? leadsPage(site.id, parsed.data)
      : { items: [] as Lead[], count: { total: 0, capped: false }, refused: parsed.error.issues[0].message },
    listSegments(site.id, { site_id: site.id, limit: 500, offset: 0 }),
    can(role, 'crm.write') ? listSequences(site.id) : [],
    listProperties(site.id),
  ]);
  // Ticking leads enrolls them in a sequence: the boxes belong to the form under the list.
  const enrolls = sequences.length > 0 && items.length > 0;
  const segmentName = new Map(segments.items.map((s) => [s.segment_id, s.name]));
  const filtered = Boolean(q.search || q.status || q.segment || propertyFilters);
  const propertyParams = Object.fromEntries(Object.entries(propertyFilters ?? {}).map(([k, v]) => [`property.${k}`, v]));
  // The export takes the list's filters (GET /api/leads/export, the console's session cookie).
  const exportHref = withQuery(
    '/api/leads/export',
    {},
    { site_id: site.id, search: q.search || undefined, status: q.status || undefined, segment_id: q.segment || undefined, ...propertyParams },
  );
  return (
    <Card title="Leads" id="leads">
      {q.erased && <Notice>The person’s data was erased.</Notice>}
      <p className="actions">
        <a className="button small" href={exportHref} download>
          Export CSV
        </a>{' '}
        <Link className="button small secondary" href={`${base}/import`}>
          Import CSV
        </Link>
      </p>
      <form method="get" action={base} className="filters" role="search" aria-label="Search leads">
        <FilterInput label="Search" name="search" value={q.search} placeholder="Name, email or company" />
        <FilterSelect label="Status" name="status" value={q.status} options={LEAD_STATUSES} />
        <FilterSelect
          label="Segment"
          name="segment"
          value={q.segment}
          options={segments.items.map((s) => ({ value: s.segment_id, label: s.name }))}
        />
        {properties.map((p) => (
          <PropertyFilter key={p.property_id} property={p} value={propertyFilters?.[p.key]} />
        ))}
        <button type="submit" className="button small">
          Search
        </button>
        {filtered && <Link href={base}>Clear</Link>}
      </form>
      {refused && <Notice alert>{refused}</Notice>}
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
