import type { Metadata } from 'next';
import Link from 'next/link';
import { impliedOrigins } from '@/lib/sites/origins';
import { listSiteOrigins } from '@/lib/sites/repo';
import { Time } from '@/components/time';
import { requireOwnedSite } from '../../../../_lib/session';
import { AddOriginForm } from './add-origin-form';
import { RemoveOriginButton } from './remove-origin-button';

export const metadata: Metadata = { title: 'Allowed origins · Site Growth Platform' };

export default async function OriginsPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site } = await requireOwnedSite((await params).siteId);
  const origins = await listSiteOrigins(site.id);
  const implied = impliedOrigins(site.domain);
  return (
    <>
      <section className="card" aria-labelledby="origins-heading">
        <h2 id="origins-heading" tabIndex={-1}>
          Allowed origins
        </h2>
        <p>
          Browsers on these origins may send visitor events for this site without an API key (the{' '}
          <Link href={`/console/sites/${site.id}/snippet`}>tracking snippet</Link> works only there). Any other origin is
          refused.
        </p>
        {implied.length + origins.length === 0 ? (
          <p className="empty">No allowed origins: the site has no domain and no extra origins yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">Allowed origins of {site.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Origin</th>
                  <th scope="col">Allowed because</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {implied.map((origin) => (
                  <tr key={origin} data-origin={origin}>
                    <td className="mono" data-label="Origin">
                      {origin}
                    </td>
                    <td data-label="Allowed because">
                      the site&apos;s domain{' '}
                      <span className="sub">
                        change it under <Link href={`/console/sites/${site.id}/general`}>General</Link>
                      </span>
                    </td>
                    <td data-label="Actions">
                      <span className="empty">—</span>
                    </td>
                  </tr>
                ))}
                {origins.map((o) => (
                  <tr key={o.id} data-origin={o.origin}>
                    <td className="mono" data-label="Origin">
                      {o.origin}
                    </td>
                    <td data-label="Allowed because">
                      added <Time iso={o.created_at} />
                    </td>
                    <td data-label="Actions">
                      <RemoveOriginButton siteId={site.id} originId={o.id} origin={o.origin} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="add-origin-heading">
        <h2 id="add-origin-heading">Add an origin</h2>
        <AddOriginForm siteId={site.id} />
      </section>
    </>
  );
}
