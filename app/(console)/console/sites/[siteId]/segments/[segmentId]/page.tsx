import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { count } from '@/app/(console)/_lib/format';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { BackLink } from '@/components/kit/page-back-link';
import { Fact } from '@/components/kit/section-facts';
import { Time } from '@/components/time';
import { isUuid } from '@/lib/core/schemas';
import { can } from '@/lib/members/permissions';
import { findSegment, segmentLeadCounts } from '@/lib/segments/service';
import { DeleteSegmentButton, EditSegmentForm } from './segment-forms';

export const metadata: Metadata = { title: 'Segment · Site Growth Platform' };

/** One segment: its size (the leads in it), its fields to edit, and its deletion. */
export default async function SegmentPage({ params }: { params: Promise<{ siteId: string; segmentId: string }> }) {
  const { siteId, segmentId } = await params;
  const { site, role } = await requireSiteAccess(siteId);
  const segment = isUuid(segmentId) ? await findSegment(site.id, segmentId) : undefined;
  if (!segment) notFound();
  const leads = (await segmentLeadCounts(site.id, [segment.segment_id])).get(segment.segment_id) ?? 0;
  const base = `/console/sites/${site.id}`;
  const writable = can(role, 'crm.write');
  return (
    <>
      <BackLink href={`${base}/segments`} label="All segments" />
      <Card
        title={segment.name}
        id="segment"
        actions={writable && <DeleteSegmentButton siteId={site.id} segmentId={segment.segment_id} name={segment.name} leads={leads} />}
      >
        <dl className="stats">
          <Fact label="Leads in it" testId="segment-size">
            <Link href={`${base}/leads?segment=${segment.segment_id}`}>{count(leads)}</Link>
          </Fact>
          {segment.size !== null && segment.size !== leads && <Fact label="Estimated audience">{count(segment.size)}</Fact>}
          <Fact label="Created">
            <Time iso={segment.created_at} withDate />
          </Fact>
        </dl>
      </Card>
      {writable && (
        <Card title="Edit" id="edit-segment">
          <EditSegmentForm
            siteId={site.id}
            segmentId={segment.segment_id}
            segment={{
              name: segment.name,
              audience: segment.audience ?? '',
              description: segment.description ?? '',
              language: segment.language ?? '',
              is_active: segment.is_active,
            }}
          />
        </Card>
      )}
    </>
  );
}
