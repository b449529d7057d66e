import type { Metadata } from 'next';
import { offsetSchema, PAGE_SIZE, pageHref, peekedPage } from '@/app/(console)/_lib/list-query';
import type { SitePageProps } from '@/app/(console)/_lib/page-props';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Pager } from '@/components/kit/data-table';
import { SectionTable } from '@/components/kit/section-table';
import { Time } from '@/components/time';
import { EVENT_TYPES } from '@/lib/webhooks/events';
import { listDeliveries, listEndpoints } from '@/lib/webhooks/service';
import { AddEndpointForm } from './add-endpoint-form';
import { EditEndpointForm } from './edit-endpoint-form';
import { DeleteEndpointButton, PingButton } from './endpoint-buttons';

export const metadata: Metadata = { title: 'Webhooks · Site Growth Platform' };

export default async function WebhooksPage({ params, searchParams }: SitePageProps<{ offset?: string }>) {
  const { site } = await requireSiteAccess((await params).siteId, 'webhooks.manage');
  const offset = offsetSchema.parse((await searchParams).offset);
  const [endpoints, read] = await Promise.all([listEndpoints(site.id), listDeliveries(site.id, { limit: PAGE_SIZE + 1, offset })]);
  const { rows: deliveries, pager } = peekedPage(read, offset);
  const urlOf = new Map(endpoints.map((e) => [e.id, e.url]));
  // The newest answered delivery of each endpoint (deliveries come newest first): what its health says.
  const lastAnswer = new Map<string, (typeof deliveries)[number]>();
  for (const d of deliveries) if (d.attempts > 0 && !lastAnswer.has(d.endpoint_id)) lastAnswer.set(d.endpoint_id, d);
  return (
    <>
      <SectionTable
        title="Webhook endpoints"
        id="webhooks"
        intro={
          <>
            Events of this site are POSTed to these URLs, signed per Standard Webhooks and retried for about a day when the endpoint does not answer
            2xx.
          </>
        }
        caption={`Webhook endpoints of ${site.name}`}
        rows={endpoints}
        empty="No endpoints yet."
        columns={[
          {
            header: 'URL',
            className: 'mono',
            cell: (e) => (
              <>
                {e.url}
                {e.description && <span className="sub">{e.description}</span>}
              </>
            ),
          },
          { header: 'Events', className: 'mono', cell: (e) => e.events.join(', ') },
          {
            header: 'Status',
            cell: (e) => {
              const last = lastAnswer.get(e.id);
              const health = !e.active ? 'inactive' : e.status === 'failing' ? 'failing' : last ? 'healthy' : 'no deliveries yet';
              return (
                <span data-testid="endpoint-health">
                  <span className={`badge ${health === 'failing' ? 'failed' : health === 'healthy' ? 'active' : 'stopped'}`}>{health}</span>
                  {e.failing_since && (
                    <span className="sub">
                      since <Time iso={e.failing_since} />
                    </span>
                  )}
                  {last && (
                    <span className="sub">
                      last {last.event_type === 'webhook.ping' ? 'ping' : 'delivery'}:{' '}
                      {last.last_status_code !== null ? `answered ${last.last_status_code}` : (last.last_error ?? 'no answer')}
                    </span>
                  )}
                </span>
              );
            },
          },
          { header: 'Created', cell: (e) => <Time iso={e.created_at} /> },
          {
            header: 'Actions',
            hideHeader: true,
            cell: (e) => (
              <>
                <PingButton siteId={site.id} endpointId={e.id} />
                <DeleteEndpointButton siteId={site.id} endpointId={e.id} url={e.url} />
                <EditEndpointForm siteId={site.id} endpoint={e} eventTypes={EVENT_TYPES} />
              </>
            ),
          },
        ]}
      />
      <SectionTable
        title="Recent deliveries"
        id="deliveries"
        caption="Deliveries, newest first"
        rows={deliveries}
        empty="No deliveries yet."
        add={{ title: 'Add an endpoint', id: 'add-endpoint', form: <AddEndpointForm siteId={site.id} eventTypes={EVENT_TYPES} /> }}
        columns={[
          {
            header: 'Event',
            className: 'mono',
            cell: (d) => (
              <>
                {d.event_type}
                <span className="sub">{d.event_id}</span>
              </>
            ),
          },
          { header: 'Endpoint', className: 'mono', cell: (d) => urlOf.get(d.endpoint_id) ?? d.endpoint_id },
          {
            header: 'Status',
            cell: (d) => (
              <>
                {d.status}
                {d.next_attempt_at && d.status === 'pending' && (
                  <span className="sub">
                    next <Time iso={d.next_attempt_at} />
                  </span>
                )}
              </>
            ),
          },
          { header: 'Attempts', cell: (d) => d.attempts },
          { header: 'Last answer', cell: (d) => d.last_status_code ?? d.last_error ?? '—' },
          { header: 'Created', cell: (d) => <Time iso={d.created_at} /> },
        ]}
      >
        <Pager {...pager} href={pageHref(`/console/sites/${site.id}/webhooks`, { anchor: 'deliveries' })} />
      </SectionTable>
    </>
  );
}
