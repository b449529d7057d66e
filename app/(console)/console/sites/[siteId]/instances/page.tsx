import type { Metadata } from 'next';
import Link from 'next/link';
import { Time } from '@/components/time';
import { listInstances } from '@/lib/instances/repo';
import { Card } from '@/components/kit/card';
import { robotFormFields } from '../../../../_lib/robot-form';
import { requireOwnedSite } from '../../../../_lib/session';
import { CreateRobotForm } from './create-robot-form';
import { InstanceButtons } from './instance-buttons';

export const metadata: Metadata = { title: 'Instances · Site Growth Platform' };
export const dynamic = 'force-dynamic';

export default async function InstancesPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site } = await requireOwnedSite((await params).siteId);
  const { items, total } = await listInstances(site.id, { limit: 100, offset: 0 });
  return (
    <>
      <section className="card" aria-labelledby="instances-heading">
        <h2 id="instances-heading" tabIndex={-1}>
          Instances
        </h2>
        <p className="hint">
          Browsers your robots drive. {total > items.length ? `The newest ${items.length} of ${total}.` : null}
        </p>
        {items.length === 0 ? (
          <p className="empty">No instances yet. Create a robot below.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">Instances of {site.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Page</th>
                  <th scope="col">Stops at</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((instance) => (
                  <tr key={instance.id} data-instance-id={instance.id}>
                    <td data-label="Name">
                      <Link href={`/console/sites/${site.id}/instances/${instance.id}`}>
                        <strong>{instance.name}</strong>
                      </Link>
                      <span className="sub">
                        {instance.instance_type} · created <Time iso={instance.created_at} />
                      </span>
                    </td>
                    <td data-label="Status">
                      <span className={`badge ${instance.status}`}>{instance.status}</span>
                    </td>
                    <td data-label="Page">{instance.current_url ? <span className="sub mono">{instance.current_url}</span> : <span className="empty">None</span>}</td>
                    <td data-label="Stops at">{instance.expires_at ? <Time iso={instance.expires_at} withDate /> : <span className="empty">—</span>}</td>
                    <td data-label="Actions">
                      <InstanceButtons siteId={site.id} instanceId={instance.id} name={instance.name} status={instance.status} focusAfter="instances-heading" />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Card title="Create a robot" id="create-robot" actions={<span className="as-code">as code: <code>POST /api/robots/instance</code></span>}>
        <CreateRobotForm siteId={site.id} fields={robotFormFields()} />
      </Card>
    </>
  );
}
