import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { Fact } from '@/components/kit/section-facts';
import { Time } from '@/components/time';
import { isUuid } from '@/lib/core/schemas';
import { can } from '@/lib/members/permissions';
import { findSiteInstance, instanceLogs, instancePlans, screenshotOf } from '@/lib/robots/instances';
import { InstanceButtons } from '../instance-buttons';

export const metadata: Metadata = { title: 'Instance · Site Growth Platform' };
export const dynamic = 'force-dynamic';

export default async function InstancePage({ params }: { params: Promise<{ siteId: string; instanceId: string }> }) {
  const { siteId, instanceId } = await params;
  const { site, role } = await requireSiteAccess(siteId);
  const instance = isUuid(instanceId) ? await findSiteInstance(site.id, instanceId) : undefined;
  if (!instance) notFound();
  const [logs, plans, screenshot] = await Promise.all([
    instanceLogs(site.id, instance.id, { limit: 50, offset: 0 }),
    instancePlans(site.id, instance.id, { limit: 20, offset: 0 }),
    instance.screenshot_url ? screenshotOf(site.id, instance.id).catch(() => undefined) : undefined,
  ]);
  return (
    <>
      <p>
        <Link href={`/console/sites/${site.id}/instances`}>All instances</Link>
      </p>
      <Card title={instance.name} id="instance">
        <dl className="stats">
          <Fact label="Status">
            <span className={`badge ${instance.status}`} data-testid="instance-status">
              {instance.status}
            </span>
          </Fact>
          <Fact label="Activity">{instance.activity ?? <span className="empty">None</span>}</Fact>
          <Fact label="Page" className="mono">
            {instance.current_url ?? <span className="empty">None</span>}
          </Fact>
          <Fact label="Stops at">{instance.expires_at ? <Time iso={instance.expires_at} withDate /> : <span className="empty">—</span>}</Fact>
        </dl>
        {can(role, 'crm.write') && (
          <InstanceButtons siteId={site.id} instanceId={instance.id} name={instance.name} status={instance.status} focusAfter="instance-heading" />
        )}
      </Card>
      <Card title="Latest screenshot" id="screenshot">
        {screenshot ? (
          // eslint-disable-next-line @next/next/no-img-element -- a data URL of the stored PNG
          <img
            className="screenshot"
            src={`data:image/png;base64,${Buffer.from(screenshot).toString('base64')}`}
            alt={`The page of ${instance.name} at its latest action`}
          />
        ) : (
          <EmptyState title="No screenshot yet." />
        )}
      </Card>
      <Card title="Plans" id="plans">
        {plans.items.length === 0 ? (
          <EmptyState title="No plans yet." />
        ) : (
          plans.items.map((plan) => (
            <article key={plan.id} className="plan" data-plan-id={plan.id}>
              <h3>
                {plan.title} <span className={`badge ${plan.status}`}>{plan.status}</span>
              </h3>
              {plan.steps.length > 0 && (
                <ol>
                  {plan.steps.map((step) => (
                    <li key={step.index}>
                      {step.description} <span className={`badge ${step.status}`}>{step.status}</span>
                      {step.output && <span className="sub mono">{step.output.slice(0, 200)}</span>}
                      {step.error && <span className="sub">{step.error}</span>}
                    </li>
                  ))}
                </ol>
              )}
            </article>
          ))
        )}
      </Card>
      <Card title="Logs" id="logs">
        <DataTable
          caption={`Latest log entries of ${instance.name}`}
          rows={logs.items}
          rowKey={(entry) => String(entry.id)}
          empty={<EmptyState title="No log entries yet." />}
          columns={[
            { header: 'Time', cell: (entry) => <Time iso={entry.created_at} withDate /> },
            {
              header: 'Type',
              cell: (entry) => (
                <>
                  {entry.log_type}
                  <span className={`badge ${entry.level}`}>{entry.level}</span>
                </>
              ),
            },
            { header: 'Message', cell: (entry) => entry.message },
          ]}
        />
      </Card>
    </>
  );
}
