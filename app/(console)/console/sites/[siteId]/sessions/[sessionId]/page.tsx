import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { count, duration, pathOf } from '@/app/(console)/_lib/format';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { CopyButton } from '@/components/copy-button';
import { Card } from '@/components/kit/card';
import { EmptyState } from '@/components/kit/empty-state';
import { BackLink } from '@/components/kit/page-back-link';
import { Clock, Time } from '@/components/time';
import { BotBadge, VisitorName } from '@/components/visitor-name';
import { ApiError } from '@/lib/core/errors';
import { isUuid } from '@/lib/core/schemas';
import { leadNames } from '@/lib/leads/service';
import { can } from '@/lib/members/permissions';
import type { SessionEvent } from '@/lib/visitors/schema';
import { sessionDetail } from '@/lib/visitors/service';
import { EraseVisitorForm } from './erase-visitor-form';

export const metadata: Metadata = { title: 'Session · Site Growth Platform' };

const iso = (ms: number) => new Date(ms).toISOString();

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * An event in words. The tag's own events read as what the visitor did; their properties are then
 * said in the sentence (`shown: true`), the others' are printed as they came.
 */
function describeEvent(e: SessionEvent): { title: string; shown: boolean } {
  const p = e.properties ?? {};
  switch (e.event_type) {
    case 'pageview':
      return { title: `Viewed ${pathOf(e.url)}`, shown: false };
    case 'engagement': {
      const engaged = typeof p.engaged_ms === 'number' ? duration(p.engaged_ms) : '—';
      return { title: `Left ${pathOf(e.url)} after ${engaged} engaged, ${p.scroll_depth ?? '—'}% scrolled`, shown: true };
    }
    case 'outbound':
      return { title: `Followed a link out to ${text(p.href) ?? '—'}`, shown: true };
    case 'download':
      return { title: `Downloaded ${text(p.href) ?? '—'}`, shown: true };
    case 'form_submit': {
      const form = text(p.id) ? `#${text(p.id)}` : text(p.name) ? `“${text(p.name)}”` : '';
      return { title: ['Submitted a form', form, text(p.action) && `to ${text(p.action)}`].filter(Boolean).join(' '), shown: true };
    }
    default:
      return { title: `${e.event_type}${e.event_name ? `: ${e.event_name}` : ''}`, shown: false };
  }
}

/** One visit: where it came from, and its events in order — the same sessionDetail() as GET /api/visitors/session. */
export default async function SessionPage({ params }: { params: Promise<{ siteId: string; sessionId: string }> }) {
  const { siteId, sessionId } = await params;
  const { site, role } = await requireSiteAccess(siteId);
  if (!isUuid(sessionId)) notFound();
  const session = await sessionDetail(site.id, sessionId.toLowerCase()).catch((error) => {
    if (error instanceof ApiError) notFound();
    throw error;
  });
  const names = await leadNames(site.id, [session.lead_id]);
  const facts: [string, React.ReactNode][] = [
    [
      'Visitor',
      <>
        <VisitorName siteId={site.id} visit={session} leadName={session.lead_id ? names.get(session.lead_id) : undefined} />
        <span className="sub">
          <code className="mono">{session.visitor_id}</code> <CopyButton text={session.visitor_id} label="Copy id" small />
        </span>
      </>,
    ],
    ['Referrer', session.referrer ?? 'Direct / none'],
    ['UTM source', session.utm_source ?? '—'],
    ['UTM medium', session.utm_medium ?? '—'],
    ['UTM campaign', session.utm_campaign ?? '—'],
    ['Pages', count(session.page_views)],
    ['Duration', duration(session.duration ?? session.last_activity_at - session.started_at)],
    ['Conversions', count(session.conversions)],
    ['Status', `${session.status}${session.exit_type ? ` (${session.exit_type})` : ''}`],
    ['Device', [session.device?.type, session.browser?.name].filter(Boolean).join(' · ') || '—'],
  ];
  const base = `/console/sites/${site.id}`;
  return (
    <>
      <BackLink href={`${base}/sessions`} label="All sessions" />
      <Card
        title={
          session.is_bot ? (
            <>
              Visit <BotBadge />
            </>
          ) : (
            'Visit'
          )
        }
        id="session"
        actions={
          session.lead_id ? (
            <Link href={`${base}/leads/${session.lead_id}`}>Open the lead</Link>
          ) : (
            <Link href={`${base}/sessions?visitor=${session.visitor_id}${session.is_bot ? '&bots=show' : ''}`}>All visits of this visitor</Link>
          )
        }
      >
        <p className="wrap">
          Landed on <strong>{session.url ?? '—'}</strong>
          <span className="sub">
            <Time iso={iso(session.started_at)} withDate />
          </span>
        </p>
        <dl className="stats" data-testid="session-facts">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd className="wrap" style={{ fontSize: '1rem' }}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
      </Card>
      <Card title="Timeline" id="timeline">
        {session.events.length === 0 ? (
          <EmptyState title="No events stored for this visit." />
        ) : (
          <ol className="timeline" data-testid="session-timeline">
            {session.events.map((e) => {
              const { title, shown } = describeEvent(e);
              return (
                <li key={e.event_id} className={e.event_type}>
                  <strong>{title}</strong>{' '}
                  <span className="sub">
                    <Clock ms={e.timestamp} />
                    {e.event_type !== 'pageview' && e.event_type !== 'engagement' && e.url ? ` · on ${pathOf(e.url)}` : ''}
                  </span>
                  {!shown && e.properties && Object.keys(e.properties).length > 0 && <code className="sub wrap">{JSON.stringify(e.properties)}</code>}
                </li>
              );
            })}
          </ol>
        )}
      </Card>
      <Card title="This person’s data" id="person-data">
        {session.lead_id ? (
          <p>
            This visit belongs to a lead: their data is exported and erased with the lead.{' '}
            <a href={`/api/leads/${session.lead_id}/export?site_id=${site.id}`} download={`person-${session.lead_id}.json`}>
              Export data
            </a>
            {can(role, 'people.erase') && (
              <>
                {' · '}
                <Link href={`${base}/leads/${session.lead_id}#erase-heading`}>Erase this person</Link>
              </>
            )}
          </p>
        ) : (
          <>
            <p>
              An anonymous visitor. Erasing deletes the visitor with all their visits, events and uploaded files, for instance when they ask for it;
              recorded in the site’s audit log without their data. This cannot be undone.
            </p>
            {can(role, 'people.erase') && <EraseVisitorForm siteId={site.id} visitorId={session.visitor_id} />}
          </>
        )}
      </Card>
    </>
  );
}
