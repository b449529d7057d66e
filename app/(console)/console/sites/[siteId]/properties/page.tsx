import type { Metadata } from 'next';
import Link from 'next/link';
import type { SitePageProps } from '@/app/(console)/_lib/page-props';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { SectionTable } from '@/components/kit/section-table';
import { MAX_PROPERTIES, type LeadProperty } from '@/lib/leads/property-schema';
import { listProperties } from '@/lib/leads/service';
import { can } from '@/lib/members/permissions';
import { AddPropertyForm, DeletePropertyButton, EditPropertyForm } from './property-forms';

export const metadata: Metadata = { title: 'Lead properties · Site Growth Platform' };

const TYPE_LABEL: Record<LeadProperty['type'], string> = { text: 'Text', number: 'Number', date: 'Date', choice: 'Choice' };

/**
 * The site's own lead fields ("plan", "deal size"): defined here, filled on a lead's page, by a CSV
 * import or through the API, exported as columns and filtered on in the leads list. `?edit=<id>`
 * opens one property's form.
 */
export default async function PropertiesPage({ params, searchParams }: SitePageProps<{ edit?: string }>) {
  const { site, role } = await requireSiteAccess((await params).siteId);
  const { edit } = await searchParams;
  const manages = can(role, 'settings.manage');
  const properties = await listProperties(site.id);
  const editing = manages ? properties.find((p) => p.property_id === edit) : undefined;
  const base = `/console/sites/${site.id}/properties`;
  return (
    <>
      <SectionTable
        title="Lead properties"
        id="properties"
        intro={
          <>
            Fields of your own on every lead — a plan, a deal size, a renewal date. Fill them on a lead’s page or with a CSV import (a column per
            key), find them as columns of the CSV export, and filter the <Link href={`/console/sites/${site.id}/leads`}>leads list</Link> by them. A
            site may define up to {MAX_PROPERTIES}.
          </>
        }
        caption={`Lead properties of ${site.name}`}
        rows={properties}
        rowKey={(p) => p.property_id}
        empty={manages ? 'No properties yet: add the first one below.' : 'No properties yet.'}
        columns={[
          { header: 'Label', title: true, cell: (p) => <strong className="wrap">{p.label}</strong> },
          { header: 'Key', cell: (p) => <span className="mono">{p.key}</span> },
          { header: 'Type', cell: (p) => TYPE_LABEL[p.type] },
          {
            header: 'Options',
            cell: (p) => (p.type === 'choice' ? <span className="wrap">{p.options.join(', ')}</span> : <span className="empty">—</span>),
          },
        ]}
        rowActions={(p) =>
          manages && (
            <span className="actions">
              <Link className="button small secondary" href={`${base}?edit=${p.property_id}#edit-property`} aria-label={`Edit ${p.label}`}>
                Edit
              </Link>{' '}
              <DeletePropertyButton siteId={site.id} property={p} />
            </span>
          )
        }
      />
      {editing && (
        <Card title={`Edit “${editing.label}”`} id="edit-property">
          <p className="hint">
            Key <span className="mono">{editing.key}</span> and type {TYPE_LABEL[editing.type].toLowerCase()} are fixed.{' '}
            <Link href={base}>Close</Link>
          </p>
          <EditPropertyForm key={editing.property_id + editing.updated_at} siteId={site.id} property={editing} />
        </Card>
      )}
      {manages && (
        <Card title="Add a property" id="add-property">
          <AddPropertyForm siteId={site.id} />
        </Card>
      )}
    </>
  );
}
