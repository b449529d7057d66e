import type { Metadata } from 'next';
import { Time } from '@/components/time';
import { listSiteSecureTokens, siteAudit } from '@/lib/secure-tokens/service';
import { requireOwnedSite } from '../../../../_lib/session';
import { AddSecretForm } from './add-secret-form';
import { DeleteSecretButton } from './delete-secret-button';

export const metadata: Metadata = { title: 'Secrets · Site Growth Platform' };

const OUTCOME_LABEL: Record<string, string> = {
  ok: 'ok',
  not_found: 'not found',
  rate_limited: 'rate limited',
  integrity_failure: 'failed integrity check',
  key_unavailable: 'master key missing',
};

export default async function SecretsPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site } = await requireOwnedSite((await params).siteId);
  const [{ items: secrets, meta }, { items: audit }] = await Promise.all([
    listSiteSecureTokens(site.id, { limit: 100, offset: 0 }),
    siteAudit(site.id, { limit: 20, offset: 0 }),
  ]);
  return (
    <>
      <section className="card" aria-labelledby="secrets-heading">
        <h2 id="secrets-heading" tabIndex={-1}>
          Secrets
        </h2>
        <p>
          Credentials your integrations need, encrypted at rest. Servers read one with{' '}
          <span className="mono">POST /api/secure-tokens/&#123;id&#125;/decrypt</span> and a write key of this site; every
          read is recorded below.
        </p>
        {secrets.length === 0 ? (
          <p className="empty">No secrets stored for this site.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">Secrets of {site.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Identifier</th>
                  <th scope="col">Type</th>
                  <th scope="col">Id</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Key version</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {secrets.map((s) => (
                  <tr key={s.id} data-secret={s.identifier}>
                    <td data-label="Identifier" className="mono">{s.identifier}</td>
                    <td data-label="Type">{s.type}</td>
                    <td data-label="Id" className="mono">{s.id}</td>
                    <td data-label="Created">
                      <Time iso={s.created_at} />
                    </td>
                    <td data-label="Last used">{s.last_used_at ? <Time iso={s.last_used_at} /> : 'never'}</td>
                    <td data-label="Key version">v{s.key_version}</td>
                    <td data-label="Actions">
                      <DeleteSecretButton siteId={site.id} tokenId={s.id} identifier={s.identifier} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {meta.has_more && <p className="sub">Showing the newest 100 of {meta.total}; GET /api/secure-tokens pages through all.</p>}
      </section>
      <section className="card" aria-labelledby="add-secret-heading">
        <h2 id="add-secret-heading">Store a secret</h2>
        <AddSecretForm siteId={site.id} />
      </section>
      <section className="card" aria-labelledby="secret-audit-heading">
        <h2 id="secret-audit-heading">Recent activity</h2>
        {audit.length === 0 ? (
          <p className="empty">Nothing yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">Latest reads, additions and deletions of secrets</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Action</th>
                  <th scope="col">Secret</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">By</th>
                </tr>
              </thead>
              <tbody>
                {audit.map((a) => (
                  <tr key={a.id}>
                    <td data-label="When">
                      <Time iso={a.created_at} />
                    </td>
                    <td data-label="Action">{a.action}</td>
                    <td data-label="Secret" className="mono">{a.identifier ?? a.token_id}</td>
                    <td data-label="Outcome">{OUTCOME_LABEL[a.outcome] ?? a.outcome}</td>
                    <td data-label="By" className="mono">{a.api_key_id ? `key ${a.api_key_id.slice(0, 8)}…` : 'console'}</td>
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
