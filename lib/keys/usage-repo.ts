import { sql } from 'drizzle-orm';
import { changedRows, rows } from '@/lib/db/raw';

/** One key's entries of a group: requests per minute, method, route and status, and its last use. */
export interface KeyTally {
  keyId: string;
  siteId: string;
  counts: Map<string, { method: string; route: string; status: number; minute: string; requests: number }>;
  last: { at: Date; status: number };
}

/**
 * Adds the counts to their minutes' rows (one upsert per row) and moves each key's last use
 * forward, in one statement (one round trip, one commit); the rows travel as JSON parameters, so
 * the statement's text is the same for any group.
 */
export async function writeTallies(keys: KeyTally[]): Promise<void> {
  const counts = JSON.stringify(
    keys.flatMap((k) => [...k.counts.values()].map((c) => [k.keyId, k.siteId, c.method, c.route, c.status, c.minute, c.requests])),
  );
  const lastUses = JSON.stringify(keys.map((k) => [k.keyId, k.last.at.toISOString(), k.last.status]));
  await rows(sql`
    with counted as (
      insert into api_key_usage (key_id, site_id, method, route, status, created_at, requests)
      select (v ->> 0)::uuid, (v ->> 1)::uuid, v ->> 2, v ->> 3, (v ->> 4)::int, (v ->> 5)::timestamptz, (v ->> 6)::int
        from jsonb_array_elements(${counts}::jsonb) as v
      on conflict (key_id, created_at, method, route, status) do update set requests = api_key_usage.requests + excluded.requests
    )
    update api_keys k set
      last_status = case when k.last_used_at is null or k.last_used_at <= u.at then u.status else k.last_status end,
      last_used_at = greatest(coalesce(k.last_used_at, u.at), u.at)
    from (select (v ->> 0)::uuid as key_id, (v ->> 1)::timestamptz as at, (v ->> 2)::int as status
            from jsonb_array_elements(${lastUses}::jsonb) as v) u
    where k.id = u.key_id`);
}

/** Retention (lib/worker/retention.ts): deletes up to `limit` key usage rows older than `cutoff`, oldest first; answers how many went. */
export const pruneKeyUsage = (cutoff: Date, limit: number): Promise<number> =>
  changedRows(
    sql`delete from api_key_usage where id in (select id from api_key_usage where created_at < ${cutoff.toISOString()}::timestamptz order by created_at limit ${limit})`,
  );
