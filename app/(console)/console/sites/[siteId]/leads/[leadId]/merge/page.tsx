import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import type { SitePageProps } from '@/app/(console)/_lib/page-props';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { EmptyState } from '@/components/kit/empty-state';
import { BackLink } from '@/components/kit/page-back-link';
import { isUuid } from '@/lib/core/schemas';
import type { Lead } from '@/lib/leads/schema';
import { listLeads, siteLead } from '@/lib/leads/service';
import { can } from '@/lib/members/permissions';
import { MergeForm, type MergeRow } from './merge-form';

export const metadata: Metadata = { title: 'Merge leads · Site Growth Platform' };

const FIELDS: [keyof Lead & string, string][] = [
  ['name', 'Name'],
  ['email', 'Email'],
  ['status', 'Status'],
  ['company', 'Company'],
  ['position', 'Position'],
  ['phone', 'Phone'],
  ['origin', 'Origin'],
  ['lead_score', 'Lead score'],
  ['notes', 'Notes'],
];

const shown = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** Two leads of one person: find the other lead, compare them field by field, merge. */
export default async function MergePage({ params, searchParams }: SitePageProps<{ q?: string; other?: string }, { leadId: string }>) {
  const { siteId, leadId } = await params;
  const { q, other } = await searchParams;
  const { site, role } = await requireSiteAccess(siteId);
  const lead = isUuid(leadId) ? await siteLead(site.id, leadId.toLowerCase()) : undefined;
  if (!lead || !can(role, 'crm.write')) notFound();
  const base = `/console/sites/${site.id}`;
  const search = (q ?? '').trim().slice(0, 200);
  const otherLead = other && isUuid(other) && other.toLowerCase() !== lead.id ? await siteLead(site.id, other.toLowerCase()) : undefined;
  const candidates =
    !otherLead && search
      ? (await listLeads(site.id, { site_id: site.id, search, limit: 10, offset: 0, sort_by: 'updated_at', sort_order: 'desc' })).items.filter(
          (l) => l.id !== lead.id,
        )
      : [];
  const rows: MergeRow[] = otherLead
    ? FIELDS.map(([field, label]) => {
        const kept = shown(lead[field]);
        const o = shown(otherLead[field]);
        return { field, label, kept, other: o, proposed: kept === '' && o !== '' ? 'other' : 'kept' };
      })
    : [];
  return (
    <>
      <BackLink href={`${base}/leads/${lead.id}`} label={lead.name} />
      <Card title={`Merge another lead into ${lead.name}`} id="merge">
        {otherLead ? (
          <MergeForm siteId={site.id} leadId={lead.id} otherId={otherLead.id} rows={rows} />
        ) : (
          <>
            <form method="get" className="inline-form" role="search">
              <label htmlFor="merge-q">Find the other lead</label>
              <input id="merge-q" name="q" type="search" defaultValue={search} placeholder="Name, email or company" style={{ width: 'auto' }} />
              <button className="button small" type="submit">
                Search
              </button>
            </form>
            {search &&
              (candidates.length ? (
                <ul className="plain-list">
                  {candidates.map((c) => (
                    <li key={c.id}>
                      <Link href={`${base}/leads/${lead.id}/merge?other=${c.id}`}>
                        {c.name} · {c.email}
                        {c.company && <> · {c.company}</>}
                      </Link>
                    </li>
                  ))}
                </ul>
              ) : (
                <EmptyState title="No other lead matches." />
              ))}
          </>
        )}
      </Card>
    </>
  );
}
