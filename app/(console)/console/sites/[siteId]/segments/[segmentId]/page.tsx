import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { count } from '@/app/(console)/_lib/format';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
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
      <p>
        <Link href={`${base}/segments`}>← All segments</Link>
      </p>
      <Card
        title={segment.name}
        id="segment"
        actions={writable && <DeleteSegmentButton siteId={site.id} segmentId={segment.segment_id} name={segment.name} leads={leads} />}
      >
        <dl className="stats">
          <div>
            <dt>Leads in it</dt>
            <dd data-testid="segment-size">
              <Link href={`${base}/leads?segment=${segment.segment_id}`}>{count(leads)}</Link>
            </dd>
          </div>
          {segment.size !== null && segment.size !== leads && (
            <div>
              <dt>Estimated audience</dt>
              <dd>{count(segment.size)}</dd>
            </div>
          )}
          <div>
            <dt>Created</dt>
            <dd>
              <Time iso={segment.created_at} withDate />
            </dd>
          </div>
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
