import type { Metadata } from 'next';
import Link from 'next/link';
import { count } from '@/app/(console)/_lib/format';
import { offsetSchema, PAGE_SIZE, withQuery } from '@/app/(console)/_lib/list-query';
import type { SitePageProps } from '@/app/(console)/_lib/page-props';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable, Pager } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { Time } from '@/components/time';
import { can } from '@/lib/members/permissions';
import type { Segment } from '@/lib/segments/schema';
import { listSegments, segmentLeadCounts } from '@/lib/segments/service';
import { CreateSegmentForm } from './create-segment-form';

export const metadata: Metadata = { title: 'Segments · Site Growth Platform' };

/** The audiences the site targets; each links to its leads. */
export default async function SegmentsPage({ params, searchParams }: SitePageProps<{ offset?: string }>) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const q = await searchParams;
  const offset = offsetSchema.parse(q.offset);
  const { items, total } = await listSegments(site.id, { site_id: site.id, limit: PAGE_SIZE, offset });
  const sizes = await segmentLeadCounts(
    site.id,
    items.map((s) => s.segment_id),
  );
  const base = `/console/sites/${site.id}`;
  return (
    <>
      <Card title="Segments" id="segments">
        <DataTable<Segment>
          caption={`Segments of ${site.name}`}
          rows={items}
          rowKey={(s) => s.segment_id}
          empty={<EmptyState title="No segments yet.">Create one below, or let the CMO agent propose them from your leads.</EmptyState>}
          columns={[
            {
              header: 'Segment',
              title: true,
              cell: (s) => (
                <>
                  <Link href={`${base}/segments/${s.segment_id}`} className="wrap">
                    <strong>{s.name}</strong>
                  </Link>
                  {s.audience && <span className="sub wrap">{s.audience}</span>}
                </>
              ),
            },
            {
              header: 'Size',
              cell: (s) => {
                const n = sizes.get(s.segment_id) ?? 0;
                return (
                  <Link href={`${base}/leads?segment=${s.segment_id}`} data-testid="segment-size">
                    {count(n)} {n === 1 ? 'lead' : 'leads'}
                    <span className="visually-hidden"> in {s.name}</span>
                  </Link>
                );
              },
            },
            { header: 'Language', cell: (s) => s.language ?? <span className="empty">—</span> },
            {
              header: 'Active',
              cell: (s) => <span className={`badge ${s.is_active ? 'active' : 'stopped'}`}>{s.is_active ? 'active' : 'inactive'}</span>,
            },
            { header: 'Created', cell: (s) => <Time iso={s.created_at} /> },
            ...(can(role, 'crm.write')
              ? [
                  {
                    header: 'Change',
                    cell: (s: Segment) => (
                      <Link href={`${base}/segments/${s.segment_id}`} className="button small">
                        Edit<span className="visually-hidden"> {s.name}</span>
                      </Link>
                    ),
                  },
                ]
              : []),
          ]}
        />
        <Pager offset={offset} limit={PAGE_SIZE} total={total} href={(o) => withQuery(`${base}/segments`, q, { offset: o || undefined })} />
      </Card>
      {can(role, 'crm.write') && (
        <Card title="Create a segment" id="create-segment">
          <CreateSegmentForm siteId={site.id} />
        </Card>
      )}
    </>
  );
}
