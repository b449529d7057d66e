import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { displaySuffixOf, generateApiKey, hashApiKey } from '@/lib/auth/api-key-format';
import { currentDate } from '@/lib/core/clock';
import { sharedBatcher } from '@/lib/db/batch';
import { getDb, type Db } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { apiKeys } from '@/lib/db/schema';
import { planLimits, type PlanLimits } from '@/lib/sites/plans';
import { keptOrLookedUp, keysChanged } from './cache';
import type { CreatedKey, CreateKeyInput, KeySummary, Scope } from './schema';

type KeyRow = typeof apiKeys.$inferSelect;

export function keyStatus(row: Pick<KeyRow, 'revokedAt' | 'expiresAt'>, now = currentDate()): KeySummary['status'] {
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

const toSummary = (row: KeyRow, now: Date): KeySummary => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  display: `${row.prefix}_…${row.displaySuffix}`,
  status: keyStatus(row, now),
  scopes: row.scopes,
  metadata: row.metadata,
  expires_at: row.expiresAt.toISOString(),
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
  revoked_at: row.revokedAt?.toISOString() ?? null,
});

/** Creates a key; the returned `apiKey` is the only time the full key exists outside the caller. */
export async function createKey(siteId: string, userId: string, input: CreateKeyInput, now = currentDate(), on?: Db): Promise<CreatedKey> {
  const db = on ?? (await getDb());
  const apiKey = generateApiKey(input.prefix);
  const [row] = await db
    .insert(apiKeys)
    .values({
      siteId,
      userId,
      name: input.name,
      prefix: input.prefix,
      keyHash: hashApiKey(apiKey),
      displaySuffix: displaySuffixOf(apiKey),
      scopes: input.scopes,
      metadata: input.metadata ?? {},
      expiresAt: new Date(now.getTime() + input.expirationDays * 86_400_000),
    })
    .returning();
  return {
    apiKey,
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    scopes: row.scopes,
    site_id: row.siteId,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

export async function listKeys(siteId: string, now = currentDate()): Promise<KeySummary[]> {
  const db = await getDb();
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.siteId, siteId)).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  return rows.map((row) => toSummary(row, now));
}

/** The status of one key of the site now; undefined when the site has no such key. */
export async function keyStatusOf(siteId: string, keyId: string, now = currentDate()): Promise<KeySummary['status'] | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ revokedAt: apiKeys.revokedAt, expiresAt: apiKeys.expiresAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.siteId, siteId), eq(apiKeys.id, keyId)))
    .limit(1);
  return row && keyStatus(row, now);
}

/** Revokes a key of the site. Returns false when the site has no such key. */
export async function revokeKey(siteId: string, keyId: string): Promise<'revoked' | 'already_revoked' | false> {
  const db = await getDb();
  const updated = await db
    .update(apiKeys)
    .set({ revokedAt: currentDate() })
    .where(and(eq(apiKeys.siteId, siteId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (updated.length) {
    // Answered once no process still accepts it (lib/db/cache-coherence.ts).
    await keysChanged();
    return 'revoked';
  }
  const [existing] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.siteId, siteId), eq(apiKeys.id, keyId)))
    .limit(1);
  return existing ? 'already_revoked' : false;
}

/**
 * Sets the scopes of a key of the site that is not revoked; answered once no process still grants
 * the old ones. Undefined when the site has no such key, 'revoked' when it is revoked.
 */
export async function setKeyScopes(siteId: string, keyId: string, scopes: Scope[], now = currentDate()): Promise<KeySummary | 'revoked' | undefined> {
  const db = await getDb();
  const [row] = await db
    .update(apiKeys)
    .set({ scopes })
    .where(and(eq(apiKeys.siteId, siteId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning();
  if (row) {
    await keysChanged();
    return toSummary(row, now);
  }
  return (await keyStatusOf(siteId, keyId, now)) ? 'revoked' : undefined;
}

export interface StoredKey {
  id: string;
  siteId: string;
  scopes: Scope[];
  expiresAt: Date;
  revokedAt: Date | null;
  /** The rate limits of the key's site, read in the same query (no extra round trip per request). */
  limits: PlanLimits;
}

/**
 * One statement of constant text for any batch (the hashes travel as one array parameter), its
 * timestamps as epoch milliseconds and its scopes as one string: nothing is built or mapped per
 * column on the request path.
 */
async function findKeysByHash(hashes: string[]): Promise<(StoredKey | undefined)[]> {
  const distinct = [...new Set(hashes)];
  // One hash (concurrent requests of one key): an equality the database plans once and keeps (a generic
  // plan); several: an array (hashes are lowercase hex, hashApiKey: the literal needs no quoting),
  // which it plans for the array's length on every call.
  const matching = distinct.length === 1 ? sql`k.key_hash = ${distinct[0]}` : sql`k.key_hash = any(${`{${distinct.join(',')}}`}::text[])`;
  const found = await rows<{
    key_hash: string;
    id: string;
    site_id: string;
    scopes: string;
    expires_at: number;
    revoked_at: number | null;
    plan: string;
    per_minute: number | null;
    concurrent: number | null;
  }>(sql`
    select k.key_hash, k.id, k.site_id, array_to_string(k.scopes, ',') as scopes,
           (extract(epoch from k.expires_at) * 1000)::float8 as expires_at,
           (extract(epoch from k.revoked_at) * 1000)::float8 as revoked_at,
           s.plan, s.rate_limit_per_minute as per_minute, s.concurrency_limit as concurrent
      from api_keys k join sites s on s.id = k.site_id
     where ${matching}`);
  const byHash = new Map<string, StoredKey>();
  for (const r of found) {
    byHash.set(r.key_hash, {
      id: r.id,
      siteId: r.site_id,
      scopes: r.scopes.split(',') as Scope[],
      expiresAt: new Date(Number(r.expires_at)),
      revokedAt: r.revoked_at === null ? null : new Date(Number(r.revoked_at)),
      limits: planLimits(r.plan, r.per_minute, r.concurrent),
    });
  }
  return hashes.map((h) => byHash.get(h));
}

/**
 * Looks a presented key up by its hash, with its site's rate limits: a key this process verified
 * lately is answered from what it kept (lib/keys/cache.ts, forgotten on every change), else
 * concurrent lookups share one query that started after they arrived. Expiry is checked by the
 * caller against the clock on every request.
 */
export function findKeyByHash(keyHash: string): Promise<StoredKey | undefined> {
  return keptOrLookedUp(
    keyHash,
    (hash) => sharedBatcher('keysByHash', findKeysByHash).submit(hash),
    (key) => !key.revokedAt,
  );
}

export interface KeyUsageRows {
  lastUsedAt: Date | null;
  lastStatus: number | null;
  days: { day: string; requests: number; errors: number }[];
}

/**
 * Requests per UTC day of one key of the site since `since`; undefined when the site has no such key.
 * The days are read before the key: a group of usage commits its counts and the key's last use
 * together, so a last use read second is never older than the counts shown beside it.
 */
export async function keyUsageByDay(siteId: string, keyId: string, since: Date): Promise<KeyUsageRows | undefined> {
  const db = await getDb();
  const days = await rows<{ day: string; requests: number; errors: number }>(sql`
    select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
           sum(requests)::int as requests,
           coalesce(sum(requests) filter (where status >= 400), 0)::int as errors
      from api_key_usage
     where key_id = ${keyId} and site_id = ${siteId} and created_at >= ${since.toISOString()}::timestamptz
     group by 1 order by 1`);
  const [key] = await db
    .select({ lastUsedAt: apiKeys.lastUsedAt, lastStatus: apiKeys.lastStatus })
    .from(apiKeys)
    .where(and(eq(apiKeys.siteId, siteId), eq(apiKeys.id, keyId)))
    .limit(1);
  if (!key) return undefined;
  return { ...key, days };
}

/** Keys of the site that are not revoked (the plan's cap counts these). */
export async function countLiveKeys(siteId: string, on?: Db): Promise<number> {
  const db = on ?? (await getDb());
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(eq(apiKeys.siteId, siteId), isNull(apiKeys.revokedAt)));
  return Number(row.n);
}
