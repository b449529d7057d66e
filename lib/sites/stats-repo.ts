import { sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { rows } from '@/lib/db/raw';
import { isLiveSql } from '@/lib/db/visitor-session-lifetime';
import type { SiteStats } from './schema';

/** The live counts of ./service.ts `siteStats` but people and bots (the analytics service's), in one round trip. */
export async function siteCounts(
  siteId: string,
  now = currentDate(),
): Promise<
  Omit<SiteStats, 'visitors' | 'sessions'> & {
    visitors: { total: number; identified: number };
    sessions: { total: number; active: number; last_24h: number };
  }
> {
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  const nowMs = now.getTime();
  const [row] = await rows<{
    keys_total: number;
    keys_revoked: number;
    keys_expired: number;
    requests_total: number;
    requests_24h: number;
    commands_by_status: Record<string, number> | null;
    visitors_total: number;
    visitors_identified: number;
    sessions_total: number;
    sessions_active: number;
    sessions_24h: number;
    events_total: number;
    events_24h: number;
    uploads_total: number;
    uploads_bytes: number;
    leads_by_status: Record<string, number> | null;
    segments_total: number;
    segments_active: number;
    requirements_by_status: Record<string, number> | null;
  }>(sql`
    select
      (select count(*)::int from api_keys where site_id = ${siteId}) as keys_total,
      (select count(*)::int from api_keys where site_id = ${siteId} and revoked_at is not null) as keys_revoked,
      (select count(*)::int from api_keys where site_id = ${siteId} and revoked_at is null and expires_at <= ${now.toISOString()}::timestamptz) as keys_expired,
      (select coalesce(sum(requests), 0)::int from api_key_usage where site_id = ${siteId}) as requests_total,
      (select coalesce(sum(requests), 0)::int from api_key_usage where site_id = ${siteId} and created_at > ${dayAgo.toISOString()}::timestamptz) as requests_24h,
      (select jsonb_object_agg(status, n) from (
         select status, count(*)::int as n from commands where site_id = ${siteId} group by status
       ) s) as commands_by_status,
      (select count(*)::int from visitors where site_id = ${siteId}) as visitors_total,
      (select count(*)::int from visitors where site_id = ${siteId} and lead_id is not null) as visitors_identified,
      (select count(*)::int from visitor_sessions where site_id = ${siteId}) as sessions_total,
      (select count(*)::int from visitor_sessions where site_id = ${siteId} and ${isLiveSql(nowMs)}) as sessions_active,
      (select count(*)::int from visitor_sessions where site_id = ${siteId} and created_at > ${nowMs - 86_400_000}::bigint) as sessions_24h,
      (select count(*)::int from session_events where site_id = ${siteId}) as events_total,
      (select count(*)::int from session_events where site_id = ${siteId} and received_at > ${nowMs - 86_400_000}::bigint) as events_24h,
      (select count(*)::int from visitor_uploads where site_id = ${siteId}) as uploads_total,
      (select coalesce(sum(size), 0)::float8 from visitor_uploads where site_id = ${siteId}) as uploads_bytes,
      (select jsonb_object_agg(status, n) from (
         select status, count(*)::int as n from leads where site_id = ${siteId} group by status
       ) l) as leads_by_status,
      (select count(*)::int from segments where site_id = ${siteId}) as segments_total,
      (select count(*)::int from segments where site_id = ${siteId} and is_active) as segments_active,
      (select jsonb_object_agg(status, n) from (
         select status, count(*)::int as n from requirements where site_id = ${siteId} group by status
       ) r) as requirements_by_status
  `);
  const counted = (byStatus: Record<string, number> | null) => ({
    total: Object.values(byStatus ?? {}).reduce((a, b) => a + b, 0),
    by_status: byStatus ?? {},
  });
  return {
    site_id: siteId,
    generated_at: now.toISOString(),
    api_keys: {
      total: row.keys_total,
      active: row.keys_total - row.keys_revoked - row.keys_expired,
      revoked: row.keys_revoked,
      expired: row.keys_expired,
    },
    api_requests: { total: row.requests_total, last_24h: row.requests_24h },
    commands: counted(row.commands_by_status),
    visitors: { total: row.visitors_total, identified: row.visitors_identified },
    sessions: { total: row.sessions_total, active: row.sessions_active, last_24h: row.sessions_24h },
    events: { total: row.events_total, last_24h: row.events_24h },
    uploads: { total: row.uploads_total, bytes: Number(row.uploads_bytes) },
    leads: counted(row.leads_by_status),
    segments: { total: row.segments_total, active: row.segments_active },
    requirements: counted(row.requirements_by_status),
  };
}

/** Counts of the site over the last `windowHours` (dailyStandUp) but its visits (the analytics service's), in one round trip. */
export async function recentFigures(siteId: string, windowHours: number, now: Date) {
  const since = new Date(now.getTime() - windowHours * 3_600_000);
  const [row] = await rows<{
    leads_total: number;
    leads_new: number;
    leads_by_status: Record<string, number> | null;
    events: number;
    commands_by_status: Record<string, number> | null;
  }>(sql`
    select
      (select count(*)::int from leads where site_id = ${siteId}) as leads_total,
      (select count(*)::int from leads where site_id = ${siteId} and created_at > ${since.toISOString()}::timestamptz) as leads_new,
      (select jsonb_object_agg(status, n) from (
         select status, count(*)::int as n from leads where site_id = ${siteId} group by status
       ) l) as leads_by_status,
      (select count(*)::int from session_events e where e.site_id = ${siteId} and e.received_at >= ${since.getTime()}::bigint
         and not exists (select 1 from visitor_sessions b where b.site_id = ${siteId} and b.is_bot and b.id = e.session_id)) as events,
      (select jsonb_object_agg(status, n) from (
         select status, count(*)::int as n from commands where site_id = ${siteId} and created_at > ${since.toISOString()}::timestamptz group by status
       ) c) as commands_by_status
  `);
  return {
    window_hours: windowHours,
    leads_total: row.leads_total,
    leads_new: row.leads_new,
    leads_by_status: row.leads_by_status ?? {},
    events: row.events,
    commands_by_status: row.commands_by_status ?? {},
  };
}
