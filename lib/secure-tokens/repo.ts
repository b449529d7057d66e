import { and, count, desc, eq, gt, ne, or, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import { getDb, type Db } from '@/lib/db/client';
import { isUniqueViolation } from '@/lib/db/errors';
import { changedRows } from '@/lib/db/raw';
import { secureTokenAudit, secureTokens } from '@/lib/db/schema';
import { findOfSite, firstRow, pageOf } from '@/lib/db/site-scoped';
import type { SealedSecret } from './envelope';
import type { AuditAction, AuditOutcome, SecureToken, SecureTokenAudit } from './schema';

type Row = typeof secureTokens.$inferSelect;

export const sealedOf = (row: Row): SealedSecret => ({
  iv: row.iv,
  ciphertext: row.ciphertext,
  tag: row.tag,
  wrappedKey: row.wrappedKey,
  keyId: row.keyId,
  keyVersion: row.keyVersion,
});

const toApi = (row: Row): SecureToken => ({
  id: row.id,
  site_id: row.siteId,
  type: row.type,
  identifier: row.identifier,
  key_version: row.keyVersion,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

export interface Actor {
  apiKeyId?: string;
  userId?: string;
}

export async function insertSecureToken(
  siteId: string,
  input: { id: string; type: string; identifier: string; sealed: SealedSecret; actor: Actor },
  on?: Db,
): Promise<SecureToken> {
  const db = on ?? (await getDb());
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(secureTokens)
        .values({ id: input.id, siteId, type: input.type, identifier: input.identifier, ...input.sealed, createdBy: input.actor.userId ?? null })
        .returning();
      await tx
        .insert(secureTokenAudit)
        .values(auditValues(siteId, { tokenId: row.id, identifier: row.identifier, action: 'create', outcome: 'ok', actor: input.actor }));
      return toApi(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('CONFLICT', 'A secret with this identifier already exists for the site');
    throw error;
  }
}

export async function listSecureTokens(siteId: string, page: { limit: number; offset: number }): Promise<{ items: SecureToken[]; total: number }> {
  const where = eq(secureTokens.siteId, siteId);
  const { rows, total } = await pageOf(secureTokens, where, [desc(secureTokens.createdAt), desc(secureTokens.id)], page);
  return { items: rows.map(toApi), total };
}

export async function findSecureToken(siteId: string, id: string): Promise<Row | undefined> {
  return findOfSite(secureTokens, siteId, id);
}

/** Deletes the site's secret and records it; false when the site has no such secret. */
export async function deleteSecureToken(siteId: string, id: string, actor: Actor): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(secureTokens)
      .where(and(eq(secureTokens.siteId, siteId), eq(secureTokens.id, id)))
      .returning();
    if (!row) return false;
    await tx
      .insert(secureTokenAudit)
      .values(auditValues(siteId, { tokenId: id, identifier: row.identifier, action: 'delete', outcome: 'ok', actor }));
    return true;
  });
}

export async function touchSecureToken(siteId: string, id: string): Promise<void> {
  const db = await getDb();
  await db
    .update(secureTokens)
    .set({ lastUsedAt: currentDate() })
    .where(and(eq(secureTokens.siteId, siteId), eq(secureTokens.id, id)));
}

interface AuditEntry {
  tokenId: string;
  identifier?: string | null;
  action: AuditAction;
  outcome: AuditOutcome;
  actor: Actor;
}

const auditValues = (siteId: string, e: AuditEntry) => ({
  siteId,
  tokenId: e.tokenId,
  identifier: e.identifier ?? null,
  action: e.action,
  outcome: e.outcome,
  apiKeyId: e.actor.apiKeyId ?? null,
  userId: e.actor.userId ?? null,
});

export async function recordAudit(siteId: string, entry: AuditEntry): Promise<void> {
  const db = await getDb();
  await db.insert(secureTokenAudit).values(auditValues(siteId, entry));
}

export async function listAudit(siteId: string, page: { limit: number; offset: number }): Promise<{ items: SecureTokenAudit[]; total: number }> {
  const where = eq(secureTokenAudit.siteId, siteId);
  const { rows, total } = await pageOf(secureTokenAudit, where, [desc(secureTokenAudit.createdAt), desc(secureTokenAudit.id)], page);
  return {
    items: rows.map((r) => ({
      id: r.id,
      token_id: r.tokenId,
      identifier: r.identifier,
      action: r.action,
      outcome: r.outcome,
      api_key_id: r.apiKeyId,
      user_id: r.userId,
      created_at: r.createdAt.toISOString(),
    })),
    total,
  };
}

/** Rotation: the next rows (every site, by id) whose data key is not wrapped by the current master key. */
export async function rowsToRewrap(current: { keyId: string; keyVersion: number }, after: string | undefined, limit: number): Promise<Row[]> {
  const db = await getDb();
  const stale = or(ne(secureTokens.keyId, current.keyId), ne(secureTokens.keyVersion, current.keyVersion));
  return db
    .select()
    .from(secureTokens)
    .where(after ? and(stale, gt(secureTokens.id, after)) : stale)
    .orderBy(secureTokens.id)
    .limit(limit);
}

/**
 * Replaces one row's wrapped key if the row is still as it was read (compare-and-set): a row
 * deleted or rewrapped meanwhile is left alone. One statement: readers see the old or the new
 * wrap, never half of each.
 */
export async function replaceWrappedKey(row: Row, next: SealedSecret): Promise<boolean> {
  const db = await getDb();
  const updated = await db
    .update(secureTokens)
    .set({ wrappedKey: next.wrappedKey, keyId: next.keyId, keyVersion: next.keyVersion, updatedAt: currentDate() })
    .where(
      and(
        eq(secureTokens.id, row.id),
        eq(secureTokens.siteId, row.siteId),
        eq(secureTokens.wrappedKey, row.wrappedKey),
        eq(secureTokens.keyId, row.keyId),
        eq(secureTokens.keyVersion, row.keyVersion),
      ),
    )
    .returning({ id: secureTokens.id });
  return updated.length === 1;
}

/** Counts of rows per master key version (rotation progress). */
export async function countByKeyVersion(): Promise<{ key_id: string; key_version: number; count: number }[]> {
  const db = await getDb();
  const rows = await db
    .select({ keyId: secureTokens.keyId, keyVersion: secureTokens.keyVersion, n: sql<number>`count(*)::int` })
    .from(secureTokens)
    .groupBy(secureTokens.keyId, secureTokens.keyVersion);
  return rows.map((r) => ({ key_id: r.keyId, key_version: r.keyVersion, count: Number(r.n) }));
}

export async function countSecureTokens(siteId: string, on?: Db): Promise<number> {
  const db = on ?? (await getDb());
  const [row] = await db.select({ n: count() }).from(secureTokens).where(eq(secureTokens.siteId, siteId));
  return Number(row.n);
}

export async function findSecureTokenByIdentifier(siteId: string, identifier: string): Promise<Row | undefined> {
  return firstRow(secureTokens, and(eq(secureTokens.siteId, siteId), eq(secureTokens.identifier, identifier)));
}

/** Replaces the value of one of the site's secrets (kept under the same id), recorded as a creation. */
export async function resealSecureToken(siteId: string, id: string, sealed: SealedSecret, actor: Actor): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(secureTokens)
      .set({ ...sealed, updatedAt: currentDate() })
      .where(and(eq(secureTokens.siteId, siteId), eq(secureTokens.id, id)))
      .returning();
    if (!row) throw new ApiError('NOT_FOUND', 'Secure token not found');
    await tx
      .insert(secureTokenAudit)
      .values(auditValues(siteId, { tokenId: id, identifier: row.identifier, action: 'create', outcome: 'ok', actor }));
  });
}

/** Retention (lib/worker/retention.ts): deletes up to `limit` secure token audit entries older than `cutoff`, oldest first; answers how many went. */
export const pruneSecureTokenAudit = (cutoff: Date, limit: number): Promise<number> =>
  changedRows(
    sql`delete from secure_token_audit where id in (select id from secure_token_audit where created_at < ${cutoff.toISOString()}::timestamptz order by created_at limit ${limit})`,
  );
