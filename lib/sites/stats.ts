import { sql } from 'drizzle-orm';
import { rows } from '@/lib/db/raw';
import type { SiteStats } from './schema';

/** Live counts for one site, computed from the data in one round trip. */
export async function siteStats(siteId: string, now = new Date()): Promise<SiteStats> {
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  const [row] = await rows<{
    keys_total: number;
    keys_revoked: number;
    keys_expired: number;
    requests_total: number;
    requests_24h: number;
    commands_by_status: Record<string, number> | null;
  }>(sql`
    select
      (select count(*)::int from api_keys where site_id = ${siteId}) as keys_total,
      (select count(*)::int from api_keys where site_id = ${siteId} and revoked_at is not null) as keys_revoked,
      (select count(*)::int from api_keys where site_id = ${siteId} and revoked_at is null and expires_at <= ${now.toISOString()}::timestamptz) as keys_expired,
      (select count(*)::int from api_key_usage where site_id = ${siteId}) as requests_total,
      (select count(*)::int from api_key_usage where site_id = ${siteId} and created_at > ${dayAgo.toISOString()}::timestamptz) as requests_24h,
      (select jsonb_object_agg(status, n) from (
         select status, count(*)::int as n from commands where site_id = ${siteId} group by status
       ) s) as commands_by_status
  `);
  const byStatus = row.commands_by_status ?? {};
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
    commands: { total: Object.values(byStatus).reduce((a, b) => a + b, 0), by_status: byStatus },
  };
}
