import type { Metadata } from 'next';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { SectionTable } from '@/components/kit/section-table';
import { annotations } from '@/lib/analytics/annotations';
import { can } from '@/lib/members/permissions';
import { AddAnnotationForm, DeleteAnnotationButton } from './annotation-forms';

export const metadata: Metadata = { title: 'Annotations · Site Growth Platform' };

export default async function AnnotationsPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const writes = can(role, 'crm.write');
  const notes = (await annotations(site.id)).reverse();
  return (
    <SectionTable
      title="Annotations"
      id="annotations"
      intro="Notes on days of the traffic chart — a launch, a newsletter, a price change. Each shows as a flag on its day of the Overview chart."
      caption={`Annotations of ${site.name}, newest day first`}
      rows={notes}
      empty="No annotations yet."
      columns={[
        { header: 'Day', className: 'mono', cell: (n) => n.date },
        { header: 'Note', cell: (n) => n.text },
      ]}
      rowActions={(n) => writes && <DeleteAnnotationButton siteId={site.id} annotationId={n.id} date={n.date} />}
      add={writes && { title: 'Add an annotation', id: 'add-annotation', form: <AddAnnotationForm siteId={site.id} /> }}
    />
  );
}
