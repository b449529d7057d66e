import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { apiKeyUsage } from '@/lib/db/schema';
import { errorFields, log } from '@/lib/log';

/**
 * Key usage is recorded off the request path: entries are buffered in memory and written in
 * one transaction per flush (every second, or at 200 entries). A crash can lose at most the
 * last second of usage records; requests themselves never wait for them.
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
type State = { buffer: UsageEntry[]; timer?: NodeJS.Timeout; flushing: Promise<void> };
const g = globalThis as { [KEY]?: State };
const state: State = (g[KEY] ??= { buffer: [], flushing: Promise.resolve() });

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
  try {
    const db = await getDb();
    const lastUse = new Map<string, Date>();
    for (const e of batch) if ((lastUse.get(e.keyId)?.getTime() ?? 0) < e.at.getTime()) lastUse.set(e.keyId, e.at);
    await db.transaction(async (tx) => {
      await tx.insert(apiKeyUsage).values(
        batch.map((e) => ({ keyId: e.keyId, siteId: e.siteId, method: e.method, route: e.route, status: e.status, createdAt: e.at })),
      );
      for (const [keyId, at] of lastUse) {
        await tx.execute(
          sql`update api_keys set last_used_at = greatest(coalesce(last_used_at, ${at.toISOString()}::timestamptz), ${at.toISOString()}::timestamptz) where id = ${keyId}`,
        );
      }
    });
  } catch (error) {
    // A key deleted with its site between request and flush is the expected cause; never fatal.
    log.warn('key usage not recorded', { entries: batch.length, ...errorFields(error) });
  }
}
