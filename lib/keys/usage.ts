import { errorFields, log } from '@/lib/core/log';
import { sharedBatcher } from '@/lib/db/batch';
import { writeTallies, type KeyTally } from './usage-repo';

/**
 * Key usage is the request path's own write, committed in groups in the process that served the
 * requests: the same group-commit helper as visitor events (`lib/db/batch`), except that nobody
 * waits on it — a request records its usage and answers — so a group gathers for up to a second
 * (or 20,000 entries), is counted in the process (a row per key, minute, method, route and status)
 * and goes in one transaction, one at a time per process: a busy second costs the database one
 * small statement. Not a background job: queueing a job per request would write more than the
 * entry itself.
 *
 * A crash can lose the last second of usage records; a stop writes them first (`flushKeyUsage`,
 * on SIGTERM/SIGINT in the web process, and tests). Every key's entries are logged even when a
 * neighbour's cannot be: when a group's transaction fails (a key deleted with its site between
 * request and commit breaks the foreign key), each key's counts are written alone, so only the
 * deleted key's are lost.
 *
 * Retention: rows older than KEY_USAGE_RETENTION_DAYS are deleted by the hourly retention job
 * (lib/worker/retention.ts). `api_keys.last_used_at` and `last_status` are kept on the key and outlive the
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

const writer = sharedBatcher('keyUsage', writeEntries, { maxBatch: 20_000, concurrency: 1, gatherMs: 1000 });

export function recordKeyUsage(entry: UsageEntry): void {
  // A group's failures are logged where it is written; anything else is logged here, never fatal.
  writer.submit(entry).catch((error) => log.warn('key usage not recorded', errorFields(error)));
}

/** Writes everything recorded so far. Shutdown and tests call it. */
export function flushKeyUsage(): Promise<void> {
  return writer.flush();
}

const MINUTE_MS = 60_000;

/** The entries counted per key; of two entries of a key at the same instant, the later one (arrival order) is its last use. */
function tally(entries: UsageEntry[]): KeyTally[] {
  const keys = new Map<string, KeyTally>();
  for (const e of entries) {
    let key = keys.get(e.keyId);
    if (!key) keys.set(e.keyId, (key = { keyId: e.keyId, siteId: e.siteId, counts: new Map(), last: { at: e.at, status: e.status } }));
    else if (e.at >= key.last.at) key.last = { at: e.at, status: e.status };
    const minute = Math.floor(e.at.getTime() / MINUTE_MS) * MINUTE_MS;
    const id = `${minute} ${e.status} ${e.method} ${e.route}`;
    const count = key.counts.get(id);
    if (count) count.requests++;
    else key.counts.set(id, { method: e.method, route: e.route, status: e.status, minute: new Date(minute).toISOString(), requests: 1 });
  }
  return [...keys.values()];
}

/**
 * Writes a group. A key deleted with its site between request and commit breaks the group's
 * foreign key: each key's counts are then written alone, so only that key's are lost.
 */
async function writeEntries(entries: UsageEntry[]): Promise<void[]> {
  const keys = tally(entries);
  const lost = (error: unknown) => log.warn('key usage not recorded', errorFields(error));
  await writeTallies(keys).catch(async (error) => {
    if (keys.length === 1) return lost(error);
    for (const key of keys) await writeTallies([key]).catch(lost);
  });
  return entries.map(() => undefined);
}
