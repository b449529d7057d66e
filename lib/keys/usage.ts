import { sql } from 'drizzle-orm';
import { errorFields, log } from '@/lib/core/log';
import { sharedBatcher } from '@/lib/db/batch';
import { rows } from '@/lib/db/raw';

/**
 * Key usage is the request path's own write, committed in groups in the process that served the
 * requests: the same group-commit helper as visitor events (`lib/db/batch`), except that nobody
 * waits on it — a request records its usage and answers — so a group gathers for up to a second
 * (or 200 entries) and goes in one transaction, one at a time per process. Not a background job:
 * queueing a job per request would write more than the entry itself.
 *
 * A crash can lose the last second of usage records; a stop writes them first (`flushKeyUsage`,
 * on SIGTERM/SIGINT in the web process, and tests). Every entry is logged even when one of its
 * neighbours cannot be: when a group's transaction fails (a key deleted with its site between
 * request and commit breaks the foreign key), each entry is written alone, so only the one that
 * cannot be stored is lost.
 *
 * Retention: rows older than KEY_USAGE_RETENTION_DAYS are deleted by the hourly retention job
 * (lib/retention). `api_keys.last_used_at` and `last_status` are kept on the key and outlive the
 * pruned rows.
 */
export interface UsageEntry {
  keyId: string;
  siteId: string;
  method: string;
  route: string;
  status: number;
  at: Date;
}

const writer = sharedBatcher('keyUsage', writeEntries, { maxBatch: 200, concurrency: 1, gatherMs: 1000 });

export function recordKeyUsage(entry: UsageEntry): void {
  // A key deleted with its site between request and commit is the expected cause; never fatal.
  writer.submit(entry).catch((error) => log.warn('key usage not recorded', errorFields(error)));
}

/** Writes everything recorded so far. Shutdown and tests call it. */
export function flushKeyUsage(): Promise<void> {
  return writer.flush();
}

/**
 * Counts the entries into their minutes (a row per key, minute, method, route and status: one
 * upsert per combination, however many requests) and moves each key's last use forward, in one
 * statement (one round trip, one commit): the entries travel as one JSON parameter (an array per
 * entry), so the statement's text is the same for any group and nothing is built per row.
 */
async function writeEntries(entries: UsageEntry[]): Promise<void[]> {
  // In arrival order: of two entries of a key at the same instant, the later one is its last use.
  const input = JSON.stringify(entries.map((e) => [e.keyId, e.siteId, e.method, e.route, e.status, e.at.toISOString()]));
  await rows(sql`
    with input as (
      select (v ->> 0)::uuid as key_id, (v ->> 1)::uuid as site_id, v ->> 2 as method, v ->> 3 as route,
             (v ->> 4)::int as status, (v ->> 5)::timestamptz as at, ord
        from jsonb_array_elements(${input}::jsonb) with ordinality as e(v, ord)
    ),
    counted as (
      insert into api_key_usage (key_id, site_id, method, route, status, created_at, requests)
      select key_id, site_id, method, route, status, date_trunc('minute', at at time zone 'UTC') at time zone 'UTC', count(*)::int
        from input
       group by 1, 2, 3, 4, 5, 6
      on conflict (key_id, created_at, method, route, status) do update set requests = api_key_usage.requests + excluded.requests
    ),
    last_use as (
      select distinct on (key_id) key_id, at, status from input order by key_id, at desc, ord desc
    )
    update api_keys k set
      last_status = case when k.last_used_at is null or k.last_used_at <= u.at then u.status else k.last_status end,
      last_used_at = greatest(coalesce(k.last_used_at, u.at), u.at)
    from last_use u
    where k.id = u.key_id`);
  return entries.map(() => undefined);
}
