import type { Metadata } from 'next';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { BackLink } from '@/components/kit/page-back-link';
import { IMPORT_LEAD_FIELDS, IMPORT_MAX_ROWS } from '@/lib/leads/import-schema';
import { listProperties } from '@/lib/leads/service';
import { can } from '@/lib/members/permissions';
import { ImportForm } from './import-form';

export const metadata: Metadata = { title: 'Import leads · Site Growth Platform' };

/** Import leads from a CSV file: its first rows shown, the mapping proposed from its headers, the result by row. */
export default async function ImportLeadsPage({ params }: { params: Promise<{ siteId: string }> }) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const properties = await listProperties(site.id);
  return (
    <>
      <BackLink href={`/console/sites/${site.id}/leads`} label="All leads" />
      <Card title="Import leads from CSV" id="import">
        <p className="sub">
          A header row first, then up to {IMPORT_MAX_ROWS.toLocaleString('en-US')} rows; comma, semicolon or tab separated, UTF-8. Leads are matched
          by email: an existing lead is updated with the columns you map, never duplicated.
        </p>
        {can(role, 'crm.write') ? (
          <ImportForm siteId={site.id} fields={[...IMPORT_LEAD_FIELDS]} properties={properties.map((p) => ({ key: p.key, label: p.label }))} />
        ) : (
          <p role="alert">Your role on this site ({role}) can read leads but not import them.</p>
        )}
      </Card>
    </>
  );
}
