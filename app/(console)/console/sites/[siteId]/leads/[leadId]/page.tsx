import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { count, duration, pathOf } from '@/app/(console)/_lib/format';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { Time } from '@/components/time';
import { BotBadge } from '@/components/visitor-name';
import { isUuid } from '@/lib/core/schemas';
import { listProperties } from '@/lib/leads/properties-repo';
import { siteLead } from '@/lib/leads/service';
import { can } from '@/lib/members/permissions';
import { listSegments } from '@/lib/segments/service';
import type { SessionSummary } from '@/lib/visitors/schema';
import { sessionsOfLead } from '@/lib/visitors/service';
import { LeadEditForm, LeadStatusForm } from './lead-forms';

export const metadata: Metadata = { title: 'Lead · Site Growth Platform' };

const VISITS = 50;
const iso = (ms: number) => new Date(ms).toISOString();

/** One lead: who they are, their visits, their status in the pipeline, and their details to edit. */
export default async function LeadPage({ params }: { params: Promise<{ siteId: string; leadId: string }> }) {
  const { siteId, leadId } = await params;
  const { site, role } = await requireSiteAccess(siteId);
  const lead = isUuid(leadId) ? await siteLead(site.id, leadId.toLowerCase()) : undefined;
  if (!lead) notFound();
  const [visits, segments, properties] = await Promise.all([
    sessionsOfLead(site.id, lead.id, { limit: VISITS, offset: 0 }),
    listSegments(site.id, { site_id: site.id, limit: 500, offset: 0 }),
    listProperties(site.id),
  ]);
  const base = `/console/sites/${site.id}`;
  return (
    <>
      <p>
        <Link href={`${base}/leads`}>← All leads</Link>
      </p>
      <Card
        title={
          <>
            {lead.name} <span className={`badge ${lead.status}`}>{lead.status}</span>
          </>
        }
        id="lead"
      >
        <p className="wrap">
          {lead.email}
          {lead.company && <> · {lead.company}</>}
          {lead.position && <> · {lead.position}</>}
          <span className="sub">
            Lead since <Time iso={lead.created_at} withDate />
          </span>
          <span className="sub">
            <Link href={`${base}/email?lead=${lead.id}`}>Email with this lead</Link>
          </span>
        </p>
        {properties.some((p) => lead.custom_properties[p.key] !== undefined) && (
          <dl className="properties" aria-label="Custom properties">
            {properties
              .filter((p) => lead.custom_properties[p.key] !== undefined)
              .map((p) => (
                <div key={p.key}>
                  <dt>{p.label}</dt>
                  <dd className="wrap">{String(lead.custom_properties[p.key])}</dd>
                </div>
              ))}
          </dl>
        )}
        {can(role, 'crm.write') && <LeadStatusForm siteId={site.id} leadId={lead.id} status={lead.status} />}
      </Card>
      <Card title={`Visits (${visits.total})`} id="visits">
        <DataTable<SessionSummary>
          caption={`Visits of ${lead.name}`}
          rows={visits.items}
          rowKey={(s) => s.session_id}
          empty={<EmptyState title="No tracked visit is linked to this lead." />}
          columns={[
            {
              header: 'Started',
              title: true,
              cell: (s) => (
                <>
                  <Link href={`${base}/sessions/${s.session_id}`}>
                    <Time iso={iso(s.started_at)} />
                  </Link>
                  {s.is_bot && <BotBadge />}
                </>
              ),
            },
            { header: 'Landing page', cell: (s) => <span className="wrap">{pathOf(s.url)}</span> },
            { header: 'Source', cell: (s) => s.utm_source ?? s.referrer ?? <span className="empty">Direct</span> },
            { header: 'Pages', cell: (s) => count(s.page_views) },
            { header: 'Duration', cell: (s) => duration(s.duration ?? s.last_activity_at - s.started_at) },
            { header: 'Conversions', cell: (s) => count(s.conversions) },
          ]}
        />
      </Card>
      {can(role, 'crm.write') && (
        <Card title="Details" id="details">
          <LeadEditForm
            siteId={site.id}
            leadId={lead.id}
            segments={segments.items.map((s) => ({ id: s.segment_id, name: s.name }))}
            properties={properties.map((p) => ({ key: p.key, label: p.label, type: p.type, options: p.options }))}
            custom={Object.fromEntries(properties.map((p) => [p.key, String(lead.custom_properties[p.key] ?? '')]))}
            lead={{
              name: lead.name,
              email: lead.email,
              phone: lead.phone ?? '',
              company: lead.company ?? '',
              position: lead.position ?? '',
              notes: lead.notes ?? '',
              segment_id: lead.segment_id ?? '',
            }}
          />
        </Card>
      )}
    </>
  );
}
