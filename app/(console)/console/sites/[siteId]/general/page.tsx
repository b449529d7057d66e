import type { Metadata } from 'next';
import { requireOwnedSite } from '../../../../_lib/session';
import { DeleteSiteForm } from './delete-site-form';
import { EditSiteForm } from './edit-site-form';

export const metadata: Metadata = { title: 'General · Site Growth Platform' };

export default async function GeneralPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site } = await requireOwnedSite((await params).siteId);
  return (
    <>
      <section className="card" aria-labelledby="edit-site-heading">
        <h2 id="edit-site-heading">Name and domain</h2>
        <EditSiteForm siteId={site.id} name={site.name} domain={site.domain} />
      </section>
      <section className="card danger-zone" aria-labelledby="delete-site-heading">
        <h2 id="delete-site-heading">Delete this site</h2>
        <p>Deleting the site removes, at once and for good:</p>
        <ul className="plain-list">
          <li>its API keys — requests with them are refused (401) from that moment;</li>
          <li>visitors, visitor sessions, tracked events and uploaded files;</li>
          <li>leads, segments, requirements, commands and agent conversations;</li>
          <li>workflow runs (running ones are terminated first), allowed origins and settings.</li>
        </ul>
        <p>Your account and your other sites are not affected. There is no undo.</p>
        <DeleteSiteForm siteId={site.id} name={site.name} />
      </section>
    </>
  );
}
