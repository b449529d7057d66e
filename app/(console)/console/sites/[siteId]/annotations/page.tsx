import type { Metadata } from 'next';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { annotations } from '@/lib/analytics/annotations';
import { can } from '@/lib/members/permissions';
import { AddAnnotationForm, DeleteAnnotationButton } from './annotation-forms';

export const metadata: Metadata = { title: 'Annotations · Site Growth Platform' };

export default async function AnnotationsPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const writes = can(role, 'crm.write');
  const notes = (await annotations(site.id)).reverse();
  return (
    <>
      <Card title="Annotations" id="annotations">
        <p>Notes on days of the traffic chart — a launch, a newsletter, a price change. Each shows as a flag on its day of the Overview chart.</p>
        <DataTable
          caption={`Annotations of ${site.name}, newest day first`}
          rows={notes}
          rowKey={(n) => n.id}
          empty={<EmptyState title="No annotations yet." />}
          columns={[
            { header: 'Day', className: 'mono', cell: (n) => n.date },
            { header: 'Note', cell: (n) => n.text },
            {
              header: 'Actions',
              cell: (n) =>
                writes ? <DeleteAnnotationButton siteId={site.id} annotationId={n.id} date={n.date} /> : <span className="empty">—</span>,
            },
          ]}
        />
      </Card>
      {writes && (
        <Card title="Add an annotation" id="add-annotation">
          <AddAnnotationForm siteId={site.id} />
        </Card>
      )}
    </>
  );
}
