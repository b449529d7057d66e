import { sql } from 'drizzle-orm';
import { rows } from '@/lib/db/raw';
import type { PersonExport } from './schema';

type Json = Record<string, unknown>;

/**
 * Everything stored about the site's lead, as stored (each row's columns under their names): the
 * lead, its visitors, their sessions with events, emails, notes, field history, the agents'
 * conversations with their messages, sequence enrollments with the messages of their steps, and
 * uploaded files' metadata. One read in one transaction, so the parts agree. Undefined when the
 * lead is not the site's.
 */
export async function personData(siteId: string, leadId: string): Promise<Omit<PersonExport, 'exported_at'> | undefined> {
  const site = sql`${siteId}::uuid`;
  const lead = sql`${leadId}::uuid`;
  const visitors = sql`select id from visitors where site_id = ${site} and lead_id = ${lead}`;
  const list = async (query: ReturnType<typeof sql>) => (await rows<{ row: Json }>(query)).map((r) => r.row);
  const [found] = await rows<{ row: Json }>(sql`select to_jsonb(l) - 'search_text' as row from leads l where l.site_id = ${site} and l.id = ${lead}`);
  if (!found) return undefined;
  const [visitorRows, sessions, emails, notes, changes, conversations, enrollments, uploads] = await Promise.all([
    list(sql`select to_jsonb(v) as row from visitors v where v.site_id = ${site} and v.lead_id = ${lead} order by v.first_seen_at`),
    list(sql`select to_jsonb(s) || jsonb_build_object('events', (
               select coalesce(jsonb_agg(to_jsonb(e) order by e."timestamp", e.id), '[]'::jsonb) from session_events e
               where e.site_id = s.site_id and e.session_id = s.id)) as row
             from visitor_sessions s where s.site_id = ${site} and (s.lead_id = ${lead} or s.visitor_id in (${visitors}))
             order by s.started_at`),
    list(sql`select to_jsonb(m) as row from email_messages m where m.site_id = ${site} and m.lead_id = ${lead} order by m.created_at`),
    list(sql`select to_jsonb(n) as row from lead_notes n where n.site_id = ${site} and n.lead_id = ${lead} order by n.created_at`),
    list(sql`select to_jsonb(c) as row from lead_changes c where c.site_id = ${site} and c.lead_id = ${lead} order by c.id`),
    list(sql`select to_jsonb(c) || jsonb_build_object('messages', (
               select coalesce(jsonb_agg(to_jsonb(m) order by m.seq), '[]'::jsonb) from conversation_messages m
               where m.site_id = c.site_id and m.conversation_id = c.id)) as row
             from conversations c where c.site_id = ${site} and (c.lead_id = ${lead} or c.visitor_id in (${visitors}))
             order by c.created_at`),
    list(sql`select to_jsonb(e) || jsonb_build_object('sequence_name', q.name, 'messages', (
               select coalesce(jsonb_agg(to_jsonb(m) order by m.step), '[]'::jsonb) from sequence_messages m
               where m.site_id = e.site_id and m.enrollment_id = e.id)) as row
             from sequence_enrollments e join sequences q on q.id = e.sequence_id
             where e.site_id = ${site} and e.lead_id = ${lead} order by e.created_at`),
    list(sql`select to_jsonb(u) as row from visitor_uploads u where u.site_id = ${site} and u.visitor_id in (${visitors}) order by u.created_at`),
  ]);
  return {
    site_id: siteId,
    lead: found.row,
    visitors: visitorRows,
    sessions,
    emails,
    notes,
    field_changes: changes,
    conversations,
    enrollments,
    uploads,
  };
}
