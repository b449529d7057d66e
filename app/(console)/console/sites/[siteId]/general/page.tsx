import type { Metadata } from 'next';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { siteTimeZone } from '@/components/dates';
import { Card } from '@/components/kit/card';
import { can } from '@/lib/members/permissions';
import { DeleteSiteForm } from './delete-site-form';
import { EditSiteForm } from './edit-site-form';
import { TimeZoneForm } from './time-zone-form';

export const metadata: Metadata = { title: 'General · Site Growth Platform' };

export default async function GeneralPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const zone = siteTimeZone(site.settings);
  // IANA's zones as this server knows them, UTC included; a stored zone is always among the choices.
  const zones = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone'), ...(zone ? [zone] : [])])];
  return (
    <>
      <Card title="Name and domain" id="edit-site">
        {can(role, 'settings.manage') ? (
          <EditSiteForm siteId={site.id} name={site.name} domain={site.domain} />
        ) : (
          <p>
            {site.name} · {site.domain ?? 'No domain'}. Owners and admins change them.
          </p>
        )}
      </Card>
      <Card title="Time zone" id="time-zone">
        {can(role, 'settings.manage') ? (
          <TimeZoneForm siteId={site.id} zone={zone} zones={zones} />
        ) : (
          <p>{zone ?? 'Not set (UTC)'}: dates and analytics days are shown in this zone. Owners and admins change it.</p>
        )}
      </Card>
      {can(role, 'site.delete') && (
        <Card title="Delete this site" id="delete-site" className="danger-zone">
          <p>Deleting the site removes, at once and for good:</p>
          <ul className="plain-list">
            <li>its API keys — requests with them are refused (401) from that moment;</li>
            <li>visitors, visitor sessions, tracked events and uploaded files;</li>
            <li>leads, segments, requirements, commands and agent conversations;</li>
            <li>workflow runs (running ones are terminated first), allowed origins and settings.</li>
          </ul>
          <p>Your account and your other sites are not affected. There is no undo.</p>
          <DeleteSiteForm siteId={site.id} name={site.name} />
        </Card>
      )}
    </>
  );
}
