import type { Metadata } from 'next';
import { Time } from '@/components/time';
import { EVENT_TYPES } from '@/lib/webhooks/events';
import { listDeliveries, listEndpoints } from '@/lib/webhooks/service';
import { requireOwnedSite } from '../../../../_lib/session';
import { AddEndpointForm } from './add-endpoint-form';
import { DeleteEndpointButton, PingButton } from './endpoint-buttons';

export const metadata: Metadata = { title: 'Webhooks · Site Growth Platform' };

export default async function WebhooksPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site } = await requireOwnedSite((await params).siteId);
  const [endpoints, deliveries] = await Promise.all([listEndpoints(site.id), listDeliveries(site.id, { limit: 20 })]);
  const urlOf = new Map(endpoints.map((e) => [e.id, e.url]));
  return (
    <>
      <section className="card" aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading" tabIndex={-1}>
          Webhook endpoints
        </h2>
        <p>
          Events of this site are POSTed to these URLs, signed per Standard Webhooks and retried for about a day when the endpoint
          does not answer 2xx.
        </p>
        {endpoints.length === 0 ? (
          <p className="empty">No endpoints yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">Webhook endpoints of {site.name}</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {endpoints.map((e) => (
                  <tr key={e.id} data-endpoint={e.url}>
                    <td data-label="URL" className="mono">
                      {e.url}
                      {e.description && <span className="sub">{e.description}</span>}
                    </td>
                    <td data-label="Events" className="mono">{e.events.join(', ')}</td>
                    <td data-label="Status">
                      {!e.active ? 'inactive' : e.status === 'failing' ? 'failing' : 'healthy'}
                      {e.failing_since && (
                        <span className="sub">
                          since <Time iso={e.failing_since} />
                        </span>
                      )}
                    </td>
                    <td data-label="Created">
                      <Time iso={e.created_at} />
                    </td>
                    <td data-label="Actions">
                      <PingButton siteId={site.id} endpointId={e.id} />
                      <DeleteEndpointButton siteId={site.id} endpointId={e.id} url={e.url} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Recent deliveries</h2>
        {deliveries.length === 0 ? (
          <p className="empty">No deliveries yet.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <caption className="visually-hidden">The 20 most recent deliveries</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Endpoint</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last answer</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((d) => (
                  <tr key={d.id} data-delivery={d.id}>
                    <td data-label="Event" className="mono">
                      {d.event_type}
                      <span className="sub">{d.event_id}</span>
                    </td>
                    <td data-label="Endpoint" className="mono">{urlOf.get(d.endpoint_id) ?? d.endpoint_id}</td>
                    <td data-label="Status">
                      {d.status}
                      {d.next_attempt_at && d.status === 'pending' && (
                        <span className="sub">
                          next <Time iso={d.next_attempt_at} />
                        </span>
                      )}
                    </td>
                    <td data-label="Attempts">{d.attempts}</td>
                    <td data-label="Last answer">{d.last_status_code ?? d.last_error ?? '—'}</td>
                    <td data-label="Created">
                      <Time iso={d.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="add-endpoint-heading">
        <h2 id="add-endpoint-heading">Add an endpoint</h2>
        <AddEndpointForm siteId={site.id} eventTypes={EVENT_TYPES} />
      </section>
    </>
  );
}
