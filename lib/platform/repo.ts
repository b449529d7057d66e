import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { displaySuffixOf, generatePlatformKey, hashApiKey, PLATFORM_KEY_PREFIX } from '@/lib/auth/api-key-format';
import { currentDate } from '@/lib/core/clock';
import { CAPABILITIES, type Capability, type PlanLimits } from '@/lib/core/principal';
import { getDb, type Db } from '@/lib/db/client';
import { isUniqueViolation } from '@/lib/db/errors';
import { changedRows } from '@/lib/db/raw';
import { platformApps, platformAuditLog, platformKeys, sites } from '@/lib/db/schema';
import { findOfSite, pageOf } from '@/lib/db/site-scoped';
import { planLimits } from '@/lib/sites/plans';
import type { App, AuditEntry, CreatedPlatformKey, CreatePlatformKeyInput, PlatformKeySummary } from './schema';

type AppRow = typeof platformApps.$inferSelect;
type KeyRow = typeof platformKeys.$inferSelect;

// ——— Apps ———

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 16 lower-case base32 characters (80 bits): the app's short id, so its schema is `app_<short id>`. */
function newShortId(): string {
  return [...randomBytes(16)].map((b) => BASE32[b & 31]).join('');
}

export const appSchemaName = (shortId: string) => `app_${shortId}`;

const toApp = (row: AppRow): App => ({
  id: row.id,
  name: row.name,
  short_id: row.shortId,
  schema: appSchemaName(row.shortId),
  created_at: row.createdAt.toISOString(),
});

export async function createApp(siteId: string, name: string, on?: Db): Promise<App> {
  const db = on ?? (await getDb());
  // A short-id collision (80 random bits) is astronomically unlikely; one retry covers it anyway.
  for (let attempt = 0; ; attempt++) {
    try {
      // A savepoint of its own, so a collision inside the caller's transaction can be retried.
      const [row] = await db.transaction((attemptTx) => attemptTx.insert(platformApps).values({ siteId, name, shortId: newShortId() }).returning());
      return toApp(row);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt > 0) throw error;
    }
  }
}

export async function listApps(siteId: string): Promise<App[]> {
  const db = await getDb();
  const found = await db
    .select()
    .from(platformApps)
    .where(eq(platformApps.siteId, siteId))
    .orderBy(asc(platformApps.createdAt), asc(platformApps.id));
  return found.map(toApp);
}

export async function findApp(siteId: string, appId: string): Promise<App | undefined> {
  const row = await findOfSite(platformApps, siteId, appId);
  return row && toApp(row);
}

// ——— Keys ———

export function platformKeyStatus(row: Pick<KeyRow, 'revokedAt' | 'expiresAt'>, now = currentDate()): PlatformKeySummary['status'] {
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

const isCapability = (value: string): value is Capability => (CAPABILITIES as readonly string[]).includes(value);

const toKeySummary = (row: KeyRow, now = currentDate()): PlatformKeySummary => ({
  id: row.id,
  app_id: row.appId,
  name: row.name,
  display: `${PLATFORM_KEY_PREFIX}_…${row.displaySuffix}`,
  status: platformKeyStatus(row, now),
  capabilities: row.capabilities.filter(isCapability),
  expires_at: row.expiresAt.toISOString(),
  created_at: row.createdAt.toISOString(),
  revoked_at: row.revokedAt?.toISOString() ?? null,
});

/** Creates a key for an app of the site; the returned `platformKey` is the only time the full key exists. */
export async function createPlatformKey(
  siteId: string,
  userId: string,
  input: CreatePlatformKeyInput,
  now = currentDate(),
): Promise<CreatedPlatformKey> {
  const db = await getDb();
  const platformKey = generatePlatformKey();
  const [row] = await db
    .insert(platformKeys)
    .values({
      siteId,
      appId: input.app_id,
      userId,
      name: input.name,
      keyHash: hashApiKey(platformKey),
      displaySuffix: displaySuffixOf(platformKey),
      capabilities: input.capabilities,
      expiresAt: new Date(now.getTime() + input.expirationDays * 86_400_000),
    })
    .returning();
  return { ...toKeySummary(row, now), platformKey };
}

export async function listPlatformKeys(siteId: string, appId?: string): Promise<PlatformKeySummary[]> {
  const db = await getDb();
  const where = appId ? and(eq(platformKeys.siteId, siteId), eq(platformKeys.appId, appId)) : eq(platformKeys.siteId, siteId);
  const found = await db.select().from(platformKeys).where(where).orderBy(asc(platformKeys.createdAt), asc(platformKeys.id));
  const now = currentDate();
  return found.map((row) => toKeySummary(row, now));
}

export async function findPlatformKey(siteId: string, keyId: string): Promise<PlatformKeySummary | undefined> {
  const row = await findOfSite(platformKeys, siteId, keyId);
  return row && toKeySummary(row);
}

/** Revokes a key of the site. False when the site has no such key. */
export async function revokePlatformKey(siteId: string, keyId: string): Promise<'revoked' | 'already_revoked' | false> {
  const db = await getDb();
  const updated = await db
    .update(platformKeys)
    .set({ revokedAt: currentDate() })
    .where(and(eq(platformKeys.siteId, siteId), eq(platformKeys.id, keyId), isNull(platformKeys.revokedAt)))
    .returning({ id: platformKeys.id });
  if (updated.length) return 'revoked';
  return (await findPlatformKey(siteId, keyId)) ? 'already_revoked' : false;
}

export interface StoredPlatformKey {
  id: string;
  siteId: string;
  appId: string;
  appShortId: string;
  capabilities: Capability[];
  expiresAt: Date;
  revokedAt: Date | null;
  limits: PlanLimits;
}

/** A presented key by its hash, with its app and its site's rate limits, in one query (no cache: revocation acts at once). */
export async function findPlatformKeyByHash(keyHash: string): Promise<StoredPlatformKey | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({
      id: platformKeys.id,
      siteId: platformKeys.siteId,
      appId: platformKeys.appId,
      appShortId: platformApps.shortId,
      capabilities: platformKeys.capabilities,
      expiresAt: platformKeys.expiresAt,
      revokedAt: platformKeys.revokedAt,
      plan: sites.plan,
      perMinute: sites.rateLimitPerMinute,
      concurrent: sites.concurrencyLimit,
    })
    .from(platformKeys)
    .innerJoin(platformApps, eq(platformApps.id, platformKeys.appId))
    .innerJoin(sites, eq(sites.id, platformKeys.siteId))
    .where(eq(platformKeys.keyHash, keyHash))
    .limit(1);
  if (!row) return undefined;
  const { plan, perMinute, concurrent, capabilities, ...key } = row;
  return { ...key, capabilities: capabilities.filter(isCapability), limits: planLimits(plan, perMinute, concurrent) };
}

/** The key, its app and its site, for introspection. */
export async function platformIdentity(siteId: string, keyId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ key: platformKeys, app: platformApps, site: { id: sites.id, name: sites.name, domain: sites.domain } })
    .from(platformKeys)
    .innerJoin(platformApps, eq(platformApps.id, platformKeys.appId))
    .innerJoin(sites, eq(sites.id, platformKeys.siteId))
    .where(and(eq(platformKeys.siteId, siteId), eq(platformKeys.id, keyId)))
    .limit(1);
  return row && { key: toKeySummary(row.key), app: toApp(row.app), site: row.site };
}

// ——— Audit log ———

export interface AuditWrite {
  siteId: string;
  appId: string;
  keyId: string;
  requestId: string;
  method: string;
  route: string;
  capability: string | null;
  status: number;
  errorCode: string | null;
}

export async function insertAuditEntry(entry: AuditWrite): Promise<void> {
  const db = await getDb();
  await db.insert(platformAuditLog).values({ ...entry, createdAt: currentDate() });
}

export async function listAuditEntries(
  siteId: string,
  q: { appId?: string; limit: number; offset: number },
): Promise<{ items: AuditEntry[]; total: number }> {
  const where = q.appId ? and(eq(platformAuditLog.siteId, siteId), eq(platformAuditLog.appId, q.appId)) : eq(platformAuditLog.siteId, siteId);
  const { rows, total } = await pageOf(platformAuditLog, where, [desc(platformAuditLog.createdAt), desc(platformAuditLog.id)], q);
  return {
    total,
    items: rows.map((r) => ({
      id: r.id,
      app_id: r.appId,
      key_id: r.keyId,
      request_id: r.requestId,
      method: r.method,
      route: r.route,
      capability: r.capability,
      status: r.status,
      error_code: r.errorCode,
      created_at: r.createdAt.toISOString(),
    })),
  };
}

export async function countApps(siteId: string, on?: Db): Promise<number> {
  const db = on ?? (await getDb());
  const [row] = await db.select({ n: count() }).from(platformApps).where(eq(platformApps.siteId, siteId));
  return Number(row.n);
}

/** Retention (lib/worker/retention.ts): deletes up to `limit` platform audit entries older than `cutoff`, oldest first; answers how many went. */
export const prunePlatformAudit = (cutoff: Date, limit: number): Promise<number> =>
  changedRows(
    sql`delete from platform_audit_log where id in (select id from platform_audit_log where created_at < ${cutoff.toISOString()}::timestamptz order by created_at limit ${limit})`,
  );
