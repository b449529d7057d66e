import type { Metadata } from 'next';
import Link from 'next/link';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { SectionTable } from '@/components/kit/section-table';
import { Time } from '@/components/time';
import { can } from '@/lib/members/permissions';
import { impliedOrigins } from '@/lib/sites/origins';
import { listSiteOrigins } from '@/lib/sites/service';
import { AddOriginForm } from './add-origin-form';
import { RemoveOriginButton } from './remove-origin-button';

export const metadata: Metadata = { title: 'Allowed origins · Site Growth Platform' };

/** An origin the site's domain implies (no id, not removable here) or one added to the list. */
type Row = { origin: string; id?: string; created_at?: string };

export default async function OriginsPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const manages = can(role, 'settings.manage');
  const rows: Row[] = [...impliedOrigins(site.domain).map((origin) => ({ origin })), ...(await listSiteOrigins(site.id))];
  return (
    <SectionTable
      title="Allowed origins"
      id="origins"
      intro={
        <>
          Browsers on these origins may send visitor events for this site without an API key (the{' '}
          <Link href={`/console/sites/${site.id}/snippet`}>tracking snippet</Link> works only there). Any other origin is refused.
        </>
      }
      caption={`Allowed origins of ${site.name}`}
      rows={rows}
      rowKey={(o) => o.origin}
      empty="No allowed origins: the site has no domain and no extra origins yet."
      columns={[
        { header: 'Origin', className: 'mono', cell: (o) => o.origin },
        {
          header: 'Allowed because',
          cell: (o) =>
            o.created_at ? (
              <>
                added <Time iso={o.created_at} />
              </>
            ) : (
              <>
                the site&apos;s domain{' '}
                <span className="sub">
                  change it under <Link href={`/console/sites/${site.id}/general`}>General</Link>
                </span>
              </>
            ),
        },
      ]}
      rowActions={(o) => o.id && manages && <RemoveOriginButton siteId={site.id} originId={o.id} origin={o.origin} />}
      add={manages && { title: 'Add an origin', id: 'add-origin', form: <AddOriginForm siteId={site.id} /> }}
    />
  );
}
