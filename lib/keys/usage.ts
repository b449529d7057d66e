import { sql } from 'drizzle-orm';
import { batcher, type Batcher } from '@/lib/db/batch';
import { getDb } from '@/lib/db/client';
import { apiKeyUsage } from '@/lib/db/schema';
import { errorFields, log } from '@/lib/core/log';

/**
 * Key usage is recorded off the request path: entries are buffered in memory and written in
 * one transaction per flush (every second, or at 200 entries). A crash can lose at most the
 * last second of usage records; requests themselves never wait for them.
 *
 * Every entry is logged even when one of its neighbours cannot be: a flush goes through a
 * batcher, which writes the entries together and, when that transaction fails (a key deleted
 * with its site between request and flush breaks the foreign key), writes each one alone, so
 * only the entry that cannot be stored is lost.
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

const FLUSH_INTERVAL_MS = 1000;
const FLUSH_SIZE = 200;

const KEY = Symbol.for('sgp.keyUsage');
type State = { buffer: UsageEntry[]; timer?: NodeJS.Timeout; flushing: Promise<void>; writer?: Batcher<UsageEntry, void> };
const g = globalThis as { [KEY]?: State };
const state: State = (g[KEY] ??= { buffer: [], flushing: Promise.resolve() });
// One batch at a time: flushes are already serialized, and a flush's entries share one transaction.
const writer = (state.writer ??= batcher(writeEntries, { maxBatch: 500, concurrency: 1 }));

export function recordKeyUsage(entry: UsageEntry): void {
  state.buffer.push(entry);
  if (state.buffer.length >= FLUSH_SIZE) void flushKeyUsage();
  else if (!state.timer) {
    state.timer = setTimeout(() => void flushKeyUsage(), FLUSH_INTERVAL_MS);
    state.timer.unref();
  }
}

/** Writes everything buffered so far. Tests and shutdown call it directly. */
export function flushKeyUsage(): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  const batch = state.buffer.splice(0);
  state.flushing = state.flushing.then(() => (batch.length ? write(batch) : undefined));
  return state.flushing;
}

async function write(batch: UsageEntry[]): Promise<void> {
  const results = await Promise.allSettled(batch.map((entry) => writer.submit(entry)));
  const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  // A key deleted with its site between request and flush is the expected cause; never fatal.
  if (lost.length) log.warn('key usage not recorded', { entries: lost.length, of: batch.length, ...errorFields(lost[0].reason) });
}

/** Inserts the entries and moves each key's last use forward, in one transaction. */
async function writeEntries(entries: UsageEntry[]): Promise<void[]> {
  const db = await getDb();
  const lastUse = new Map<string, UsageEntry>();
  for (const e of entries) if ((lastUse.get(e.keyId)?.at.getTime() ?? 0) <= e.at.getTime()) lastUse.set(e.keyId, e);
  await db.transaction(async (tx) => {
    await tx.insert(apiKeyUsage).values(
      entries.map((e) => ({ keyId: e.keyId, siteId: e.siteId, method: e.method, route: e.route, status: e.status, createdAt: e.at })),
    );
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
