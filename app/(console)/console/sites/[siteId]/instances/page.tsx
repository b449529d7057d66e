import type { Metadata } from 'next';
import Link from 'next/link';
import { offsetSchema, PAGE_SIZE, withQuery } from '@/app/(console)/_lib/list-query';
import type { SitePageProps } from '@/app/(console)/_lib/page-props';
import { robotFormFields } from '@/app/(console)/_lib/robot-form';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable, Pager } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { Time } from '@/components/time';
import { can } from '@/lib/members/permissions';
import { listInstances } from '@/lib/robots/instances';
import { CreateRobotForm } from './create-robot-form';
import { InstanceButtons } from './instance-buttons';

export const metadata: Metadata = { title: 'Instances · Site Growth Platform' };
export const dynamic = 'force-dynamic';

export default async function InstancesPage({ params, searchParams }: SitePageProps<{ offset?: string }>) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const offset = offsetSchema.parse((await searchParams).offset);
  const { items, total } = await listInstances(site.id, { limit: PAGE_SIZE, offset });
  return (
    <>
      <Card title="Instances" id="instances">
        <p className="hint">Browsers your robots drive, newest first.</p>
        <DataTable
          caption={`Instances of ${site.name}`}
          rows={items}
          rowKey={(instance) => instance.id}
          empty={<EmptyState title="No instances yet.">Create a robot below.</EmptyState>}
          columns={[
            {
              header: 'Name',
              cell: (instance) => (
                <>
                  <Link href={`/console/sites/${site.id}/instances/${instance.id}`}>
                    <strong>{instance.name}</strong>
                  </Link>
                  <span className="sub">
                    {instance.instance_type} · created <Time iso={instance.created_at} />
                  </span>
                </>
              ),
            },
            { header: 'Status', cell: (instance) => <span className={`badge ${instance.status}`}>{instance.status}</span> },
            {
              header: 'Page',
              cell: (instance) =>
                instance.current_url ? <span className="sub mono">{instance.current_url}</span> : <span className="empty">None</span>,
            },
            {
              header: 'Stops at',
              cell: (instance) => (instance.expires_at ? <Time iso={instance.expires_at} withDate /> : <span className="empty">—</span>),
            },
            {
              header: 'Actions',
              hideHeader: true,
              cell: (instance) => (
                <InstanceButtons
                  siteId={site.id}
                  instanceId={instance.id}
                  name={instance.name}
                  status={instance.status}
                  focusAfter="instances-heading"
                />
              ),
            },
          ]}
        />
        <Pager
          offset={offset}
          limit={PAGE_SIZE}
          total={total}
          href={(o) => withQuery(`/console/sites/${site.id}/instances`, {}, { offset: o || undefined })}
        />
      </Card>
      {can(role, 'crm.write') && (
        <Card title="Create a robot" id="create-robot">
          <CreateRobotForm siteId={site.id} fields={robotFormFields()} />
        </Card>
      )}
    </>
  );
}
