import type { Metadata } from 'next';
import Link from 'next/link';
import { listKeysForUser } from '@/lib/keys/service';
import { Time } from '@/components/time';
import { requireOwnedSite } from '../../../../_lib/session';
import { CreateKeyForm } from './create-key-form';
import { RevokeKeyButton } from './revoke-key-button';

export const metadata: Metadata = { title: 'API keys · Site Growth Platform' };

export default async function SiteKeysPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { user, site } = await requireOwnedSite((await params).siteId);
  const keys = await listKeysForUser(user, site.id);
  return (
    <>
      <section className="card" aria-labelledby="create-key-heading">
        <h2 id="create-key-heading">Create a key</h2>
        <CreateKeyForm siteId={site.id} />
      </section>
      <section className="card" aria-labelledby="keys-heading">
        <h2 id="keys-heading" tabIndex={-1}>
          API keys
        </h2>
        {keys.length === 0 ? (
          <p className="empty">No keys yet. Create one to call the API for this site.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">API keys of {site.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {keys.map((key) => (
                  <tr key={key.id} data-key-id={key.id}>
                    <td data-label="Name">
                      <strong className="wrap">{key.name}</strong>
                      <span className="sub mono">{key.display}</span>
                      <span className="sub">
                        {key.scopes.join(', ')} · created <Time iso={key.created_at} />
                      </span>
                    </td>
                    <td data-label="Status">
                      <span className={`badge ${key.status}`}>{key.status}</span>
                      {key.revoked_at && (
                        <span className="sub">
                          <Time iso={key.revoked_at} />
                        </span>
                      )}
                    </td>
                    <td data-label="Last used">{key.last_used_at ? <Time iso={key.last_used_at} withDate /> : <span className="empty">Never</span>}</td>
                    <td data-label="Expires">
                      {key.status === 'revoked' ? (
                        <span className="empty">— (revoked)</span>
                      ) : (
                        <Time iso={key.expires_at} withDate />
                      )}
                    </td>
                    <td data-label="Actions">
                      <div className="actions">
                        <Link href={`/console/sites/${site.id}/keys/${key.id}`}>
                          Usage<span className="visually-hidden"> of {key.name}</span>
                        </Link>
                        {key.status !== 'revoked' && <RevokeKeyButton siteId={site.id} keyId={key.id} keyName={key.name} />}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
