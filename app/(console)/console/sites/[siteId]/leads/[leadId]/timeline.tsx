import Link from 'next/link';
import { duration, pathOf } from '@/app/(console)/_lib/format';
import { EmptyState } from '@/components/kit/empty-state';
import { Time } from '@/components/time';
import type { TimelineItem } from '@/lib/people/schema';
import { DeleteNoteButton } from './person-forms';

const show = (v: unknown): string => (v === null || v === undefined || v === '' ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
const label = (field: string) => field.replace(/_/g, ' ');

const TYPE_LABEL: Record<TimelineItem['type'], string> = {
  session: 'Visit',
  event: 'Event',
  email: 'Email',
  note: 'Note',
  status_change: 'Status',
  field_change: 'Change',
  conversation: 'Agent',
  sequence: 'Sequence',
};

/** An entry in words: a headline and, below it, what else there is to know. */
function describe(i: TimelineItem): { title: string; detail?: string } {
  switch (i.type) {
    case 'session': {
      const pages = (i.pages ?? []).map((p) => pathOf(p.url));
      return {
        title: `Visited ${pathOf(i.url ?? null)}${i.utm_source || i.referrer ? ` from ${i.utm_source ?? i.referrer}` : ''}`,
        detail: `${pages.length} page${pages.length === 1 ? '' : 's'} · ${duration(i.duration_ms ?? null)}${pages.length ? ` · ${pages.join(' → ')}` : ''}`,
      };
    }
    case 'event':
      if (i.event_type === 'conversion') return { title: `Converted${i.event_name ? `: ${i.event_name}` : ''}`, detail: pathOf(i.url ?? null) };
      if (i.event_type === 'form_submit') return { title: 'Submitted a form', detail: pathOf(i.url ?? null) };
      return { title: `${i.event_name ?? i.event_type}`, detail: pathOf(i.url ?? null) };
    case 'email':
      return {
        title: `${i.direction === 'inbound' ? 'Email received' : 'Email sent'}: ${i.subject ?? ''}`,
        detail: i.direction === 'inbound' ? `from ${i.from}` : `to ${(i.to ?? []).join(', ')} · ${i.status}`,
      };
    case 'note':
      return { title: i.body ?? '', detail: `by ${i.author?.name ?? (i.author?.type === 'key' ? 'an API key' : 'a former member')}` };
    case 'status_change':
      return { title: `Status ${show(i.from_value)} → ${show(i.to_value)}` };
    case 'field_change':
      if (i.field === 'merged') {
        const from = (i.from_value ?? {}) as { name?: string; email?: string };
        return { title: `Merged with ${from.name ?? 'another lead'}`, detail: from.email };
      }
      return { title: `${label(i.field ?? '')} changed`, detail: `${show(i.from_value)} → ${show(i.to_value)}` };
    case 'conversation':
      return { title: `Conversation with the ${i.agent} agent: ${i.title}`, detail: `${i.messages ?? 0} messages` };
    case 'sequence': {
      const what = {
        started: 'enrolled',
        stopped: `stopped${i.stop_reason ? ` (${i.stop_reason})` : ''}`,
        completed: 'completed',
        step_sent: `step ${i.step} sent`,
      };
      return { title: `${i.sequence_name}: ${what[i.action ?? 'started']}` };
    }
  }
}

/** The lead's timeline, newest first, with a link to older entries. */
export function Timeline({
  items,
  next,
  base,
  siteId,
  leadId,
  canWrite,
  paged,
}: {
  items: TimelineItem[];
  next: string | null;
  base: string;
  siteId: string;
  leadId: string;
  canWrite: boolean;
  paged: boolean;
}) {
  if (items.length === 0) return <EmptyState title="Nothing has happened with this lead yet." />;
  return (
    <>
      <ol className="lead-timeline">
        {items.map((i) => {
          const { title, detail } = describe(i);
          return (
            <li key={`${i.type}:${i.id}:${i.action ?? ''}`} className={`lt-item ${i.type}`}>
              <span className={`badge lt-type ${i.type}`}>{TYPE_LABEL[i.type]}</span>
              <div className="lt-body">
                <p className={i.type === 'note' ? 'lt-title note-body' : 'lt-title'}>
                  {i.type === 'session' ? <Link href={`${base}/sessions/${i.id}`}>{title}</Link> : title}
                </p>
                {detail && <p className="sub wrap">{detail}</p>}
              </div>
              <span className="lt-at">
                <Time iso={i.at} withDate />
                {i.type === 'note' && canWrite && <DeleteNoteButton siteId={siteId} leadId={leadId} noteId={i.id} />}
              </span>
            </li>
          );
        })}
      </ol>
      <p className="pager">
        {paged && <Link href={`${base}/leads/${leadId}#timeline-heading`}>Newest</Link>}
        {next && <Link href={`${base}/leads/${leadId}?before=${next}#timeline-heading`}>Older entries →</Link>}
      </p>
    </>
  );
}
