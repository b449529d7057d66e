import type { Metadata } from 'next';
import { Time } from '@/components/time';
import { CAPABILITIES } from '@/lib/core/principal';
import { CAPABILITY_DESCRIPTIONS } from '@/lib/platform/schema';
import { auditOfSite, listApps, listKeysOfSite } from '@/lib/platform/service';
import { requireOwnedSite } from '../../../../_lib/session';
import { CreateAppForm, CreatePlatformKeyForm, RevokePlatformKeyButton } from './platform-forms';

export const metadata: Metadata = { title: 'Platform apps · Site Growth Platform' };

export default async function PlatformPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site } = await requireOwnedSite((await params).siteId);
  const [apps, keys, audit] = await Promise.all([listApps(site.id), listKeysOfSite(site.id), auditOfSite(site.id, { limit: 50, offset: 0 })]);
  const appName = new Map(apps.map((a) => [a.id, a.name]));
  return (
    <>
      <section className="card" aria-labelledby="platform-apps-heading">
        <h2 id="platform-apps-heading" tabIndex={-1}>
          Platform apps
        </h2>
        <p>
          Generated applications of this site call the platform API with a platform key. Each app has its own database
          schema, <span className="mono">app_&lt;short id&gt;</span>.
        </p>
        {apps.length === 0 ? (
          <p className="empty">No apps yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">Platform apps of {site.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Schema</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {apps.map((a) => (
                  <tr key={a.id}>
                    <td data-label="Name">{a.name}</td>
                    <td data-label="Schema" className="mono">{a.schema}</td>
                    <td data-label="Created">
                      <Time iso={a.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <CreateAppForm siteId={site.id} />
      </section>

      <section className="card" aria-labelledby="platform-keys-heading">
        <h2 id="platform-keys-heading" tabIndex={-1}>
          Platform keys
        </h2>
        {keys.length === 0 ? (
          <p className="empty">No platform keys yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">Platform keys of {site.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">App</th>
                  <th scope="col">Key</th>
                  <th scope="col">Capabilities</th>
                  <th scope="col">Status</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <tr key={k.id} data-platform-key={k.id}>
                    <td data-label="Name">{k.name}</td>
                    <td data-label="App">{appName.get(k.app_id)}</td>
                    <td data-label="Key" className="mono">{k.display}</td>
                    <td data-label="Capabilities" className="mono">{k.capabilities.join(', ')}</td>
                    <td data-label="Status">{k.status}</td>
                    <td data-label="Expires">
                      <Time iso={k.expires_at} />
                    </td>
                    <td data-label="Actions">{k.status === 'active' && <RevokePlatformKeyButton siteId={site.id} keyId={k.id} name={k.name} />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {apps.length > 0 ? (
          <CreatePlatformKeyForm
            siteId={site.id}
            apps={apps.map((a) => ({ id: a.id, name: a.name }))}
            capabilities={CAPABILITIES.map((c) => ({ name: c, description: CAPABILITY_DESCRIPTIONS[c] }))}
          />
        ) : (
          <p className="hint">Create an app first: every key is bound to one app.</p>
        )}
        <details>
          <summary>What each capability allows</summary>
          <dl>
            {CAPABILITIES.map((c) => (
              <div key={c}>
                <dt className="mono">{c}</dt>
                <dd>{CAPABILITY_DESCRIPTIONS[c]}</dd>
              </div>
            ))}
          </dl>
        </details>
      </section>

      <section className="card" aria-labelledby="platform-audit-heading">
        <h2 id="platform-audit-heading">Audit log</h2>
        <p>Every call made with a platform key of this site, refused ones included (latest 50 of {audit.meta.total}).</p>
        {audit.items.length === 0 ? (
          <p className="empty">No platform calls yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">Platform API calls of {site.name}</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">App</th>
                  <th scope="col">Call</th>
                  <th scope="col">Capability</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {audit.items.map((e) => (
                  <tr key={e.id}>
                    <td data-label="When">
                      <Time iso={e.created_at} />
                    </td>
                    <td data-label="App">{appName.get(e.app_id)}</td>
                    <td data-label="Call" className="mono">
                      {e.method} {e.route}
                    </td>
                    <td data-label="Capability" className="mono">{e.capability}</td>
                    <td data-label="Status">
                      {e.status}
                      {e.error_code && <span className="sub"> {e.error_code}</span>}
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
