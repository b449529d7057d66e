import { sql } from 'drizzle-orm';
import { errorFields, log } from '@/lib/core/log';
import { sharedBatcher } from '@/lib/db/batch';
import { getDb } from '@/lib/db/client';
import { apiKeyUsage } from '@/lib/db/schema';

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

/** Inserts the entries and moves each key's last use forward, in one transaction. */
async function writeEntries(entries: UsageEntry[]): Promise<void[]> {
  const db = await getDb();
  const lastUse = new Map<string, UsageEntry>();
  for (const e of entries) if ((lastUse.get(e.keyId)?.at.getTime() ?? 0) <= e.at.getTime()) lastUse.set(e.keyId, e);
  await db.transaction(async (tx) => {
    await tx
      .insert(apiKeyUsage)
      .values(entries.map((e) => ({ keyId: e.keyId, siteId: e.siteId, method: e.method, route: e.route, status: e.status, createdAt: e.at })));
    for (const [keyId, { at, status }] of lastUse) {
      const when = at.toISOString();
      await tx.execute(
        sql`update api_keys set
              last_status = case when last_used_at is null or last_used_at <= ${when}::timestamptz then ${status} else last_status end,
              last_used_at = greatest(coalesce(last_used_at, ${when}::timestamptz), ${when}::timestamptz)
            where id = ${keyId}`,
      );
    }
  });
  return entries.map(() => undefined);
}
