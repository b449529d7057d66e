import type { Metadata } from 'next';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { SectionTable } from '@/components/kit/section-table';
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
    <SectionTable
      title="Shared dashboards"
      id="shares"
      intro={
        <>
          A shared link opens a read-only copy of the Overview — figures, the traffic chart with its annotations, top pages, referrers, countries and
          devices — for anyone who has it, without an account. It shows no visitor, lead or setting, and search engines are told not to index it.
          Revoke a link and its page is gone at once.
        </>
      }
      caption={`Shared links of ${site.name}`}
      rows={links}
      empty="No shared links yet."
      columns={[
        { header: 'Label', cell: (l) => l.label || <span className="empty">(no label)</span> },
        { header: 'Password', cell: (l) => (l.has_password ? 'Asked' : 'None') },
        { header: 'Made', cell: (l) => <Time iso={l.created_at} /> },
      ]}
      rowActions={(l) => manages && <RevokeShareButton siteId={site.id} linkId={l.id} label={l.label} />}
      add={manages && { title: 'Make a shared link', id: 'make-share', form: <CreateShareForm siteId={site.id} /> }}
    />
  );
}
