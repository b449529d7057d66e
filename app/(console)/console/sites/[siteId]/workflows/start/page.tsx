import type { Metadata } from 'next';
import Link from 'next/link';
import type { SitePageProps } from '@/app/(console)/_lib/page-props';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable } from '@/components/kit/data-table';
import { BackLink } from '@/components/kit/page-back-link';
import { schemaFields } from '@/components/schema-form/fields';
import { catalogEntry, workflowCatalog } from '@/lib/workflows/catalog';
import { StartWorkflowForm } from './start-workflow-form';

export const metadata: Metadata = { title: 'Start a workflow · Site Growth Platform' };

type Entry = (typeof workflowCatalog)[string];

/** The workflow catalog; with `?name=` the form of that workflow's body, generated from its schema. */
export default async function StartWorkflowPage({ params, searchParams }: SitePageProps<{ name?: string }>) {
  const { site } = await requireSiteAccess((await params).siteId, 'crm.write');
  const { name } = await searchParams;
  const base = `/console/sites/${site.id}/workflows`;
  const entry = name ? catalogEntry(name) : undefined;
  if (entry) {
    return (
      <>
        <BackLink href={`${base}/start`} label="The catalog" />
        <Card title={`Start: ${entry.label}`} id="start">
          <p className="hint intro">{entry.purpose}.</p>
          <StartWorkflowForm siteId={site.id} workflow={entry.name} fields={schemaFields(entry.body)} />
        </Card>
      </>
    );
  }
  return (
    <>
      <BackLink href={base} label="Workflow runs" />
      <Card title="Start a workflow" id="catalog">
        <DataTable<Entry>
          caption="The workflow catalog"
          rows={Object.values(workflowCatalog)}
          rowKey={(e) => e.name}
          empty={null}
          columns={[
            {
              header: 'Workflow',
              title: true,
              cell: (e) => (
                <Link href={`${base}/start?name=${e.name}`} title={e.name}>
                  {e.label}
                </Link>
              ),
            },
            { header: 'Group', cell: (e) => e.group },
            { header: 'What it does', cell: (e) => e.purpose },
          ]}
        />
      </Card>
    </>
  );
}
