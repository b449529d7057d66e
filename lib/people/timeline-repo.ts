import { sql, type SQL } from 'drizzle-orm';
import { fromMs, iso } from '@/lib/db/expressions';
import { rows } from '@/lib/db/raw';
import type { TimelineItem, TimelineType } from './schema';

/**
 * A lead's timeline: one statement over every source (sessions with their pages, events, emails,
 * notes, field changes, conversations, sequence enrollments), newest first, paged by a keyset of
 * (time in microseconds, type, id) so a page never repeats or skips an item when new ones arrive.
 */

/** Events shown on their own (page views belong to their session). */
const SHOWN_EVENTS = ['conversion', 'form_submit', 'custom', 'download', 'outbound'];
const PAGES_PER_SESSION = 100;

export interface TimelineCursor {
  atUs: string;
  type: string;
  id: string;
}

/** The person's visitors: the ones linked to the lead. */
const personVisitors = (siteId: string, leadId: string) =>
  sql`select v.id from visitors v where v.site_id = ${siteId}::uuid and v.lead_id = ${leadId}::uuid`;

/** The person's sessions: bound to the lead, or of one of its visitors. */
const personSessions = (siteId: string, leadId: string) =>
  sql`select s.* from visitor_sessions s where s.site_id = ${siteId}::uuid
        and (s.lead_id = ${leadId}::uuid or s.visitor_id in (${personVisitors(siteId, leadId)}))`;

type Branch = (siteId: string, leadId: string) => SQL;

/** Each branch selects (at timestamptz, type text, id text, item jsonb). */
const BRANCHES: Record<TimelineType, Branch> = {
  session: (siteId, leadId) => sql`
    select ${fromMs(sql`s.started_at`)} as at, 'session' as type, s.id::text as id,
      jsonb_build_object('url', s.url, 'referrer', s.referrer, 'utm_source', s.utm_source,
        'duration_ms', coalesce(s.duration, s.last_activity_at - s.started_at),
        'pages', (select coalesce(jsonb_agg(jsonb_build_object('url', p.url, 'at', ${iso(fromMs(sql`p."timestamp"`))}) order by p."timestamp", p.id), '[]'::jsonb)
          from (select e.id, e.url, e."timestamp" from session_events e
                 where e.site_id = s.site_id and e.session_id = s.id and e.event_type = 'pageview'
                 order by e."timestamp", e.id limit ${PAGES_PER_SESSION}) p)) as item
    from (${personSessions(siteId, leadId)}) s`,
  event: (siteId, leadId) => sql`
    select ${fromMs(sql`e."timestamp"`)} as at, 'event' as type, e.id::text as id,
      jsonb_build_object('session_id', e.session_id, 'event_type', e.event_type, 'event_name', e.event_name,
        'url', e.url, 'properties', e.properties) as item
    from session_events e join (${personSessions(siteId, leadId)}) s on s.id = e.session_id
    where e.site_id = ${siteId}::uuid and e.event_type in (${sql.join(
      SHOWN_EVENTS.map((t) => sql`${t}`),
      sql`, `,
    )})`,
  email: (siteId, leadId) => sql`
    select m.created_at as at, 'email' as type, m.id::text as id,
      jsonb_build_object('direction', m.direction, 'subject', m.subject, 'from', m.from_address,
        'to', to_jsonb(m.to_addresses), 'status', m.status) as item
    from email_messages m where m.site_id = ${siteId}::uuid and m.lead_id = ${leadId}::uuid`,
  note: (siteId, leadId) => sql`
    select n.created_at as at, 'note' as type, n.id::text as id,
      jsonb_build_object('body', n.body, 'author', jsonb_build_object(
        'type', case when n.author_key_id is null then 'member' else 'key' end,
        'id', coalesce(n.author_key_id, n.author_user_id),
        'name', coalesce(u.name, u.email, k.name))) as item
    from lead_notes n left join users u on u.id = n.author_user_id left join api_keys k on k.id = n.author_key_id
    where n.site_id = ${siteId}::uuid and n.lead_id = ${leadId}::uuid`,
  status_change: (siteId, leadId) => sql`
    select c.changed_at as at, 'status_change' as type, c.id::text as id,
      jsonb_build_object('field', c.field, 'from_value', c.old_value, 'to_value', c.new_value) as item
    from lead_changes c where c.site_id = ${siteId}::uuid and c.lead_id = ${leadId}::uuid and c.field = 'status'`,
  field_change: (siteId, leadId) => sql`
    select c.changed_at as at, 'field_change' as type, c.id::text as id,
      jsonb_build_object('field', c.field, 'from_value', c.old_value, 'to_value', c.new_value) as item
    from lead_changes c where c.site_id = ${siteId}::uuid and c.lead_id = ${leadId}::uuid and c.field <> 'status'`,
  conversation: (siteId, leadId) => sql`
    select c.created_at as at, 'conversation' as type, c.id::text as id,
      jsonb_build_object('agent', c.agent, 'title', c.title,
        'messages', (select count(*)::int from conversation_messages cm where cm.site_id = c.site_id and cm.conversation_id = c.id)) as item
    from conversations c where c.site_id = ${siteId}::uuid
      and (c.lead_id = ${leadId}::uuid or c.visitor_id in (${personVisitors(siteId, leadId)}))`,
  sequence: (siteId, leadId) => sql`
    select x.at, 'sequence' as type, x.id, x.item from (
      select e.created_at as at, e.id::text || ':started' as id,
        jsonb_build_object('sequence_id', e.sequence_id, 'sequence_name', q.name, 'action', 'started', 'status', e.status) as item
      from sequence_enrollments e join sequences q on q.id = e.sequence_id
      where e.site_id = ${siteId}::uuid and e.lead_id = ${leadId}::uuid
      union all
      select e.stopped_at, e.id::text || ':stopped',
        jsonb_build_object('sequence_id', e.sequence_id, 'sequence_name', q.name, 'action', 'stopped', 'status', e.status, 'stop_reason', e.stop_reason)
      from sequence_enrollments e join sequences q on q.id = e.sequence_id
      where e.site_id = ${siteId}::uuid and e.lead_id = ${leadId}::uuid and e.stopped_at is not null
      union all
      select e.completed_at, e.id::text || ':completed',
        jsonb_build_object('sequence_id', e.sequence_id, 'sequence_name', q.name, 'action', 'completed', 'status', e.status)
      from sequence_enrollments e join sequences q on q.id = e.sequence_id
      where e.site_id = ${siteId}::uuid and e.lead_id = ${leadId}::uuid and e.completed_at is not null
      union all
      select m.sent_at, m.id::text,
        jsonb_build_object('sequence_id', e.sequence_id, 'sequence_name', q.name, 'action', 'step_sent', 'step', m.step + 1, 'status', e.status)
      from sequence_messages m join sequence_enrollments e on e.id = m.enrollment_id join sequences q on q.id = e.sequence_id
      where e.site_id = ${siteId}::uuid and e.lead_id = ${leadId}::uuid and m.sent_at is not null
    ) x`,
};

interface Row {
  at_us: string;
  at: string;
  type: TimelineType;
  id: string;
  item: Record<string, unknown>;
}

/** One page of the lead's timeline after `cursor`; `next` is the cursor of the following page. */
export async function timelinePage(
  siteId: string,
  leadId: string,
  q: { limit: number; cursor?: TimelineCursor; types?: TimelineType[] },
): Promise<{ items: TimelineItem[]; next: TimelineCursor | null }> {
  const types = q.types ?? (Object.keys(BRANCHES) as TimelineType[]);
  const union = sql.join(
    types.map((t) => sql`(${BRANCHES[t](siteId, leadId)})`),
    sql` union all `,
  );
  const after = q.cursor ? sql`where (t.at_us, t.type, t.id) < (${q.cursor.atUs}::numeric, ${q.cursor.type}::text, ${q.cursor.id}::text)` : sql``;
  const found = await rows<Row>(sql`
    select t.at_us::text as at_us, ${iso(sql`t.at`)} as at, t.type, t.id, t.item from (
      select u.at, extract(epoch from u.at) * 1000000 as at_us, u.type::text as type, u.id::text as id, u.item
      from (${union}) u where u.at is not null
    ) t ${after}
    order by t.at_us desc, t.type desc, t.id desc limit ${q.limit + 1}`);
  const page = found.slice(0, q.limit);
  const items = page.map((r) => ({ type: r.type, at: r.at, id: r.id.replace(/:(started|stopped|completed)$/, ''), ...r.item }) as TimelineItem);
  const last = page[page.length - 1];
  return { items, next: found.length > q.limit && last ? { atUs: last.at_us, type: last.type, id: last.id } : null };
}
