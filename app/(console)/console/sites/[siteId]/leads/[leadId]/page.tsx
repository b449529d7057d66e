import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { count, duration, pathOf } from '@/app/(console)/_lib/format';
import type { SitePageProps } from '@/app/(console)/_lib/page-props';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { BackLink } from '@/components/kit/page-back-link';
import { Notice } from '@/components/kit/page-notice';
import { Time } from '@/components/time';
import { BotBadge } from '@/components/visitor-name';
import { isUuid } from '@/lib/core/schemas';
import { listProperties, siteLead } from '@/lib/leads/service';
import { can } from '@/lib/members/permissions';
import { timelineOf } from '@/lib/people/service';
import { listSegments } from '@/lib/segments/service';
import { leadEnrollments, type LeadEnrollment } from '@/lib/sequences/history';
import type { SessionSummary } from '@/lib/visitors/schema';
import { sessionsOfLead } from '@/lib/visitors/service';
import { LeadEditForm, LeadStatusForm } from './lead-forms';
import { EraseLeadForm, NoteForm } from './person-forms';
import { Timeline } from './timeline';

export const metadata: Metadata = { title: 'Lead · Site Growth Platform' };

const VISITS = 50;
const TIMELINE_PAGE = 30;
const CURSOR = /^[A-Za-z0-9_-]{1,200}$/;
const iso = (ms: number) => new Date(ms).toISOString();

/** One lead: who they are, their visits, their status in the pipeline, and their details to edit. */
export default async function LeadPage({ params, searchParams }: SitePageProps<{ before?: string; merged?: string }, { leadId: string }>) {
  const { siteId, leadId } = await params;
  const { before, merged } = await searchParams;
  const { site, role } = await requireSiteAccess(siteId);
  const lead = isUuid(leadId) ? await siteLead(site.id, leadId.toLowerCase()) : undefined;
  if (!lead) notFound();
  const cursor = before && CURSOR.test(before) ? before : undefined;
  const [visits, segments, enrollments, timeline, properties] = await Promise.all([
    sessionsOfLead(site.id, lead.id, { limit: VISITS, offset: 0 }),
    listSegments(site.id, { site_id: site.id, limit: 500, offset: 0 }),
    leadEnrollments(site.id, lead.id),
    timelineOf(site.id, lead.id, { limit: TIMELINE_PAGE, cursor }).catch(() => timelineOf(site.id, lead.id, { limit: TIMELINE_PAGE })),
    listProperties(site.id),
  ]);
  const canWrite = can(role, 'crm.write');
  const base = `/console/sites/${site.id}`;
  return (
    <>
      <BackLink href={`${base}/leads`} label="All leads" />
      <Card title={lead.name} badge={lead.status} id="lead">
        <p className="wrap">
          {lead.email}
          {lead.company && <> · {lead.company}</>}
          {lead.position && <> · {lead.position}</>}
          <span className="sub">
            Lead since <Time iso={lead.created_at} withDate />
          </span>
          <span className="sub">
            <Link href={`${base}/email?lead=${lead.id}`}>Email with this lead</Link>
            {' · '}
            <a href={`/api/leads/${lead.id}/export?site_id=${site.id}`} download={`person-${lead.id}.json`}>
              Export data
            </a>
            {canWrite && (
              <>
                {' · '}
                <Link href={`${base}/leads/${lead.id}/merge`}>Merge with another lead</Link>
              </>
            )}
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
        {merged && <Notice>The other lead was merged into this one.</Notice>}
        {canWrite && <LeadStatusForm siteId={site.id} leadId={lead.id} status={lead.status} />}
      </Card>
      <Card
        title={
          <span id="timeline-heading" tabIndex={-1}>
            Timeline
          </span>
        }
        id="timeline"
      >
        {canWrite && <NoteForm siteId={site.id} leadId={lead.id} />}
        <Timeline
          items={timeline.items}
          next={timeline.next_cursor}
          base={base}
          siteId={site.id}
          leadId={lead.id}
          canWrite={canWrite}
          paged={Boolean(cursor)}
        />
      </Card>
      <Card title="Sequences" id="sequences">
        <DataTable<LeadEnrollment>
          caption={`Sequences ${lead.name} is enrolled in`}
          rows={enrollments}
          rowKey={(e) => e.id}
          empty={
            <EmptyState title="Not enrolled in any sequence.">
              Enroll the lead from the <Link href={`${base}/leads`}>Leads</Link> list or a sequence’s page.
            </EmptyState>
          }
          columns={[
            {
              header: 'Sequence',
              title: true,
              cell: (e) => (
                <Link href={`${base}/sequences/${e.sequence_id}`} className="wrap">
                  <strong>{e.sequence_name}</strong>
                </Link>
              ),
            },
            {
              header: 'Status',
              cell: (e) => (
                <>
                  <span className={`badge ${e.status}`}>{e.status}</span>
                  {e.stop_reason && <span className="sub">{e.stop_reason}</span>}
                </>
              ),
            },
            { header: 'Step', cell: (e) => (e.next_step >= e.steps ? 'all sent' : `next: ${e.next_step + 1} of ${e.steps}`) },
            { header: 'Next send', cell: (e) => (e.next_send_at ? <Time iso={e.next_send_at} withDate /> : <span className="empty">—</span>) },
            { header: 'Enrolled', cell: (e) => <Time iso={e.created_at} /> },
          ]}
        />
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
      {can(role, 'people.erase') && (
        <Card title="Erase this person" id="erase">
          <p>
            Deletes the lead with everything stored about the person: visits and events, emails, notes, agent conversations, sequence enrollments and
            uploaded files. The address stays on the suppression list as a hash, so they are never mailed again. Export their data first if they asked
            for it. This cannot be undone.
          </p>
          <EraseLeadForm siteId={site.id} leadId={lead.id} email={lead.email} />
        </Card>
      )}
    </>
  );
}
