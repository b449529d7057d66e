import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { sharedBatcher } from '@/lib/db/batch';
import { displaySuffixOf, generateApiKey, hashApiKey } from '@/lib/auth/api-key-format';
import { getDb } from '@/lib/db/client';
import { apiKeys } from '@/lib/db/schema';
import type { CreatedKey, CreateKeyInput, KeySummary, Scope } from './schema';

type KeyRow = typeof apiKeys.$inferSelect;

export function keyStatus(row: Pick<KeyRow, 'revokedAt' | 'expiresAt'>, now = new Date()): KeySummary['status'] {
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
export async function createKey(siteId: string, userId: string, input: CreateKeyInput, now = new Date()): Promise<CreatedKey> {
  const db = await getDb();
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

export async function listKeys(siteId: string, now = new Date()): Promise<KeySummary[]> {
  const db = await getDb();
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.siteId, siteId)).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  return rows.map((row) => toSummary(row, now));
}

/** Revokes a key of the site. Returns false when the site has no such key. */
export async function revokeKey(siteId: string, keyId: string): Promise<'revoked' | 'already_revoked' | false> {
  const db = await getDb();
  const updated = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.siteId, siteId), eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (updated.length) return 'revoked';
  const [existing] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.siteId, siteId), eq(apiKeys.id, keyId)))
    .limit(1);
  return existing ? 'already_revoked' : false;
}

export interface StoredKey {
  id: string;
  siteId: string;
  scopes: Scope[];
  expiresAt: Date;
  revokedAt: Date | null;
}

async function findKeysByHash(hashes: string[]): Promise<(StoredKey | undefined)[]> {
  const db = await getDb();
  const rows = await db
    .select({ keyHash: apiKeys.keyHash, id: apiKeys.id, siteId: apiKeys.siteId, scopes: apiKeys.scopes, expiresAt: apiKeys.expiresAt, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(inArray(apiKeys.keyHash, [...new Set(hashes)]));
  const byHash = new Map(rows.map(({ keyHash, ...key }) => [keyHash, key]));
  return hashes.map((h) => byHash.get(h));
}

/**
 * Looks a presented key up by its hash. Concurrent lookups share one query (no cache): each
 * request is answered by a query that started after it arrived, so revocation and expiry take
 * effect on the very next request.
 */
export function findKeyByHash(keyHash: string): Promise<StoredKey | undefined> {
  return sharedBatcher('keysByHash', findKeysByHash).submit(keyHash);
}
