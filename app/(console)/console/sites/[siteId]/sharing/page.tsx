import type { Metadata } from 'next';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { Time } from '@/components/time';
import { sharedLinks } from '@/lib/analytics/shares';
import { can } from '@/lib/members/permissions';
import { CreateShareForm, RevokeShareButton } from './share-forms';

export const metadata: Metadata = { title: 'Shared dashboards · Site Growth Platform' };

export default async function SharingPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const manages = can(role, 'settings.manage');
  const links = await sharedLinks(site.id);
  return (
    <>
      <Card title="Shared dashboards" id="shares">
        <p>
          A shared link opens a read-only copy of the Overview — figures, the traffic chart with its annotations, top pages, referrers, countries and
          devices — for anyone who has it, without an account. It shows no visitor, lead or setting, and search engines are told not to index it.
          Revoke a link and its page is gone at once.
        </p>
        <DataTable
          caption={`Shared links of ${site.name}`}
          rows={links}
          rowKey={(l) => l.id}
          empty={<EmptyState title="No shared links yet." />}
          columns={[
            { header: 'Label', cell: (l) => l.label || <span className="empty">(no label)</span> },
            { header: 'Password', cell: (l) => (l.has_password ? 'Asked' : 'None') },
            { header: 'Made', cell: (l) => <Time iso={l.created_at} /> },
            {
              header: 'Actions',
              cell: (l) => (manages ? <RevokeShareButton siteId={site.id} linkId={l.id} label={l.label} /> : <span className="empty">—</span>),
            },
          ]}
        />
      </Card>
      {manages && (
        <Card title="Make a shared link" id="make-share">
          <CreateShareForm siteId={site.id} />
        </Card>
      )}
    </>
  );
}
